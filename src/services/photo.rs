//! Player photos: JPEG or PNG taken at the desk, size-checked, decoded and re-encoded as a
//! bounded JPEG (no metadata survives, no oversized image is stored).

use crate::domain::refusal::PlayerRefusal;
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
        return Err(AppError::TooLarge(Problem::from(
            PlayerRefusal::PhotoTooLarge { max: 5 },
        )));
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
        .map_err(|e| AppError::internal_from("jpeg encoding", e))?;
    Ok(Photo {
        jpeg: out,
        width: rgb.width(),
        height: rgb.height(),
    })
}

// ---- a refused form keeps its photo ---------------------------------------------
//
// The desk attached a photo, the form was refused (a missing field, under 18, a duplicate):
// the form comes back with the photo kept, so it is not attached again. The kept photo travels
// in the form itself — a hidden field holding the processed JPEG, its expiry and an HMAC over
// both and the staff session — rather than in a server-side table: nothing is stored that
// could outlive the form, any server process of a room accepts it (no sticky sessions), and
// it cannot be replayed from another session or after an hour.

/// How long a refused form keeps its photo.
pub const KEEP_SECS: i64 = 3600;
/// A processed photo larger than this is not kept (it would be sent back and forth in the
/// form); a photo bounded to 600×800 at JPEG quality 85 is far smaller.
pub const KEEP_MAX_JPEG: usize = 1024 * 1024;
/// The largest kept-photo field a form may carry (base64 of the JPEG and the signature).
pub const KEEP_MAX_FIELD: usize = KEEP_MAX_JPEG * 4 / 3 + 256;
const KEEP_LABEL: &[u8] = b"cardroom kept photo v1\0";

fn keep_mac(
    key: &[u8; 32],
    session: &str,
    exp: i64,
    w: u32,
    h: u32,
    jpeg: &[u8],
) -> hmac::Hmac<sha2::Sha256> {
    use hmac::Mac;
    // Its own key, derived from the given one, so no other signature of the server is ever
    // valid as a kept photo's (and the reverse).
    let mut k =
        <hmac::Hmac<sha2::Sha256> as Mac>::new_from_slice(key).expect("HMAC takes any key length");
    k.update(b"cardroom kept photos key");
    let sub = k.finalize().into_bytes();
    let mut mac =
        <hmac::Hmac<sha2::Sha256> as Mac>::new_from_slice(&sub).expect("HMAC takes any key length");
    mac.update(KEEP_LABEL);
    mac.update(session.as_bytes());
    mac.update(b"\0");
    mac.update(format!("{exp}.{w}.{h}.").as_bytes());
    mac.update(jpeg);
    mac
}

/// The hidden field's value keeping `photo` for the staff `session` until `exp` (Unix
/// seconds). None when the photo is too large to keep.
pub fn keep(key: &[u8; 32], session: &str, photo: &Photo, exp: i64) -> Option<String> {
    use base64::Engine;
    use hmac::Mac;
    if photo.jpeg.len() > KEEP_MAX_JPEG {
        return None;
    }
    let tag = keep_mac(key, session, exp, photo.width, photo.height, &photo.jpeg)
        .finalize()
        .into_bytes();
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    Some(format!(
        "{exp}.{}.{}.{}.{}",
        photo.width,
        photo.height,
        b64.encode(&photo.jpeg),
        b64.encode(tag)
    ))
}

/// The photo a form kept, with its expiry, if the field was made for this `session` and has
/// not expired at `now` (Unix seconds). Refused otherwise, with a message for the photo field
/// (422): the desk attaches the photo again.
pub fn kept(
    key: &[u8; 32],
    session: &str,
    field: &str,
    now: i64,
) -> Result<(Photo, i64), AppError> {
    use base64::Engine;
    use hmac::Mac;
    let invalid = || AppError::Validation(vec![FieldError::new("photo", "err-photo-kept-invalid")]);
    if field.len() > KEEP_MAX_FIELD {
        return Err(invalid());
    }
    let parts: Vec<&str> = field.trim().split('.').collect();
    let [exp, w, h, data, tag] = parts[..] else {
        return Err(invalid());
    };
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let (Ok(exp), Ok(w), Ok(h), Ok(jpeg), Ok(tag)) = (
        exp.parse::<i64>(),
        w.parse::<u32>(),
        h.parse::<u32>(),
        b64.decode(data),
        b64.decode(tag),
    ) else {
        return Err(invalid());
    };
    // Constant-time check of the signature before anything else is believed.
    keep_mac(key, session, exp, w, h, &jpeg)
        .verify_slice(&tag)
        .map_err(|_| invalid())?;
    if now >= exp {
        return Err(AppError::Validation(vec![FieldError::new(
            "photo",
            "err-photo-kept-expired",
        )
        .arg("minutes", KEEP_SECS / 60)]));
    }
    Ok((
        Photo {
            jpeg,
            width: w,
            height: h,
        },
        exp,
    ))
}

/// A small JPEG of the photo as a `data:` address, for the form's "photo kept" thumbnail
/// (a few kilobytes instead of the photo itself a second time in the page).
pub fn thumbnail_data_url(photo: &Photo) -> Option<String> {
    use base64::Engine;
    let img = image::load_from_memory_with_format(&photo.jpeg, ImageFormat::Jpeg).ok()?;
    let small = img.thumbnail(96, 128).to_rgb8();
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 70)
        .encode_image(&small)
        .ok()?;
    Some(format!(
        "data:image/jpeg;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(out)
    ))
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
    fn a_kept_photo_comes_back_only_to_its_session_and_within_the_hour() {
        let key = [7u8; 32];
        let p = process(&generated_portrait(5)).unwrap();
        let field = keep(&key, "s1", &p, 1_000 + KEEP_SECS).unwrap();
        let (back, exp) = kept(&key, "s1", &field, 1_000).unwrap();
        assert_eq!(
            (back.jpeg, back.width, back.height, exp),
            (p.jpeg.clone(), 240, 320, 4_600)
        );
        let key_of = |r: Result<(Photo, i64), AppError>| match r {
            Err(AppError::Validation(f)) => f[0].key,
            _ => "accepted",
        };
        // Another session, another server key, an hour later, a changed byte, junk.
        assert_eq!(
            key_of(kept(&key, "s2", &field, 1_000)),
            "err-photo-kept-invalid"
        );
        assert_eq!(
            key_of(kept(&[8u8; 32], "s1", &field, 1_000)),
            "err-photo-kept-invalid"
        );
        assert_eq!(
            key_of(kept(&key, "s1", &field, 4_600)),
            "err-photo-kept-expired"
        );
        let later = field.replacen("4600.", "9600.", 1);
        assert_eq!(
            key_of(kept(&key, "s1", &later, 1_000)),
            "err-photo-kept-invalid"
        );
        assert_eq!(
            key_of(kept(&key, "s1", "a.b.c", 1_000)),
            "err-photo-kept-invalid"
        );
        let thumb = thumbnail_data_url(&p).unwrap();
        assert!(thumb.starts_with("data:image/jpeg;base64,") && thumb.len() < 12_000);
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
