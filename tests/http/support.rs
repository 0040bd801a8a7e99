//! What the HTTP tests share: the app from `TestApp::builder()` (`tests/support/app.rs`: a
//! fresh database per test — a temp SQLite file, or with `CARDROOM_TEST_DB=postgres` a new
//! database on the PostgreSQL server named by `CARDROOM_TEST_PG`), and the requests, sign-ins
//! and reads the tests make on it.

#![allow(dead_code)]

use actix_http::Request;
use actix_web::body::{to_bytes, BoxBody};
use actix_web::dev::{Service, ServiceResponse};
use actix_web::test;
use diesel::prelude::*;
use serde_json::Value;

pub use crate::app::*;

pub struct Resp {
    pub status: u16,
    pub headers: actix_web::http::header::HeaderMap,
    pub body: Vec<u8>,
}

impl Resp {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|_| panic!("not JSON ({}): {}", self.status, self.text()))
    }
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    }
    /// `error.code` and `error.message` of a JSON error.
    pub fn error(&self) -> (String, String) {
        let j = self.json();
        (
            j["error"]["code"].as_str().unwrap_or_default().to_string(),
            j["error"]["message"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
        )
    }
    /// `set-cookie` value for a cookie name.
    pub fn cookie(&self, name: &str) -> Option<String> {
        self.headers
            .get_all("set-cookie")
            .filter_map(|v| v.to_str().ok())
            .find_map(|c| {
                let (kv, _) = c.split_once(';').unwrap_or((c, ""));
                let (k, v) = kv.split_once('=')?;
                (k == name).then(|| v.to_string())
            })
    }
}

impl TestApp {
    pub async fn call(&self, req: Request) -> Resp {
        let res = self.svc.call(req).await.expect("service call");
        let status = res.status().as_u16();
        let headers = res.headers().clone();
        let body = to_bytes(res.into_body())
            .await
            .map(|b| b.to_vec())
            .unwrap_or_default();
        Resp {
            status,
            headers,
            body,
        }
    }

    /// The response as it comes (for streams that never end).
    pub async fn call_raw(&self, req: Request) -> ServiceResponse<BoxBody> {
        self.svc.call(req).await.expect("service call")
    }

    /// Runs a closure on a database connection (to assert that nothing changed, etc.).
    pub fn with_conn<T>(&self, f: impl FnOnce(&mut cardroom::db::DbConn) -> T) -> T {
        let mut c = self.state.db.conn().expect("connection");
        f(&mut c)
    }

    /// Number of audit records: a refused request must not add any.
    pub fn audit_count(&self) -> i64 {
        use cardroom::db::schema::audit_log::dsl::*;
        self.with_conn(|c| audit_log.count().get_result(c).unwrap())
    }

    pub fn count(&self, table: &str) -> i64 {
        #[derive(QueryableByName)]
        struct N {
            #[diesel(sql_type = diesel::sql_types::BigInt)]
            n: i64,
        }
        self.with_conn(|c| {
            diesel::sql_query(format!("SELECT COUNT(*) AS n FROM {table}"))
                .get_result::<N>(c)
                .unwrap()
                .n
        })
    }

    // ---- JSON API helpers -------------------------------------------------------------

    pub async fn api_login(&self, username: &str, password: &str) -> String {
        let r = self
            .call(
                test::TestRequest::post()
                    .uri("/api/v1/auth/login")
                    .set_json(serde_json::json!({ "username": username, "password": password }))
                    .to_request(),
            )
            .await;
        assert_eq!(r.status, 200, "login {username}: {}", r.text());
        r.json()["token"].as_str().expect("token").to_string()
    }

    pub async fn admin_token(&self) -> String {
        self.api_login("admin", ADMIN_PW).await
    }

    /// Creates a staff member with a role (through the service, as the system) and returns
    /// an API token for them.
    pub async fn staff_token(&self, username: &str, role: &str) -> String {
        self.create_staff(username, role);
        self.api_login(username, STAFF_PW).await
    }

    /// The floor assigns the dealer whose token this is to a table for the shift: from then
    /// on the dealer may act at that table (and only there) through the API.
    pub async fn assign_dealer(&self, dealer_token: &str, table_id: i64) {
        let id = self.get("/api/v1/me", dealer_token).await.json()["id"]
            .as_i64()
            .expect("dealer id");
        let admin = self.admin_token().await;
        let r = self
            .send_json(
                "POST",
                &format!("/api/v1/tables/{table_id}/dealer"),
                &admin,
                serde_json::json!({ "dealer_id": id }),
            )
            .await;
        assert_eq!(r.status, 201, "assign dealer: {}", r.text());
    }

    /// Changes the room's rule profile through the API, as an admin would.
    pub async fn set_profile(
        &self,
        admin_token: &str,
        change: impl FnOnce(&mut cardroom::domain::profile::RuleProfile),
    ) {
        let mut room = self.with_conn(|c| cardroom::services::room::get(c).unwrap());
        change(&mut room.profile);
        let r = self
            .send_json(
                "PUT",
                "/api/v1/room",
                admin_token,
                serde_json::json!({ "name": room.name, "timezone": room.timezone,
                    "currency": room.currency, "default_language": room.default_language,
                    "profile": room.profile }),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text());
    }

    /// The plan the backend's planner makes for `sql`, one line per step (PostgreSQL's
    /// `EXPLAIN` with table scans priced out, so that a near-empty table does not decide the
    /// plan; SQLite's `EXPLAIN QUERY PLAN`): tests that a read inside the write turn uses
    /// its index.
    pub fn plan_of(&self, sql: &str) -> Vec<String> {
        self.explain(
            &["SET enable_seqscan = off"],
            &format!("EXPLAIN {sql}"),
            &["RESET enable_seqscan"],
            sql,
        )
    }

    /// The lines of an `EXPLAIN`: on PostgreSQL `pg_explain` between the `before` and
    /// `after` statements; on SQLite `EXPLAIN QUERY PLAN` of `lite_sql`.
    fn explain(
        &self,
        before: &[&str],
        pg_explain: &str,
        after: &[&str],
        lite_sql: &str,
    ) -> Vec<String> {
        use diesel::RunQueryDsl;
        #[derive(diesel::QueryableByName)]
        struct PgLine {
            #[diesel(sql_type = diesel::sql_types::Text, column_name = "QUERY PLAN")]
            line: String,
        }
        #[derive(diesel::QueryableByName)]
        struct LiteLine {
            #[diesel(sql_type = diesel::sql_types::Text)]
            detail: String,
        }
        self.with_conn(|c| match c {
            cardroom::db::DbConn::Postgres(_) => {
                for q in before {
                    diesel::sql_query(*q).execute(c).unwrap();
                }
                let rows = diesel::sql_query(pg_explain).load::<PgLine>(c).unwrap();
                for q in after {
                    diesel::sql_query(*q).execute(c).unwrap();
                }
                rows.into_iter().map(|r| r.line).collect()
            }
            cardroom::db::DbConn::Sqlite(_) => {
                diesel::sql_query(format!("EXPLAIN QUERY PLAN {lite_sql}"))
                    .load::<LiteLine>(c)
                    .unwrap()
                    .into_iter()
                    .map(|r| r.detail)
                    .collect()
            }
        })
    }

    /// Runs `f` on a connection of the app and gives back, with its answer, the text of every
    /// statement it sent, as diesel shows it (`… -- binds: […]`), names quoted with double
    /// quotes on both backends (SQLite's text quotes them with backticks).
    pub fn statements_of<T>(
        &self,
        f: impl FnOnce(&mut cardroom::db::DbConn) -> T,
    ) -> (T, Vec<String>) {
        use diesel::connection::{Connection, InstrumentationEvent};
        let sql = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
        let seen = sql.clone();
        let out = self.with_conn(|c| {
            c.set_instrumentation(move |ev: InstrumentationEvent<'_>| {
                if let InstrumentationEvent::StartQuery { query, .. } = ev {
                    seen.lock()
                        .unwrap()
                        .push(query.to_string().replace('`', "\""));
                }
            });
            let out = f(c);
            c.set_instrumentation(|_: InstrumentationEvent<'_>| {});
            out
        });
        let sql = sql.lock().unwrap().clone();
        (out, sql)
    }

    /// The plan of a statement `f` sent as the write turn plans it: on PostgreSQL its generic
    /// plan (`plan_cache_mode = force_generic_plan`, as write transactions set it), for the
    /// values it was sent with; on SQLite `EXPLAIN QUERY PLAN` (its plans do not depend on
    /// bound values). `captured` is one line of [`Self::statements_of`].
    pub fn generic_plan_of(&self, captured: &str) -> Vec<String> {
        let (sql, binds) = captured
            .split_once(" -- binds: [")
            .map(|(q, b)| (q, b.trim_end_matches(']')))
            .unwrap_or((captured, ""));
        let prepare = format!("PREPARE plan_probe AS {sql}");
        self.explain(
            &[&prepare, "SET plan_cache_mode = force_generic_plan"],
            &format!("EXPLAIN EXECUTE plan_probe({binds})"),
            &["RESET plan_cache_mode", "DEALLOCATE plan_probe"],
            sql,
        )
    }

    pub fn create_staff(&self, username: &str, role: &str) {
        let now = self.state.clock.now();
        let input = cardroom::services::staff::StaffInput {
            username: Some(username.into()),
            display_name: username.into(),
            role: role.into(),
            password: Some(STAFF_PW.into()),
            active: Some(true),
        };
        self.with_conn(|c| {
            cardroom::services::staff::create(c, now, &cardroom::db::audit::Actor::system(), &input)
                .expect("create staff")
        });
    }

    pub async fn get(&self, uri: &str, token: &str) -> Resp {
        self.call(
            test::TestRequest::get()
                .uri(uri)
                .insert_header(("Authorization", format!("Bearer {token}")))
                .to_request(),
        )
        .await
    }

    pub async fn send_json(&self, method: &str, uri: &str, token: &str, body: Value) -> Resp {
        let req = match method {
            "POST" => test::TestRequest::post(),
            "PUT" => test::TestRequest::put(),
            "PATCH" => test::TestRequest::patch(),
            "DELETE" => test::TestRequest::delete(),
            other => panic!("method {other}"),
        };
        self.call(
            req.uri(uri)
                .insert_header(("Authorization", format!("Bearer {token}")))
                .set_json(body)
                .to_request(),
        )
        .await
    }

    // ---- page (cookie session) helpers ---------------------------------------------------

    /// Signs in through the login page; returns the session cookie and its CSRF token.
    /// The sign-in form, filled and sent as a browser does: the answer to the POST.
    pub async fn login_form(&self, username: &str, password: &str) -> Resp {
        let page = self
            .call(test::TestRequest::get().uri("/login").to_request())
            .await;
        let pre = page.cookie("cr_pre").expect("pre-login cookie");
        let csrf = hidden_csrf(&page.text());
        self.call(
            test::TestRequest::post()
                .uri("/login")
                .cookie(actix_web::cookie::Cookie::new("cr_pre", pre))
                .set_form([
                    ("csrf", csrf.as_str()),
                    ("username", username),
                    ("password", password),
                ])
                .to_request(),
        )
        .await
    }

    pub async fn web_login(&self, username: &str, password: &str) -> WebSession {
        let r = self.login_form(username, password).await;
        assert_eq!(r.status, 303, "web login {username}: {}", r.text());
        let session = r.cookie("cr_session").expect("session cookie");
        let home = self
            .call(
                test::TestRequest::get()
                    .uri("/")
                    .cookie(actix_web::cookie::Cookie::new(
                        "cr_session",
                        session.clone(),
                    ))
                    .to_request(),
            )
            .await;
        WebSession {
            cookie: session,
            csrf: hidden_csrf(&home.text()),
        }
    }

    pub async fn page(&self, uri: &str, s: &WebSession) -> Resp {
        self.call(test::TestRequest::get().uri(uri).cookie(s.c()).to_request())
            .await
    }

    /// The floor board's live part followed by every table's panel (`/floor/panel`): all the
    /// floor shows of its tables, seats and actions, to search in one string.
    pub async fn floor_all(&self, s: &WebSession) -> String {
        let mut out = self.page("/floor/live", s).await.text();
        let numbers: Vec<String> = out
            .split("id=\"tile-")
            .skip(1)
            .filter_map(|r| r.split('"').next().map(str::to_string))
            .collect();
        for n in numbers {
            let panel = self.page(&format!("/floor/panel?table={n}"), s).await;
            assert_eq!(panel.status, 200, "/floor/panel?table={n}");
            out.push_str(&panel.text());
        }
        out
    }

    /// Posts an URL-encoded form with the session's CSRF token.
    pub async fn post_form(&self, uri: &str, s: &WebSession, fields: &[(&str, &str)]) -> Resp {
        let mut all: Vec<(&str, &str)> = vec![("csrf", s.csrf.as_str())];
        all.extend_from_slice(fields);
        self.call(
            test::TestRequest::post()
                .uri(uri)
                .cookie(s.c())
                .set_form(all)
                .to_request(),
        )
        .await
    }
}

#[derive(Clone)]
pub struct WebSession {
    pub cookie: String,
    pub csrf: String,
}

impl WebSession {
    pub fn c(&self) -> actix_web::cookie::Cookie<'static> {
        actix_web::cookie::Cookie::new("cr_session", self.cookie.clone())
    }
}

/// The value of the first `<input type="hidden" name="csrf" value="…">` in a page.
pub fn hidden_csrf(html: &str) -> String {
    let i = html
        .find("name=\"csrf\" value=\"")
        .expect("csrf field in page");
    let rest = &html[i + "name=\"csrf\" value=\"".len()..];
    rest[..rest.find('"').unwrap()].to_string()
}

/// A multipart body with text fields and an optional file; returns (content type, body).
pub fn multipart(fields: &[(&str, &str)], file: Option<(&str, &str, &[u8])>) -> (String, Vec<u8>) {
    let boundary = "----cardroomtestboundary7MA4YWxkTrZu0gW";
    let mut body = Vec::new();
    for (k, v) in fields {
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n")
                .as_bytes(),
        );
    }
    if let Some((name, content_type, data)) = file {
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"photo\"\r\nContent-Type: {content_type}\r\n\r\n")
                .as_bytes(),
        );
        body.extend_from_slice(data);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

/// A valid adult registration (JSON shape of `PlayerForm`).
pub fn player_json(doc_number: &str) -> Value {
    serde_json::json!({
        "full_name": "Ana Maria Silva",
        "date_of_birth": "1990-05-17",
        "doc_kind": "national_id",
        "doc_number": doc_number,
        "doc_country": "PT",
        "doc_expiry": "2031-01-01",
        "phone": "+351912345678",
        "email": "ana@example.pt",
        "language": "pt",
        "notify": "sms",
        "alias": "Ana"
    })
}
