//! Player photos: JPEG or PNG taken at the desk, size-checked, decoded and re-encoded as a
//! bounded JPEG (no metadata survives, no oversized image is stored).

use crate::domain::{FieldError, Problem};
use crate::error::AppError;
use image::{ImageFormat, ImageReader, Limits};
use std::io::Cursor;

/// BSOP 3 photos: uploads above 5 MB are refused.
pub const MAX_UPLOAD_BYTES: usize = 5 * 1024 * 1024;
/// Stored photos fit in this box.
pub const MAX_WIDTH: u32 = 600;
pub const MAX_HEIGHT: u32 = 800;

#[derive(Debug, Clone)]
pub struct Photo {
    pub jpeg: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

pub fn process(bytes: &[u8]) -> Result<Photo, AppError> {
    if bytes.len() > MAX_UPLOAD_BYTES {
        return Err(AppError::TooLarge(
            Problem::new("err-photo-too-large").arg("max", 5),
        ));
    }
    let not_image = || AppError::Validation(vec![FieldError::new("photo", "err-photo-not-image")]);
    match image::guess_format(bytes) {
        Ok(ImageFormat::Jpeg) | Ok(ImageFormat::Png) => {}
        _ => return Err(not_image()),
    }
    let mut reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|_| not_image())?;
    let mut limits = Limits::default();
    // A desk photo never needs more: bounds the memory a decoded upload may take.
    limits.max_image_width = Some(6_000);
    limits.max_image_height = Some(6_000);
    limits.max_alloc = Some(128 * 1024 * 1024);
    reader.limits(limits);
    let img = reader.decode().map_err(|_| not_image())?;
    if img.width() < 64 || img.height() < 64 {
        return Err(AppError::Validation(vec![FieldError::new(
            "photo",
            "err-photo-too-small",
        )
        .arg("min", 64)]));
    }
    let img = if img.width() > MAX_WIDTH || img.height() > MAX_HEIGHT {
        img.resize(MAX_WIDTH, MAX_HEIGHT, image::imageops::FilterType::Triangle)
    } else {
        img
    };
    let rgb = img.to_rgb8();
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 85)
        .encode_image(&rgb)
        .map_err(|e| AppError::Internal(format!("jpeg encoding: {e}")))?;
    Ok(Photo {
        jpeg: out,
        width: rgb.width(),
        height: rgb.height(),
    })
}

/// A simple generated portrait (demo room and tests): a head and shoulders in varied skin,
/// shirt and background tones, so staff can tell demo players apart.
pub fn generated_portrait(seed: u64) -> Vec<u8> {
    const SKIN: [[u8; 3]; 6] = [
        [255, 224, 196],
        [234, 192, 160],
        [198, 144, 106],
        [160, 110, 75],
        [120, 80, 52],
        [90, 60, 40],
    ];
    const BACKGROUND: [[u8; 3]; 6] = [
        [96, 125, 139],
        [120, 144, 156],
        [84, 110, 122],
        [141, 160, 170],
        [70, 90, 110],
        [110, 120, 140],
    ];
    const SHIRT: [[u8; 3]; 6] = [
        [33, 33, 33],
        [25, 55, 109],
        [94, 30, 40],
        [30, 80, 60],
        [70, 70, 80],
        [120, 90, 40],
    ];
    let pick = |list: &[[u8; 3]; 6], k: u64| {
        image::Rgb(list[(seed.wrapping_mul(2654435761).wrapping_add(k) % 6) as usize])
    };
    let (skin, bg, shirt) = (pick(&SKIN, 1), pick(&BACKGROUND, 2), pick(&SHIRT, 3));
    let img = image::RgbImage::from_fn(240, 320, |x, y| {
        let (fx, fy) = (x as i64 - 120, y as i64 - 120);
        if fx * fx * 100 / 55 / 55 + fy * fy * 100 / 70 / 70 <= 100 {
            skin
        } else if y > 210 && (x as i64 - 120).abs() < 110 - (320 - y as i64) / 3 {
            shirt
        } else {
            bg
        }
    });
    let mut out = Vec::new();
    image::codecs::png::PngEncoder::new(&mut out)
        .write_image(&img, 240, 320, image::ExtendedColorType::Rgb8)
        .expect("png encoding");
    out
}

use image::ImageEncoder;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_is_reencoded_as_jpeg() {
        let p = process(&generated_portrait(3)).unwrap();
        assert_eq!(&p.jpeg[..2], &[0xFF, 0xD8]);
        assert_eq!((p.width, p.height), (240, 320));
    }

    #[test]
    fn non_images_and_huge_uploads_are_refused() {
        assert!(matches!(
            process(b"GIF89a not really"),
            Err(AppError::Validation(_))
        ));
        assert!(matches!(process(b"%PDF-1.4"), Err(AppError::Validation(_))));
        let mut fake_png = vec![0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A];
        fake_png.extend_from_slice(&[0u8; 100]);
        assert!(matches!(process(&fake_png), Err(AppError::Validation(_))));
        assert!(matches!(
            process(&vec![0u8; MAX_UPLOAD_BYTES + 1]),
            Err(AppError::TooLarge(_))
        ));
    }
}
