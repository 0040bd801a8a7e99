//! Player registry pages: search, register (with the desk photo), view, edit, bans,
//! separations, history.

mod bans;
mod form;
mod link;
mod search;
mod show;
mod waiting;

use bans::{ban, lift, separate, unseparate};
pub use form::*;
use form::{create, edit_form, new_form, update};
use link::{link_page, link_send, links_revoke};
use search::list;
pub use search::*;
use show::{photo_file, show};
use waiting::{join_lists, set_pref};

use crate::domain::Problem;
use crate::error::AppError;
use crate::services::photo::{self};
use actix_multipart::form::MultipartFormConfig;
use actix_web::web;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.app_data(
        MultipartFormConfig::default()
            // The photo, the text fields, and a photo kept from a refused form (its field).
            .total_limit(photo::MAX_UPLOAD_BYTES + photo::KEEP_MAX_FIELD + 512 * 1024)
            .memory_limit(photo::MAX_UPLOAD_BYTES + photo::KEEP_MAX_FIELD + 512 * 1024)
            .error_handler(|e, _| {
                use actix_multipart::MultipartError as M;
                match e {
                    M::ContentTypeMissing | M::ContentTypeIncompatible | M::ContentTypeParse => {
                        AppError::UnsupportedMedia(Problem::new("err-content-type-multipart"))
                            .into()
                    }
                    // Only the form's size limits overflow the payload (the photo is the
                    // only large part).
                    M::Payload(_) => {
                        AppError::TooLarge(Problem::new("err-photo-too-large").arg("max", 5)).into()
                    }
                    // A text field that is not text (invalid UTF-8, or sent as a file): that
                    // field is refused, not the photo's size.
                    M::Field { name, .. } => {
                        AppError::Validation(vec![crate::domain::FieldError::new(
                            &name,
                            "err-not-text",
                        )
                        .arg("field", &name)])
                        .into()
                    }
                    other => {
                        AppError::BadRequest(Problem::new("err-form").arg("detail", other)).into()
                    }
                }
            }),
    )
    .route("/players", web::get().to(list))
    .route("/players", web::post().to(create))
    .route("/players/new", web::get().to(new_form))
    .route("/players/{id}", web::get().to(show))
    .route("/players/{id}", web::post().to(update))
    .route("/players/{id}/edit", web::get().to(edit_form))
    .route("/players/{id}/photo", web::get().to(photo_file))
    .route("/players/{id}/lists", web::post().to(join_lists))
    .route("/players/{id}/seat-preference", web::post().to(set_pref))
    .route("/players/{id}/bans", web::post().to(ban))
    .route("/bans/{id}/lift", web::post().to(lift))
    .route("/players/{id}/separations", web::post().to(separate))
    .route("/separations/{id}/remove", web::post().to(unseparate))
    .route("/players/{id}/link", web::get().to(link_page))
    .route("/players/{id}/link/send", web::post().to(link_send))
    .route("/players/{id}/links/revoke", web::post().to(links_revoke));
}
