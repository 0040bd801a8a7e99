//! What the floor's pages share: the board's filter as the address carries it, the panel a
//! form was sent from, and what an action said (the toast carried across the redirect).

use crate::domain::ids::GameId;
use crate::domain::player::Language;
use crate::i18n::I18n;
use actix_web::cookie::{time::Duration as CookieDuration, Cookie, SameSite};
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse};

/// The board's search and game filter, as the address carries them.
#[derive(Debug, Default, Clone)]
pub struct BoardFilter {
    pub q: String,
    pub game: Option<GameId>,
}

/// The table whose panel a form was sent from (`/floor?table=N` as its referrer): the floor
/// comes back to it after the action.
pub fn panel_of_referer(req: &HttpRequest) -> Option<i32> {
    let r = req.headers().get(header::REFERER)?.to_str().ok()?;
    let rest = r
        .strip_prefix("http://")
        .or_else(|| r.strip_prefix("https://"))?;
    let (host, path) = rest.split_once('/')?;
    if host != req.connection_info().host() {
        return None;
    }
    let query = path.strip_prefix("floor?")?;
    let query = query.split('#').next().unwrap_or("");
    serde_urlencoded::from_str::<Vec<(String, String)>>(query)
        .ok()?
        .into_iter()
        .find(|(k, _)| k == "table")
        .and_then(|(_, v)| v.trim().parse().ok())
}

/// What an action did, to be said on the dashboard it lands on: a message key with its
/// arguments, and the address that undoes it, if it can be undone — or, for an action asked
/// for the first time that frees a seat, the address that does it on the second tap.
pub struct Said {
    pub key: &'static str,
    pub args: Vec<(&'static str, String)>,
    pub undo: Option<String>,
    pub confirm: Option<String>,
}

impl Said {
    pub fn new(key: &'static str) -> Said {
        Said {
            key,
            args: Vec::new(),
            undo: None,
            confirm: None,
        }
    }

    pub fn arg(mut self, name: &'static str, value: impl ToString) -> Said {
        self.args.push((name, value.to_string()));
        self
    }

    pub fn undo(mut self, path: String) -> Said {
        self.undo = Some(path);
        self
    }

    /// The second tap's address (only `/floor/seatings/{id}/leave`).
    pub fn confirm(mut self, path: String) -> Said {
        self.confirm = Some(path);
        self
    }

    /// In the user's language.
    pub fn flash(&self, i18n: &I18n, lang: Language) -> Flash {
        Flash {
            text: i18n.msg(lang, self.key, &self.args),
            undo: self.undo.clone(),
            confirm: self.confirm.clone(),
        }
    }
}

/// The toast after an action: carried by a short-lived cookie across the redirect, shown
/// once (the dashboard clears it).
#[derive(Debug, Clone)]
pub struct Flash {
    pub text: String,
    /// Where a form undoes the action (only `/floor/entries/{id}/restore`).
    pub undo: Option<String>,
    /// Where a form confirms a seat-ending action (only `/floor/seatings/{id}/leave`): the
    /// first tap said what would happen and changed nothing.
    pub confirm: Option<String>,
}

const FLASH_COOKIE: &str = "floor_done";

impl Flash {
    /// For the floor's pages (`/floor…`).
    pub fn set(&self, res: &mut HttpResponse) {
        self.set_for(res, "/floor");
    }

    /// For the pages under `path` (the cookie goes back only to them).
    pub fn set_for(&self, res: &mut HttpResponse, path: &'static str) {
        let mut pairs = vec![("m", self.text.chars().take(300).collect::<String>())];
        if let Some(u) = &self.undo {
            pairs.push(("u", u.clone()));
        }
        if let Some(k) = &self.confirm {
            pairs.push(("k", k.clone()));
        }
        let value = serde_urlencoded::to_string(pairs).unwrap_or_default();
        let c = Cookie::build(FLASH_COOKIE, value)
            .path(path)
            .http_only(true)
            .same_site(SameSite::Strict)
            .max_age(CookieDuration::seconds(30))
            .finish();
        let _ = res.add_cookie(&c);
    }

    /// The toast the last action left, if any. The undo address is only ever a restore of a
    /// list entry (a cookie is the browser's: nothing else may come through it).
    pub fn read(req: &HttpRequest) -> Option<Flash> {
        let c = req.cookie(FLASH_COOKIE)?;
        let pairs: Vec<(String, String)> = serde_urlencoded::from_str(c.value()).ok()?;
        let mut f = Flash {
            text: String::new(),
            undo: None,
            confirm: None,
        };
        for (k, v) in pairs {
            match k.as_str() {
                "m" => f.text = v.chars().take(300).collect(),
                "u" if is_restore_path(&v) => f.undo = Some(v),
                "k" if is_leave_path(&v) => f.confirm = Some(v),
                _ => {}
            }
        }
        (!f.text.is_empty()).then_some(f)
    }

    pub fn clear(res: &mut HttpResponse) {
        Flash::clear_for(res, "/floor");
    }

    pub fn clear_for(res: &mut HttpResponse, path: &'static str) {
        let mut c = Cookie::build(FLASH_COOKIE, "").path(path).finish();
        c.make_removal();
        let _ = res.add_cookie(&c);
    }
}

fn is_leave_path(p: &str) -> bool {
    p.strip_prefix("/floor/seatings/")
        .and_then(|r| r.strip_suffix("/leave"))
        .is_some_and(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
}

fn is_restore_path(p: &str) -> bool {
    p.strip_prefix("/floor/entries/")
        .and_then(|r| r.strip_suffix("/restore"))
        .is_some_and(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
}
