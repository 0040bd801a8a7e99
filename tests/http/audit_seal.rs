//! The audit trail cannot be cut short or rewritten unnoticed, even by someone
//! holding the database (triggers dropped, every hash recomputed). Each case first shows
//! that the chain alone — all that was checked before — still verifies after the tampering,
//! then that the signed checkpoints kept outside the database catch it.

use crate::support::*;
use cardroom::db::audit::{self as chain, Actor};
use cardroom::db::models::AuditRow;
use cardroom::db::schema::audit_log::dsl as a;
use cardroom::domain::audit::{record_hash, AuditFields, GENESIS};
use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use serde_json::Value;

/// `n` more records (one transaction), then a checkpoint of the head.
fn records_then_checkpoint(app: &TestApp, n: usize) {
    let now = app.state.clock.now();
    app.with_conn(|c| {
        c.transaction::<_, diesel::result::Error, _>(|c| {
            for i in 0..n {
                let note = serde_json::json!({ "i": i });
                chain::record::<(), _>(
                    c,
                    now,
                    &Actor::system(),
                    "test.note",
                    "test",
                    None,
                    None,
                    Some(&note),
                )?;
            }
            Ok(())
        })
        .unwrap();
        app.state.seal.tick(c, now, "minute", true).unwrap();
    });
}

/// What an intruder with the database does first.
fn drop_triggers(app: &TestApp) {
    let sql = if is_postgres() {
        "DROP TRIGGER audit_log_no_update ON audit_log; DROP TRIGGER audit_log_no_truncate ON audit_log;"
    } else {
        "DROP TRIGGER audit_log_no_update; DROP TRIGGER audit_log_no_delete;"
    };
    app.with_conn(|c| c.batch_execute(sql).unwrap());
}

/// Recomputes every hash from record `from` on (the plain SHA-256 chain), as an intruder
/// who read the code would.
fn rechain_from(app: &TestApp, from: i64) {
    app.with_conn(|c| {
        let mut prev: String = if from <= 1 {
            GENESIS.to_string()
        } else {
            a::audit_log
                .filter(a::seq.eq(from - 1))
                .select(a::hash)
                .first(c)
                .unwrap()
        };
        let rows: Vec<AuditRow> = a::audit_log
            .filter(a::seq.ge(from))
            .order(a::seq.asc())
            .select(AuditRow::as_select())
            .load(c)
            .unwrap();
        for r in rows {
            let hash = record_hash(&AuditFields {
                seq: r.seq,
                at: r.at.and_utc(),
                actor_id: r.actor_id,
                actor_name: &r.actor_name,
                action: &r.action,
                subject_kind: &r.subject_kind,
                subject_id: r.subject_id,
                before: &r.before_json,
                after: &r.after_json,
                prev_hash: &prev,
            });
            diesel::update(a::audit_log.filter(a::seq.eq(r.seq)))
                .set((a::prev_hash.eq(&prev), a::hash.eq(&hash)))
                .execute(c)
                .unwrap();
            prev = hash;
        }
    });
}

fn chain_alone_says_intact(app: &TestApp) -> bool {
    app.with_conn(|c| chain::verify(c).unwrap().ok)
}

/// The verification as the API gives it (with a token signed in before any tampering: a
/// cut trail cannot take new records, sign-ins included).
async fn verify(app: &TestApp, token: &str) -> Value {
    let r = app.get("/api/v1/audit/verify", token).await;
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

async fn setup(n: usize) -> (TestApp, i64, String) {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    records_then_checkpoint(&app, n);
    let v = verify(&app, &token).await;
    assert_eq!(v["ok"], true, "{v}");
    let head = v["sealed_up_to"].as_i64().unwrap();
    assert!(head as usize > n, "{v}");
    (app, head, token)
}

#[actix_web::test]
async fn cutting_the_last_record_is_detected() {
    let (app, head, token) = setup(20).await;
    drop_triggers(&app);
    app.with_conn(|c| {
        diesel::delete(a::audit_log.filter(a::seq.ge(head)))
            .execute(c)
            .unwrap()
    });
    assert!(chain_alone_says_intact(&app), "the chain alone misses it");
    let v = verify(&app, &token).await;
    assert_eq!(v["ok"], false, "{v}");
    assert_eq!(v["problem"], "truncated");
    assert_eq!(v["broken_at"], head);
    // The failed check is itself on record, with who ran it…
    let last: AuditRow = app.with_conn(|c| {
        a::audit_log
            .order(a::seq.desc())
            .select(AuditRow::as_select())
            .first(c)
            .unwrap()
    });
    assert_eq!(last.action, "audit.verify_failed");
    assert_eq!(last.actor_name, "admin");
    let after: Value = serde_json::from_str(&last.after_json).unwrap();
    assert_eq!(after["problem"], "truncated", "{after}");
    assert_eq!(after["at"], head, "{after}");
    // …written over the hole (the room keeps working: a write is not refused), and the chain
    // itself now shows the gap where the records were cut.
    assert!(last.seq > head, "{}", last.seq);
    let r = app
        .send_json("POST", "/api/v1/games", &token, serde_json::json!({
            "name": "After the cut", "variant": "holdem_nl", "small_blind": 100, "big_blind": 200,
            "limit_class": "low", "buy_in_min": 4000, "buy_in_max": 20000
        }))
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let report = app.with_conn(|c| chain::verify(c).unwrap());
    assert!(!report.ok);
    assert_eq!(report.problem, Some("gap"));
}

#[actix_web::test]
async fn cutting_the_last_500_records_is_detected() {
    let (app, head, token) = setup(600).await;
    drop_triggers(&app);
    app.with_conn(|c| {
        diesel::delete(a::audit_log.filter(a::seq.gt(head - 500)))
            .execute(c)
            .unwrap()
    });
    assert!(chain_alone_says_intact(&app));
    let v = verify(&app, &token).await;
    assert_eq!(v["ok"], false, "{v}");
    assert_eq!(v["problem"], "truncated");
}

#[actix_web::test]
async fn editing_a_record_and_recomputing_the_chain_after_it_is_detected() {
    let (app, _head, token) = setup(300).await;
    let s = app.web_login("admin", ADMIN_PW).await;
    // The hourly check passes before the tampering: no alert.
    cardroom::app::check_audit(&app.state);
    assert!(!app
        .page("/", &s)
        .await
        .text()
        .contains("id=\"audit-alert\""));
    drop_triggers(&app);
    app.with_conn(|c| {
        diesel::update(a::audit_log.filter(a::seq.eq(100)))
            .set(a::after_json.eq(r#"{"i":"changed"}"#))
            .execute(c)
            .unwrap()
    });
    rechain_from(&app, 100);
    assert!(chain_alone_says_intact(&app));
    let v = verify(&app, &token).await;
    assert_eq!(v["ok"], false, "{v}");
    assert_eq!(v["problem"], "rewritten");
    // The next background check raises the alert on the admins' pages and in /metrics.
    cardroom::app::check_audit(&app.state);
    let page = app.page("/", &s).await.text();
    assert!(page.contains("id=\"audit-alert\""), "{page}");
    assert!(page.contains("failed its check"), "{page}");
    let m = app
        .call(
            actix_web::test::TestRequest::get()
                .uri("/metrics")
                .peer_addr("127.0.0.1:9".parse().unwrap())
                .to_request(),
        )
        .await;
    assert_eq!(m.status, 200);
    assert!(
        m.text().contains("cardroom_audit_verified 0"),
        "{}",
        m.text()
    );
}

#[actix_web::test]
async fn deleting_or_inserting_a_record_and_renumbering_is_detected() {
    // Deleted from the middle, the later records renumbered and re-chained.
    let (app, _, token) = setup(50).await;
    drop_triggers(&app);
    app.with_conn(|c| {
        diesel::delete(a::audit_log.filter(a::seq.eq(10)))
            .execute(c)
            .unwrap();
        diesel::update(a::audit_log.filter(a::seq.gt(10)))
            .set(a::seq.eq(a::seq - 1))
            .execute(c)
            .unwrap();
    });
    rechain_from(&app, 10);
    assert!(chain_alone_says_intact(&app));
    let v = verify(&app, &token).await;
    assert_eq!(v["ok"], false, "{v}");
    assert!(
        v["problem"] == "truncated" || v["problem"] == "rewritten",
        "{v}"
    );

    // A record slipped in: the later ones shifted up and re-chained.
    let (app, _, token) = setup(50).await;
    drop_triggers(&app);
    app.with_conn(|c| {
        // (Shifted from the top down, so no two rows share a number on the way.)
        let top: i64 = a::audit_log
            .select(diesel::dsl::max(a::seq))
            .first::<Option<i64>>(c)
            .unwrap()
            .unwrap();
        for s in (10..=top).rev() {
            diesel::update(a::audit_log.filter(a::seq.eq(s)))
                .set(a::seq.eq(s + 1))
                .execute(c)
                .unwrap();
        }
        let mut r: AuditRow = a::audit_log
            .filter(a::seq.eq(11))
            .select(AuditRow::as_select())
            .first(c)
            .unwrap();
        r.seq = 10;
        r.after_json = r#"{"slipped":"in"}"#.into();
        diesel::insert_into(a::audit_log)
            .values(&r)
            .execute(c)
            .unwrap();
    });
    rechain_from(&app, 10);
    assert!(chain_alone_says_intact(&app));
    let v = verify(&app, &token).await;
    assert_eq!(v["ok"], false, "{v}");
    assert_eq!(v["problem"], "rewritten");
}

#[actix_web::test]
async fn an_edited_or_missing_checkpoint_file_is_detected() {
    let (app, _, token) = setup(5).await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let log = app.state.seal.log_path();
    let text = std::fs::read_to_string(&log).unwrap();
    // A checkpoint moved back to an earlier record: its signature no longer matches.
    let first = text.lines().next().unwrap().to_string();
    let mut parts: Vec<&str> = first.split(' ').collect();
    assert_eq!(parts[0], "v2", "{first}");
    parts[3] = "1";
    let forged = parts.join(" ");
    std::fs::write(&log, text.replacen(&first, &forged, 1)).unwrap();
    let v = verify(&app, &token).await;
    assert_eq!(v["ok"], false, "{v}");
    assert_eq!(v["problem"], "checkpoint_forged");
    assert_eq!(v["broken_at"], 1, "the line");
    std::fs::remove_file(&log).unwrap();
    let v = verify(&app, &token).await;
    assert_eq!(v["problem"], "checkpoints_missing", "{v}");
    // The admin page says the same in the reader's language.
    let page = app.page("/admin/audit/verify", &s).await.text();
    assert!(page.contains("checkpoint file is missing"), "{page}");
}

#[actix_web::test]
async fn the_server_writes_checkpoints_as_the_head_moves_and_a_new_series_is_recorded() {
    let app = TestApp::with_clock(true).await;
    // The first start began a series (recorded in the trail) and sealed the head.
    let token = app.admin_token().await;
    let started = app.with_conn(|c| {
        a::audit_log
            .filter(a::action.eq("audit.seal_started"))
            .count()
            .get_result::<i64>(c)
            .unwrap()
    });
    assert_eq!(started, 1);
    let log = app.state.seal.log_path();
    let lines = || std::fs::read_to_string(&log).unwrap().lines().count();
    // (Signing in above added a record: sealed when forced.)
    let now = app.state.clock.now();
    assert!(app
        .with_conn(|c| app.state.seal.tick(c, now, "minute", true))
        .unwrap()
        .is_some());
    let before = lines();
    // Nothing new: no checkpoint, even when forced.
    assert_eq!(
        app.with_conn(|c| app.state.seal.tick(c, now, "minute", true))
            .unwrap(),
        None
    );
    // New records: not before a minute has passed (unless forced), then sealed.
    let r = app
        .send_json("POST", "/api/v1/players", &token, player_json("SEAL00001"))
        .await;
    assert_eq!(r.status, 201);
    assert_eq!(
        app.with_conn(|c| app.state.seal.tick(c, now, "minute", false))
            .unwrap(),
        None
    );
    let later = now + chrono::Duration::seconds(cardroom::audit_seal::EVERY_SECS);
    let sealed = app
        .with_conn(|c| app.state.seal.tick(c, later, "minute", false))
        .unwrap();
    assert!(sealed.is_some());
    assert_eq!(lines(), before + 1);
    // The key is the server's alone.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(app.db.audit.path().join(cardroom::audit_seal::KEY_FILE))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o077, 0, "audit.key must not be readable by others");
    }
    assert_eq!(verify(&app, &token).await["ok"], true);
}

/// A `sequences` row set back behind the trail (an older copy of that table restored, an
/// edit) used to give every new record a number already used: every write refused. The
/// counter now catches up with the last record and writes go on, the chain intact.
#[actix_web::test]
async fn a_counter_behind_the_trail_catches_up_and_writes_go_on() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let before = app.audit_count();
    app.with_conn(|c| {
        use cardroom::db::schema::sequences::dsl as s;
        diesel::update(s::sequences.filter(s::name.eq("audit")))
            .set(s::value.eq(s::value - 3))
            .execute(c)
            .unwrap()
    });
    for doc in ["CB-1", "CB-2"] {
        let r = app
            .send_json("POST", "/api/v1/players", &token, player_json(doc))
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
    }
    assert!(app.audit_count() >= before + 2);
    let v = verify(&app, &token).await;
    assert_eq!(v["ok"], true, "{v}");
    assert!(chain_alone_says_intact(&app));
}
