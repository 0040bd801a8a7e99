//! Messages to players against the real app: a real SMTP server (aiosmtpd, started
//! by the test), a local HTTP server standing in for the SMS gateway (generic and Twilio
//! formats) that honours idempotency keys, and the faults: providers down for a while, a
//! worker stopped between sending and recording, a restart, two workers at once.
//!
//! The delivery worker is driven by hand (`Worker::run_once`), the clock moved with the
//! test clock: no sleeps.

use crate::support::*;
use actix_web::test;
use cardroom::config::{Config, Settings};
use cardroom::domain::player::{DocumentKind, Language, NotifyPref, PlayerInput};
use cardroom::notify::channels::Transports;
use cardroom::notify::link::{self, LinkError, Purpose};
use cardroom::notify::worker::{Fault, Worker};
use chrono::{Duration, NaiveDate};
use diesel::prelude::*;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

// ---- the app with message settings ------------------------------------------------------

/// The app with message settings: the test clock, the local sink in a directory of its own,
/// short retry delays; `Deref`s to its [`TestApp`].
struct NApp {
    app: TestApp,
    config: Config,
}

impl std::ops::Deref for NApp {
    type Target = TestApp;
    fn deref(&self) -> &TestApp {
        &self.app
    }
}

impl NApp {
    async fn new(tune: impl FnOnce(&mut Settings)) -> NApp {
        let app = TestApp::builder()
            .clock(ClockKind::Test)
            .notify_sink()
            .tune(|c| {
                c.server.public_url = Some("https://room.example".into());
                c.notify.backoff_ms = 1_000;
                c.notify.backoff_max_ms = 8_000;
                c.notify.max_attempts = 5;
                c.notify.lease_secs = 60;
                c.notify.timeout_secs = 5;
            })
            .tune(tune)
            .start()
            .await;
        let config = Config::clone(&app.state.config);
        NApp { app, config }
    }

    /// The server stops and starts again on the same database (the clock's offset is kept:
    /// the test clock is per process, and the restarted "process" continues the same day).
    async fn restart(self) -> NApp {
        let offset = self.app.state.clock.now() - chrono::Utc::now();
        let app = self.app.restart().await;
        app.state.clock.advance(offset);
        NApp {
            app,
            config: self.config,
        }
    }

    async fn post(&self, uri: &str, token: &str, body: Value) -> Resp {
        self.call(
            test::TestRequest::post()
                .uri(uri)
                .insert_header(("Authorization", format!("Bearer {token}")))
                .set_json(body)
                .to_request(),
        )
        .await
    }

    async fn get(&self, uri: &str, token: &str) -> Resp {
        self.call(
            test::TestRequest::get()
                .uri(uri)
                .insert_header(("Authorization", format!("Bearer {token}")))
                .to_request(),
        )
        .await
    }

    async fn admin(&self) -> String {
        let r = self
            .call(
                test::TestRequest::post()
                    .uri("/api/v1/auth/login")
                    .set_json(json!({"username": "admin", "password": ADMIN_PW}))
                    .to_request(),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text());
        r.json()["token"].as_str().unwrap().to_string()
    }

    /// Signs in through the login page: (session cookie, CSRF token).
    async fn web_login(&self) -> (String, String) {
        let page = self
            .call(test::TestRequest::get().uri("/login").to_request())
            .await;
        let pre = page.cookie("cr_pre").expect("pre-login cookie");
        let csrf = hidden_csrf(&page.text());
        let r = self
            .call(
                test::TestRequest::post()
                    .uri("/login")
                    .cookie(actix_web::cookie::Cookie::new("cr_pre", pre))
                    .set_form([
                        ("csrf", csrf.as_str()),
                        ("username", "admin"),
                        ("password", ADMIN_PW),
                    ])
                    .to_request(),
            )
            .await;
        assert_eq!(r.status, 303, "{}", r.text());
        let session = r.cookie("cr_session").unwrap();
        let home = self.page("/", &session, None).await;
        (session, hidden_csrf(&home.text()))
    }

    async fn page(&self, uri: &str, session: &str, lang: Option<&str>) -> Resp {
        let mut req = test::TestRequest::get()
            .uri(uri)
            .cookie(actix_web::cookie::Cookie::new(
                "cr_session",
                session.to_string(),
            ));
        if let Some(l) = lang {
            req = req.cookie(actix_web::cookie::Cookie::new("cr_lang", l.to_string()));
        }
        self.call(req.to_request()).await
    }

    fn worker(&self) -> Worker {
        Worker::new(&self.state.notify_env()).expect("worker")
    }

    fn advance(&self, d: Duration) {
        self.state.clock.advance(d).expect("the test clock moves");
    }

    /// (id, kind, channel, recipient, status) of every message, oldest first.
    fn outbox(&self) -> Vec<(i64, String, String, String, String)> {
        use cardroom::db::schema::outbox::dsl as o;
        self.with_conn(|c| {
            o::outbox
                .order(o::id)
                .select((o::id, o::kind, o::channel, o::recipient, o::status))
                .load(c)
                .unwrap()
        })
    }

    fn attempts(&self, message: i64) -> Vec<(i32, String, Option<String>)> {
        use cardroom::db::schema::outbox_attempts::dsl as a;
        self.with_conn(|c| {
            a::outbox_attempts
                .filter(a::message_id.eq(message))
                .order(a::attempt)
                .select((a::attempt, a::outcome, a::error))
                .load(c)
                .unwrap()
        })
    }

    fn kinds(&self) -> Vec<String> {
        self.outbox().into_iter().map(|m| m.1).collect()
    }

    /// Runs passes until nothing is due now.
    fn drain(&self, w: &Worker) {
        for _ in 0..20 {
            if w.run_once().unwrap().claimed == 0 {
                return;
            }
        }
        panic!("the worker never ran dry");
    }
}

// ---- the room -----------------------------------------------------------------------------

struct Room {
    admin: String,
    game: i64,
    table: i64,
}

async fn room(app: &NApp) -> Room {
    let admin = app.admin().await;
    let g = json!({"name": "NL 1/2", "variant": "holdem_nl", "small_blind": 100, "big_blind": 200,
        "limit_class": "low", "buy_in_min": 4000, "buy_in_max": 20000, "seats": 10});
    let r = app.post("/api/v1/games", &admin, g).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let game = r.json()["id"].as_i64().unwrap();
    let r = app
        .post(
            "/api/v1/tables",
            &admin,
            json!({"number": 7, "game_id": game, "mode": "continuous"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let table = r.json()["id"].as_i64().unwrap();
    let r = app
        .post(&format!("/api/v1/tables/{table}/open"), &admin, json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    Room { admin, game, table }
}

/// A registered adult with a photo, the given contacts, language and preference.
fn player(
    app: &NApp,
    n: usize,
    lang: Language,
    notify: NotifyPref,
    phone: Option<&str>,
    email: Option<&str>,
) -> i64 {
    let photo = cardroom::services::photo::process(&cardroom::services::photo::generated_portrait(
        n as u64,
    ))
    .unwrap();
    let now = app.state.clock.now();
    let input = PlayerInput {
        full_name: format!(
            "Jogador {}",
            ["Ana", "Bruno", "Carla", "Duarte", "Eva", "Filipe", "Gil", "Helena"][n % 8]
        ),
        date_of_birth: NaiveDate::from_ymd_opt(1985, 3, 1).unwrap(),
        doc_kind: DocumentKind::NationalId,
        doc_number: format!("MSG{n:05}"),
        doc_country: "PT".into(),
        doc_expiry: NaiveDate::from_ymd_opt(2035, 1, 1).unwrap(),
        phone: phone.map(str::to_string),
        email: email.map(str::to_string),
        language: lang,
        notify,
        alias: format!("M{n}"),
    };
    app.with_conn(|c| {
        app.state
            .db
            .write(c, |c| {
                let act = cardroom::services::Acting::system(now)
                    .in_room(c)
                    .expect("room");
                cardroom::services::players::create(c, &act, &input, Some(&photo))
                    .map(|(p, _)| p.id.get())
            })
            .unwrap()
    })
}

async fn join(app: &NApp, r: &Room, player: i64) -> i64 {
    let res = app
        .post(
            &format!("/api/v1/games/{}/waitlist", r.game),
            &r.admin,
            json!({"player_id": player, "call_in": false}),
        )
        .await;
    assert_eq!(res.status, 201, "{}", res.text());
    res.json()["entry_id"].as_i64().unwrap()
}

async fn call_next(app: &NApp, r: &Room, seat: i32) -> Value {
    let res = app
        .post(
            &format!("/api/v1/tables/{}/seats/{seat}/call-next", r.table),
            &r.admin,
            json!({}),
        )
        .await;
    assert_eq!(res.status, 201, "{}", res.text());
    res.json()
}

// ---- a real SMTP server (aiosmtpd) ----------------------------------------------------------

const SMTP_SERVER: &str = r#"
import json, sys, email, email.policy
from aiosmtpd.controller import Controller
port, out = int(sys.argv[1]), sys.argv[2]
class Handler:
    async def handle_DATA(self, server, session, envelope):
        m = email.message_from_bytes(envelope.original_content or envelope.content, policy=email.policy.default)
        rec = {"from": envelope.mail_from, "to": envelope.rcpt_tos, "subject": str(m["subject"]),
               "message_id": str(m["message-id"]), "body": m.get_content()}
        with open(out, "a", encoding="utf-8") as f:
            f.write(json.dumps(rec) + "\n")
        return "250 Message accepted for delivery"
c = Controller(Handler(), hostname="127.0.0.1", port=port)
c.start()
print("ready", flush=True)
sys.stdin.read()
c.stop()
"#;

/// One e-mail as the SMTP server received it.
#[derive(Debug, Clone)]
struct Mail {
    to: Vec<String>,
    subject: String,
    message_id: String,
    body: String,
}

struct SmtpServer {
    child: std::process::Child,
    out: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

impl SmtpServer {
    fn start(port: u16) -> SmtpServer {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("smtpd.py");
        std::fs::write(&script, SMTP_SERVER).unwrap();
        let out = dir.path().join("mail.jsonl");
        let mut child = std::process::Command::new("python3")
            .arg(&script)
            .arg(port.to_string())
            .arg(&out)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::inherit())
            .spawn()
            .expect(
                "python3 (the tests need Python 3 with aiosmtpd: bash tests/run.sh installs it)",
            );
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(
            line.trim(),
            "ready",
            "aiosmtpd did not start (pip install aiosmtpd; bash tests/run.sh installs it)"
        );
        SmtpServer {
            child,
            out,
            _dir: dir,
        }
    }

    fn mails(&self) -> Vec<Mail> {
        let text = std::fs::read_to_string(&self.out).unwrap_or_default();
        text.lines()
            .map(|l| {
                let j: Value = serde_json::from_str(l).unwrap();
                Mail {
                    to: j["to"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|v| v.as_str().unwrap().to_string())
                        .collect(),
                    subject: j["subject"].as_str().unwrap().to_string(),
                    message_id: j["message_id"].as_str().unwrap().to_string(),
                    body: j["body"].as_str().unwrap().to_string(),
                }
            })
            .collect()
    }
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// An SMTP server that is "down" but keeps its port (so no parallel test takes it before
/// the real one starts there): every connection is closed at once, before any greeting.
struct DownPort {
    port: u16,
    stop: Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl DownPort {
    fn hold() -> DownPort {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        l.set_nonblocking(true).unwrap();
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let s = stop.clone();
        let thread = std::thread::spawn(move || {
            while !s.load(std::sync::atomic::Ordering::Relaxed) {
                match l.accept() {
                    Ok((conn, _)) => drop(conn),
                    Err(_) => std::thread::sleep(std::time::Duration::from_millis(5)),
                }
            }
        });
        DownPort {
            port,
            stop,
            thread: Some(thread),
        }
    }

    /// Gives the port back (for the real server to start on it right away).
    fn release(mut self) -> u16 {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            t.join().unwrap();
        }
        self.port
    }
}

fn smtp_settings(port: u16) -> impl FnOnce(&mut Settings) {
    move |c: &mut Settings| {
        c.mail.smtp_host = Some("127.0.0.1".into());
        c.mail.smtp_port = Some(port);
        c.mail.smtp_tls = "none".into();
        c.mail.from = Some("Cardroom <floor@room.example>".into());
    }
}

/// The player link in a text.
fn link_in(text: &str) -> String {
    let i = text
        .find("https://room.example/p/")
        .unwrap_or_else(|| panic!("no link in {text}"));
    text[i..].split_whitespace().next().unwrap().to_string()
}

// ---- a local SMS gateway --------------------------------------------------------------------

#[derive(Debug, Clone)]
struct HttpReq {
    path: String,
    headers: HashMap<String, String>,
    body: String,
}

#[derive(Default)]
struct GatewayState {
    /// Answers 503 while down.
    down: bool,
    requests: Vec<HttpReq>,
    /// Messages delivered to phones, by idempotency key (a repeat with a known key is
    /// answered as the first time and not delivered again).
    delivered: Vec<(String, HttpReq)>,
}

/// An HTTP server standing in for the SMS gateway: records each request, honours the
/// idempotency key (`Idempotency-Key` or `I-Twilio-Idempotency-Token`).
struct Gateway {
    url: String,
    state: Arc<Mutex<GatewayState>>,
}

impl Gateway {
    fn start() -> Gateway {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let state: Arc<Mutex<GatewayState>> = Arc::default();
        let st = state.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut s) = stream else { continue };
                let Some(req) = read_request(&mut s) else {
                    continue;
                };
                let (status, body) = {
                    let mut g = st.lock().unwrap();
                    g.requests.push(req.clone());
                    if g.down {
                        (503, r#"{"message":"down for maintenance"}"#.to_string())
                    } else {
                        let key = req
                            .headers
                            .get("idempotency-key")
                            .or(req.headers.get("i-twilio-idempotency-token"))
                            .cloned()
                            .unwrap_or_default();
                        let n = match g
                            .delivered
                            .iter()
                            .position(|(k, _)| *k == key && !key.is_empty())
                        {
                            Some(i) => i,
                            None => {
                                g.delivered.push((key, req.clone()));
                                g.delivered.len() - 1
                            }
                        };
                        (201, format!(r#"{{"sid":"SM{n:05}","id":"SM{n:05}"}}"#))
                    }
                };
                let _ = write!(s, "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len());
            }
        });
        Gateway { url, state }
    }

    fn set_down(&self, down: bool) {
        self.state.lock().unwrap().down = down;
    }
    fn requests(&self) -> Vec<HttpReq> {
        self.state.lock().unwrap().requests.clone()
    }
    fn delivered(&self) -> Vec<(String, HttpReq)> {
        self.state.lock().unwrap().delivered.clone()
    }
}

fn read_request(s: &mut std::net::TcpStream) -> Option<HttpReq> {
    let mut buf = Vec::new();
    let mut byte = [0u8; 1];
    while !buf.ends_with(b"\r\n\r\n") {
        if s.read(&mut byte).ok()? == 0 {
            return None;
        }
        buf.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&buf).to_string();
    let mut lines = head.split("\r\n");
    let path = lines.next()?.split_whitespace().nth(1)?.to_string();
    let headers: HashMap<String, String> = lines
        .filter_map(|l| {
            l.split_once(':')
                .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        })
        .collect();
    let len: usize = headers
        .get("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0u8; len];
    s.read_exact(&mut body).ok()?;
    Some(HttpReq {
        path,
        headers,
        body: String::from_utf8_lossy(&body).to_string(),
    })
}

fn generic_settings(url: String) -> impl FnOnce(&mut Settings) {
    move |c: &mut Settings| {
        c.sms.provider = Some("generic".into());
        c.sms.url = Some(format!("{url}/send"));
        c.sms.token = Some("gw-token".into());
        c.sms.from = Some("Cardroom".into());
    }
}

// ---- tests ----------------------------------------------------------------------------------

#[actix_rt::test]
async fn e_mail_reaches_a_real_smtp_server_in_the_players_language_with_a_link_that_verifies() {
    let port = free_port();
    let smtp = SmtpServer::start(port);
    let app = NApp::new(smtp_settings(port)).await;
    let r = room(&app).await;
    let ana = player(
        &app,
        1,
        Language::Pt,
        NotifyPref::Email,
        None,
        Some("ana@example.pt"),
    );
    let bob = player(
        &app,
        2,
        Language::En,
        NotifyPref::Email,
        Some("+351911111111"),
        Some("bob@example.com"),
    );
    let quiet = player(
        &app,
        3,
        Language::En,
        NotifyPref::None,
        None,
        Some("no-thanks@example.com"),
    );
    join(&app, &r, ana).await;
    join(&app, &r, bob).await;
    join(&app, &r, quiet).await;
    // One e-mail each ("added"); the third wants no messages: nothing for them.
    assert_eq!(app.kinds(), vec!["added", "added"]);
    let w = app.worker();
    let p = w.run_once().unwrap();
    assert_eq!((p.claimed, p.sent), (2, 2));
    let mails = smtp.mails();
    assert_eq!(mails.len(), 2, "{mails:?}");
    let (a, b) = (&mails[0], &mails[1]);
    assert_eq!(a.to, vec!["ana@example.pt"]);
    assert_eq!(b.to, vec!["bob@example.com"]);
    // Each in the player's language.
    assert!(a.subject.contains("Está na lista NL 1/2"), "{}", a.subject);
    assert!(
        a.body.contains("tem o lugar 1") && a.body.contains("ao vivo"),
        "{}",
        a.body
    );
    assert!(
        b.subject.contains("You are on the NL 1/2 list"),
        "{}",
        b.subject
    );
    assert!(b.body.contains("number 2"), "{}", b.body);
    // The Message-ID is derived from the message's idempotency key.
    let keys: Vec<String> = app.with_conn(|c| {
        use cardroom::db::schema::outbox::dsl as o;
        o::outbox.order(o::id).select(o::idem_key).load(c).unwrap()
    });
    assert_eq!(a.message_id, format!("<{}@room.example>", keys[0]));
    // The link in it is the player's and verifies; a link edited to another player does not.
    let now = app.state.clock.now();
    for (mail, who) in [(a, ana), (b, bob)] {
        let url = link_in(&mail.body);
        let token = url.rsplit('/').next().unwrap();
        let claims = app
            .with_conn(|c| link::verify(c, &app.state.keys, token, Purpose::PlayerPage, now))
            .expect("the link verifies");
        assert_eq!(claims.sub, who);
    }
    // Revoked by the floor (audited), the links are refused as revoked.
    let token = link_in(&a.body).rsplit('/').next().unwrap().to_string();
    let res = app
        .post(
            &format!("/api/v1/players/{ana}/links/revoke"),
            &r.admin,
            json!({}),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.text());
    assert_eq!(res.json()["link_token_version"], 1);
    assert_eq!(
        app.with_conn(|c| link::verify(c, &app.state.keys, &token, Purpose::PlayerPage, now)),
        Err(LinkError::Revoked)
    );
    // Expired at the end of the gaming day (06:00 in the room's zone, at most 24 h away).
    assert_eq!(
        app.with_conn(|c| link::verify(
            c,
            &app.state.keys,
            link_in(&b.body).rsplit('/').next().unwrap(),
            Purpose::PlayerPage,
            now + Duration::hours(25)
        )),
        Err(LinkError::Expired)
    );

    // Ana's seat is ready: table, seat, game and the time to answer by (HH:MM, room's zone).
    let call = call_next(&app, &r, 3).await;
    w.run_once().unwrap();
    let mails = smtp.mails();
    let ready = mails
        .iter()
        .find(|m| m.subject.contains("O seu lugar está pronto"))
        .unwrap_or_else(|| panic!("{mails:?}"));
    assert_eq!(ready.to, vec!["ana@example.pt"]);
    let respond_by =
        chrono::DateTime::parse_from_rfc3339(call["respond_by"].as_str().unwrap()).unwrap();
    let hhmm = respond_by
        .with_timezone(&chrono_tz::Europe::Lisbon)
        .format("%H:%M")
        .to_string();
    assert!(
        ready.body.contains("mesa 7, lugar 3 (NL 1/2)") && ready.body.contains(&hhmm),
        "{}",
        ready.body
    );
    // Bob is now first in line: "you are next", once.
    let next: Vec<&Mail> = mails
        .iter()
        .filter(|m| m.subject.starts_with("You are next"))
        .collect();
    assert_eq!(next.len(), 1, "{mails:?}");
    assert_eq!(next[0].to, vec!["bob@example.com"]);
}

#[actix_rt::test]
async fn sms_goes_through_a_generic_gateway_with_its_template_and_key() {
    let gw = Gateway::start();
    let app = NApp::new(generic_settings(gw.url.clone())).await;
    let r = room(&app).await;
    let p = player(
        &app,
        1,
        Language::En,
        NotifyPref::Sms,
        Some("+351912345678"),
        None,
    );
    join(&app, &r, p).await;
    app.drain(&app.worker());
    let reqs = gw.requests();
    assert_eq!(reqs.len(), 1);
    let q = &reqs[0];
    assert_eq!(q.path, "/send");
    assert_eq!(q.headers["authorization"], "Bearer gw-token");
    assert_eq!(q.headers["content-type"], "application/json");
    let body: Value = serde_json::from_str(&q.body).unwrap();
    assert_eq!(body["to"], "+351912345678");
    assert_eq!(body["from"], "Cardroom");
    assert!(
        body["text"]
            .as_str()
            .unwrap()
            .starts_with("You are number 1 on the NL 1/2 list"),
        "{body}"
    );
    assert_eq!(body["idempotency_key"], q.headers["idempotency-key"]);
    let msgs = app.outbox();
    assert_eq!(msgs[0].4, "sent");
    assert_eq!(app.attempts(msgs[0].0), vec![(1, "sent".to_string(), None)]);
    // The SMS carries the message's short address (one segment), which leads to the
    // player's link; that link verifies too.
    let text = body["text"].as_str().unwrap();
    let i = text
        .find("https://room.example/m/")
        .unwrap_or_else(|| panic!("no short link in {text}"));
    let short = text[i + "https://room.example".len()..]
        .split_whitespace()
        .next()
        .unwrap();
    let r = app
        .call(actix_web::test::TestRequest::get().uri(short).to_request())
        .await;
    assert_eq!(r.status, 303, "{short}: {}", r.text());
    let to = r.header("location").unwrap();
    assert!(to.starts_with("/p/"), "{to}");
    let token = to.trim_start_matches("/p/").to_string();
    // A code that is not ours: the "not a link of this room" page.
    let last = if short.ends_with('x') { "y" } else { "x" };
    let forged = format!("{}{last}", &short[..short.len() - 1]);
    let r = app
        .call(
            actix_web::test::TestRequest::get()
                .uri(&forged)
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 404, "{forged}");
    assert_eq!(
        app.with_conn(|c| link::verify(
            c,
            &app.state.keys,
            &token,
            Purpose::PlayerPage,
            app.state.clock.now()
        ))
        .unwrap()
        .sub,
        p
    );
}

#[actix_rt::test]
async fn sms_goes_through_a_twilio_compatible_api() {
    let gw = Gateway::start();
    let url = gw.url.clone();
    let app = NApp::new(move |c| {
        c.sms.provider = Some("twilio".into());
        c.sms.url = Some(url);
        c.sms.user = Some("AC0123".into());
        c.sms.password = Some("secret-token".into());
        c.sms.from = Some("+15005550006".into());
    })
    .await;
    let r = room(&app).await;
    let p = player(
        &app,
        1,
        Language::Pt,
        NotifyPref::Both,
        Some("+351912345678"),
        Some("p1@example.pt"),
    );
    join(&app, &r, p).await;
    app.drain(&app.worker());
    let reqs = gw.requests();
    assert_eq!(reqs.len(), 1, "one SMS");
    // Both channels: the e-mail went to the local sink (no SMTP configured).
    assert_eq!(
        app.outbox()
            .iter()
            .map(|m| (m.2.as_str(), m.4.as_str()))
            .collect::<Vec<_>>(),
        vec![("sms", "sent"), ("email", "sent")]
    );
    let q = &reqs[0];
    assert_eq!(q.path, "/2010-04-01/Accounts/AC0123/Messages.json");
    use base64::Engine;
    let basic = base64::engine::general_purpose::STANDARD.encode("AC0123:secret-token");
    assert_eq!(q.headers["authorization"], format!("Basic {basic}"));
    assert_eq!(
        q.headers["content-type"],
        "application/x-www-form-urlencoded"
    );
    let form: HashMap<String, String> = serde_urlencoded::from_str(&q.body).unwrap();
    assert_eq!(form["To"], "+351912345678");
    assert_eq!(form["From"], "+15005550006");
    assert!(
        form["Body"].starts_with("Lista NL 1/2: tem o lugar 1"),
        "{}",
        form["Body"]
    );
    let key: String = app.with_conn(|c| {
        use cardroom::db::schema::outbox::dsl as o;
        o::outbox.select(o::idem_key).first(c).unwrap()
    });
    assert_eq!(q.headers["i-twilio-idempotency-token"], key);
    // The gateway's message sid is kept with the message.
    let res = app
        .get(&format!("/api/v1/messages?player_id={p}"), &r.admin)
        .await;
    assert_eq!(res.status, 200, "{}", res.text());
    let all = res.json();
    let m = all
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["channel"] == "sms")
        .unwrap();
    assert_eq!(m["status"], "sent");
    assert_eq!(m["attempt_log"][0]["provider_ref"], "SM00000");
    assert_eq!(m["attempt_log"][0]["transport"], "twilio");
}

#[actix_rt::test]
async fn providers_down_for_a_while_then_back_deliver_every_message_exactly_once() {
    let gw = Gateway::start();
    let down = DownPort::hold();
    let port = down.port;
    let url = gw.url.clone();
    let app = NApp::new(move |c| {
        generic_settings(url)(c);
        smtp_settings(port)(c);
    })
    .await;
    let r = room(&app).await;
    let players: Vec<i64> = (1..=4)
        .map(|i| {
            player(
                &app,
                i,
                if i % 2 == 0 {
                    Language::En
                } else {
                    Language::Pt
                },
                NotifyPref::Both,
                Some(&format!("+35191000000{i}")),
                Some(&format!("p{i}@example.com")),
            )
        })
        .collect();
    for p in &players {
        join(&app, &r, *p).await;
    }
    // "added" ×4 (each told the place on joining), by SMS and by e-mail.
    let total = app.outbox().len();
    assert_eq!(total, 8);
    gw.set_down(true); // and the SMTP server drops every connection
    let w = app.worker();
    let p = w.run_once().unwrap();
    assert_eq!((p.claimed, p.sent, p.retrying), (8, 0, 8));
    assert!(app.outbox().iter().all(|m| m.4 == "pending"));
    // Nothing is due before the backoff (1 s, then 2 s, 4 s …).
    assert_eq!(w.run_once().unwrap().claimed, 0);
    app.advance(Duration::milliseconds(1_100));
    let p = w.run_once().unwrap();
    assert_eq!((p.claimed, p.retrying), (8, 8));
    for (id, ..) in app.outbox() {
        let a = app.attempts(id);
        assert_eq!(a.len(), 2);
        assert!(
            a.iter()
                .all(|(_, outcome, e)| outcome == "error" && e.is_some()),
            "{a:?}"
        );
    }
    // Both come back.
    gw.set_down(false);
    let smtp = SmtpServer::start(down.release());
    app.advance(Duration::milliseconds(2_100));
    app.drain(&w);
    assert!(
        app.outbox().iter().all(|m| m.4 == "sent"),
        "{:?}",
        app.outbox()
    );
    let sms = gw.delivered();
    assert_eq!(sms.len(), 4, "every SMS once");
    assert_eq!(
        gw.requests()
            .iter()
            .filter(|q| q.headers.contains_key("idempotency-key"))
            .count(),
        4 + 8,
        "4 delivered + 8 refused while down"
    );
    let mails = smtp.mails();
    assert_eq!(mails.len(), 4, "every e-mail once: {mails:?}");
    let mut ids: Vec<&str> = mails.iter().map(|m| m.message_id.as_str()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 4);
    // A restart later sends nothing again.
    let app = app.restart().await;
    app.advance(Duration::minutes(5));
    assert_eq!(app.worker().run_once().unwrap().claimed, 0);
    assert_eq!((gw.delivered().len(), smtp.mails().len()), (4, 4));
}

#[actix_rt::test]
async fn a_worker_stopped_between_sending_and_recording_loses_nothing_and_duplicates_nothing() {
    let gw = Gateway::start();
    let app = NApp::new(generic_settings(gw.url.clone())).await;
    let r = room(&app).await;
    for i in 1..=3 {
        let p = player(
            &app,
            i,
            Language::En,
            NotifyPref::Sms,
            Some(&format!("+35192000000{i}")),
            None,
        );
        join(&app, &r, p).await;
    }
    let ids: Vec<i64> = app.outbox().into_iter().map(|m| m.0).collect();
    assert_eq!(ids.len(), 3, "3 added");
    // The worker dies right after the gateway accepted the first message of its batch.
    let mut w = app.worker();
    w.fault = Some(Fault::StopAfterSend(1));
    let p = w.run_once().unwrap();
    assert!(p.stopped);
    assert_eq!(gw.delivered().len(), 1);
    assert!(
        app.outbox().iter().all(|m| m.4 == "sending"),
        "the whole batch stays claimed: {:?}",
        app.outbox()
    );
    // The server restarts; nothing is sent before the dead worker's lease runs out.
    let app = app.restart().await;
    let w2 = app.worker();
    assert_eq!(w2.run_once().unwrap().claimed, 0);
    app.advance(Duration::seconds(61));
    app.drain(&w2);
    assert!(
        app.outbox().iter().all(|m| m.4 == "sent"),
        "{:?}",
        app.outbox()
    );
    // The first message went to the gateway twice with the same key; the phone got it once.
    let keys: Vec<String> = gw
        .requests()
        .iter()
        .map(|q| q.headers["idempotency-key"].clone())
        .collect();
    assert_eq!(keys.len(), 4);
    assert_eq!(keys.iter().filter(|k| **k == keys[0]).count(), 2);
    let delivered = gw.delivered();
    assert_eq!(delivered.len(), 3, "every message once");
    // Its unrecorded attempt is shown as interrupted, then the re-send as sent.
    let first = app.attempts(ids[0]);
    assert_eq!(
        first.iter().map(|a| a.1.as_str()).collect::<Vec<_>>(),
        vec!["interrupted", "sent"]
    );
    assert_eq!(
        app.attempts(ids[2])
            .iter()
            .map(|a| a.1.as_str())
            .collect::<Vec<_>>(),
        vec!["interrupted", "sent"]
    );
}

#[actix_rt::test]
async fn pending_messages_go_out_after_a_restart() {
    let gw = Gateway::start();
    let app = NApp::new(generic_settings(gw.url.clone())).await;
    let r = room(&app).await;
    let p = player(
        &app,
        1,
        Language::Pt,
        NotifyPref::Sms,
        Some("+351930000001"),
        None,
    );
    join(&app, &r, p).await;
    // Nothing sent before the restart.
    let app = app.restart().await;
    app.drain(&app.worker());
    assert_eq!(gw.delivered().len(), 1);
    assert_eq!(app.outbox()[0].4, "sent");
}

#[actix_rt::test]
async fn two_workers_never_send_the_same_message() {
    let gw = Gateway::start();
    let app = NApp::new(generic_settings(gw.url.clone())).await;
    let r = room(&app).await;
    for i in 1..=12 {
        let p = player(
            &app,
            i,
            Language::En,
            NotifyPref::Sms,
            Some(&format!("+3519300{i:05}")),
            None,
        );
        join(&app, &r, p).await;
    }
    let n = app.outbox().len();
    // A second "process": its own state and pool on the same database.
    let other = TestApp::builder().like(&app).build().state;
    other
        .clock
        .advance(app.state.clock.now() - chrono::Utc::now());
    let (w1, w2) = (app.worker(), Worker::new(&other.notify_env()).unwrap());
    let t1 =
        std::thread::spawn(move || (0..10).map(|_| w1.run_once().unwrap().sent).sum::<usize>());
    let t2 =
        std::thread::spawn(move || (0..10).map(|_| w2.run_once().unwrap().sent).sum::<usize>());
    let (a, b) = (t1.join().unwrap(), t2.join().unwrap());
    assert_eq!(
        a + b,
        n,
        "each message sent by exactly one worker ({a} + {b})"
    );
    // Without any deduplication by the gateway: each key arrived once.
    let mut keys: Vec<String> = gw
        .requests()
        .iter()
        .map(|q| q.headers["idempotency-key"].clone())
        .collect();
    assert_eq!(keys.len(), n);
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), n);
}

#[actix_rt::test]
async fn a_message_that_keeps_failing_is_shown_to_the_floor_and_can_be_retried() {
    let gw = Gateway::start();
    let url = gw.url.clone();
    let app = NApp::new(move |c| {
        generic_settings(url)(c);
        c.notify.max_attempts = 2;
    })
    .await;
    let r = room(&app).await;
    let p = player(
        &app,
        1,
        Language::Pt,
        NotifyPref::Sms,
        Some("+351940000001"),
        None,
    );
    join(&app, &r, p).await;
    gw.set_down(true);
    let w = app.worker();
    w.run_once().unwrap();
    app.advance(Duration::seconds(2));
    assert_eq!(w.run_once().unwrap().failed, 1);
    let id = app.outbox()[0].0;
    assert_eq!(app.outbox()[0].4, "failed");
    app.advance(Duration::minutes(10));
    assert_eq!(
        w.run_once().unwrap().claimed,
        0,
        "a failed message is not retried on its own"
    );
    // The dashboard says so, in both languages, linking to the messages page.
    let (session, csrf) = app.web_login().await;
    let live = app.page("/floor/live", &session, Some("en")).await;
    assert!(
        live.text().contains("1 message to a player failed.")
            && live.text().contains("outbox-failed"),
        "{}",
        live.text()
    );
    assert!(live.text().contains("/floor/messages?status=failed"));
    let live = app.page("/floor/live", &session, Some("pt")).await;
    assert!(live.text().contains("Falhou 1 mensagem a um jogador."));
    // The page lists it with its attempts and errors, filtered by player.
    let page = app
        .page(
            &format!("/floor/messages?player=%23{p}&status=failed"),
            &session,
            Some("en"),
        )
        .await;
    assert_eq!(page.status, 200);
    let html = page.text();
    assert!(
        html.contains(&format!("id=\"message-{id}\"")) && html.contains("HTTP 503"),
        "{html}"
    );
    assert!(html.contains("Retry now"));
    let other = app
        .page("/floor/messages?player=%2399999", &session, Some("pt"))
        .await;
    assert_eq!(
        other.status, 422,
        "an unknown player is a refusal, not a 5xx"
    );
    let bad = app.get("/api/v1/messages?status=lost", &r.admin).await;
    assert_eq!(bad.status, 422);
    // Retry now (audited); the gateway is back.
    gw.set_down(false);
    let before = app.with_conn(|c| {
        cardroom::db::schema::audit_log::table
            .count()
            .get_result::<i64>(c)
            .unwrap()
    });
    let res = app
        .call(
            test::TestRequest::post()
                .uri(&format!("/floor/messages/{id}/retry"))
                .cookie(actix_web::cookie::Cookie::new(
                    "cr_session",
                    session.clone(),
                ))
                .set_form([("csrf", csrf.as_str())])
                .to_request(),
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    let after = app.with_conn(|c| {
        cardroom::db::schema::audit_log::table
            .count()
            .get_result::<i64>(c)
            .unwrap()
    });
    assert_eq!(after, before + 1);
    w.run_once().unwrap();
    assert_eq!(app.outbox()[0].4, "sent");
    assert_eq!(gw.delivered().len(), 1);
    // Retrying a sent message is refused with a reason, changing nothing.
    let res = app
        .post(&format!("/api/v1/messages/{id}/retry"), &r.admin, json!({}))
        .await;
    assert_eq!(res.status, 409, "{}", res.text());
    assert_eq!(res.error().0, "conflict");
    // Every audit action has a label in both languages.
    for lang in ["en", "pt"] {
        let audit = app.page("/admin/audit", &session, Some(lang)).await;
        assert!(
            !audit.text().contains(">action-"),
            "an audit action without a label ({lang})"
        );
    }
    let live = app.page("/floor/live", &session, Some("en")).await;
    assert!(
        !live.text().contains("outbox-failed"),
        "the alert is gone once nothing has failed"
    );
}

#[actix_rt::test]
async fn list_messages_follow_the_list_once_per_entry() {
    let app = NApp::new(|_| {}).await; // nothing configured: the local sink
    let r = room(&app).await;
    let ps: Vec<i64> = (1..=5)
        .map(|i| {
            player(
                &app,
                i,
                Language::En,
                NotifyPref::Sms,
                Some(&format!("+35195000000{i}")),
                None,
            )
        })
        .collect();
    let mut entries = Vec::new();
    for p in &ps {
        entries.push(join(&app, &r, *p).await);
    }
    let count = |kind: &str, player: i64| -> usize {
        app.with_conn(|c| {
            use cardroom::db::schema::outbox::dsl as o;
            o::outbox
                .filter(o::kind.eq(kind))
                .filter(o::player_id.eq(player))
                .count()
                .get_result::<i64>(c)
                .unwrap() as usize
        })
    };
    // Joining: "added" with the place, nothing more (a joining player's place is in it:
    // the first is not told "next" again, the 2nd and 3rd not "nearly next").
    assert_eq!((0..5).map(|i| count("added", ps[i])).sum::<usize>(), 5);
    assert_eq!(app.outbox().len(), 5);
    // The first is called: seat ready for them, "next" for the second, nearly next for the 4th.
    call_next(&app, &r, 1).await;
    assert_eq!(count("seat_ready", ps[0]), 1);
    assert_eq!(count("next", ps[1]), 1);
    assert_eq!(count("nearly_next", ps[2]), 0, "already told on joining");
    assert_eq!(count("nearly_next", ps[3]), 1);
    // The floor takes the 3rd off the list: told once; the 4th was already told.
    let res = app
        .post(
            &format!("/api/v1/waitlist/{}/remove", entries[2]),
            &r.admin,
            json!({"reason": "left the room"}),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.text());
    assert_eq!(count("removed", ps[2]), 1);
    assert_eq!(count("nearly_next", ps[3]), 1);
    assert_eq!(count("nearly_next", ps[4]), 1);
    // The call expires: the player is told (back at the bottom: pt-casino's default) and
    // the next one is called (seat ready), without repeating anyone's "next".
    app.advance(Duration::minutes(30));
    app.with_conn(|c| {
        app.state
            .db
            .write(c, |c| {
                let act = cardroom::services::Acting::system(app.state.clock.now()).in_room(c)?;
                cardroom::services::floor::tick(c, &act)
            })
            .unwrap()
    });
    assert_eq!(count("call_expired", ps[0]), 1);
    assert_eq!(count("seat_ready", ps[1]), 1);
    assert_eq!(count("next", ps[1]), 1);
    assert_eq!(count("next", ps[3]), 1);
    // The demo sink received them (a file of JSON lines), and the floor sees them sent.
    app.drain(&app.worker());
    assert!(app.outbox().iter().all(|m| m.4 == "sent"));
    let sink = std::fs::read_to_string(&app.config.notify.sink).unwrap();
    assert_eq!(sink.lines().count(), app.outbox().len());
    let first: Value = serde_json::from_str(sink.lines().next().unwrap()).unwrap();
    assert_eq!(first["channel"], "sms");
    let res = app
        .get("/api/v1/messages?status=sent&limit=500", &r.admin)
        .await;
    assert_eq!(res.json().as_array().unwrap().len(), app.outbox().len());
    assert_eq!(res.json()[0]["attempt_log"][0]["transport"], "sink");
    let _ = Transports::from_config(&app.config).unwrap();
}

#[actix_web::test]
async fn the_desk_shows_the_link_as_a_qr_code_sends_it_again_and_revokes_every_link() {
    let app = NApp::new(|_| {}).await;
    let _r = room(&app).await;
    let by_sms = player(
        &app,
        1,
        Language::Pt,
        NotifyPref::Sms,
        Some("+351950000001"),
        None,
    );
    let unreachable = player(&app, 2, Language::En, NotifyPref::None, None, None);
    let (session, csrf) = app.web_login().await;
    let form = |uri: &str| {
        test::TestRequest::post()
            .uri(uri)
            .cookie(actix_web::cookie::Cookie::new(
                "cr_session",
                session.clone(),
            ))
            .set_form([("csrf", csrf.as_str())])
            .to_request()
    };
    let audit = |action: &str| -> i64 {
        use cardroom::db::schema::audit_log::dsl as a;
        app.with_conn(|c| {
            a::audit_log
                .filter(a::action.eq(action))
                .count()
                .get_result(c)
                .unwrap()
        })
    };

    // The QR code on the desk's screen: a link to this player's page that verifies.
    let page = app
        .page(&format!("/players/{by_sms}/link"), &session, None)
        .await;
    assert_eq!(page.status, 200, "{}", page.text());
    let html = page.text();
    assert!(
        html.contains("id=\"player-link-qr\"") && html.contains("data:image/svg+xml;base64,"),
        "{html}"
    );
    let start = html
        .find("id=\"player-link-url\">")
        .expect("the link's text")
        + "id=\"player-link-url\">".len();
    let url = html[start..].split('<').next().unwrap().to_string();
    assert!(url.starts_with("https://room.example/p/"), "{url}");
    let token = url.rsplit('/').next().unwrap().to_string();
    let now = app.state.clock.now();
    let claims = app
        .with_conn(|c| link::verify(c, &app.state.keys, &token, Purpose::PlayerPage, now))
        .expect("the shown link verifies");
    assert_eq!(claims.sub, by_sms);
    assert_eq!(audit("player.link_shown"), 1);

    // Sent again by SMS through the outbox.
    let r = app
        .call(form(&format!("/players/{by_sms}/link/send")))
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(
        r.header("location").as_deref(),
        Some(format!("/players/{by_sms}?link=sent").as_str())
    );
    assert_eq!(app.kinds(), vec!["link".to_string()]);
    assert_eq!(audit("player.link_sent"), 1);
    let shown = app
        .page(
            &format!("/players/{by_sms}?link=sent"),
            &session,
            Some("pt"),
        )
        .await
        .text();
    assert!(
        shown.contains("id=\"link-notice\"") && shown.contains("A ligação vai a caminho"),
        "{shown}"
    );
    app.drain(&app.worker());
    let sink = std::fs::read_to_string(&app.config.notify.sink).unwrap();
    assert!(
        sink.contains("O seu lugar na lista") && sink.contains("https://room.example/m/"),
        "{sink}"
    );

    // Nobody to send to: refused, nothing written.
    let r = app
        .call(form(&format!("/players/{unreachable}/link/send")))
        .await;
    assert_eq!(r.status, 409);
    assert!(r.text().contains("no phone or e-mail"), "{}", r.text());
    assert_eq!(app.outbox().len(), 1);
    assert_eq!(audit("player.link_sent"), 1);

    // Revoked: the link shown before no longer opens anything.
    let r = app
        .call(form(&format!("/players/{by_sms}/links/revoke")))
        .await;
    assert_eq!(r.status, 303);
    assert_eq!(
        app.with_conn(|c| link::verify(c, &app.state.keys, &token, Purpose::PlayerPage, now)),
        Err(LinkError::Revoked)
    );
    // The player's history names each step.
    let history = app
        .page(&format!("/players/{by_sms}"), &session, None)
        .await
        .text();
    for label in ["link shown at the desk", "link sent again", "links revoked"] {
        assert!(
            history.contains(&format!("Player&#39;s {label}")),
            "{label} in {history}"
        );
    }
}
