//! The audit trail's checkpoints name the database they seal: servers of several databases
//! may share one audit directory (each database its own series, never another's "rewritten"),
//! several hosts each write their own series and a verification checks and lists every one
//! it finds; the single checkpoint file of older versions is adopted by the database whose
//! trail it matches and otherwise left alone.

use crate::support::*;
use cardroom::audit_seal::{self, Seal, LEGACY_FILE};
use cardroom::db::audit::{self as chain, Actor};
use cardroom::db::schema::audit_log::dsl as a;
use cardroom::domain::audit_seal::{encode, Checkpoint};
use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// `n` more records, then a checkpoint of the head.
fn records_then_checkpoint(app: &TestApp, n: usize) {
    let now = app.state.clock.now();
    app.with_conn(|c| {
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
            )
            .unwrap();
        }
        app.state.seal.tick(c, now, "minute", true).unwrap();
    });
}

async fn verify(app: &TestApp, token: &str) -> Value {
    let r = app.get("/api/v1/audit/verify", token).await;
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

fn dir_of(app: &TestApp) -> PathBuf {
    app.state.config.audit.dir.clone()
}

fn files(dir: &Path) -> Vec<String> {
    let mut f: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    f.sort();
    f
}

fn key(dir: &Path) -> Vec<u8> {
    hex::decode(
        std::fs::read_to_string(dir.join(audit_seal::KEY_FILE))
            .unwrap()
            .trim(),
    )
    .unwrap()
}

/// Old-format lines (no database, no host) sealing records `seqs` of `app`'s trail, signed
/// with the directory's key, as the server wrote them before.
fn old_lines(app: &TestApp, seqs: &[i64]) -> String {
    let k = key(&dir_of(app));
    seqs.iter()
        .map(|s| {
            let hash: String = app.with_conn(|c| {
                a::audit_log
                    .filter(a::seq.eq(s))
                    .select(a::hash)
                    .first(c)
                    .unwrap()
            });
            encode(
                &k,
                &Checkpoint {
                    db: None,
                    host: None,
                    seq: *s,
                    hash,
                    at: 1_800_000_000 + s,
                    reason: "minute".into(),
                },
            )
        })
        .collect()
}

fn head(app: &TestApp) -> i64 {
    app.with_conn(|c| audit_seal::head(c).unwrap().unwrap().0)
}

fn seal_started(app: &TestApp) -> i64 {
    app.with_conn(|c| {
        a::audit_log
            .filter(a::action.eq("audit.seal_started"))
            .count()
            .get_result(c)
            .unwrap()
    })
}

/// A second server on `other`'s database and audit directory.
async fn sharing(other: &TestApp) -> TestApp {
    let dir = dir_of(other).display().to_string();
    TestApp::tuned(move |c| c.audit.dir = Some(dir)).await
}

#[actix_web::test]
async fn two_databases_served_in_turn_from_one_audit_directory_both_verify_clean() {
    let first = TestApp::new().await;
    let t1 = first.admin_token().await;
    records_then_checkpoint(&first, 30);
    // A second database served from the same directory (a test server beside the room's).
    let second = sharing(&first).await;
    let t2 = second.admin_token().await;
    records_then_checkpoint(&second, 5);
    let dir = dir_of(&first);
    let (id1, id2) = (
        first.state.seal.database_id().to_string(),
        second.state.seal.database_id().to_string(),
    );
    assert_ne!(id1, id2, "each database has its own identity");
    assert_eq!(id1.len(), 32);
    // One key for the directory; one series per database (and host).
    let host = audit_seal::host_name();
    let mut expected = vec![
        audit_seal::KEY_FILE.to_string(),
        audit_seal::series_file(&id1, &host),
        audit_seal::series_file(&id2, &host),
    ];
    expected.sort();
    assert_eq!(files(&dir), expected);
    // The first served again: still its own series, no new one.
    let first = first.restart().await;
    assert_eq!(first.state.seal.database_id(), id1, "kept in the database");
    assert_eq!(seal_started(&first), 1);
    records_then_checkpoint(&first, 3);
    for (app, token, id) in [(&first, &t1, &id1), (&second, &t2, &id2)] {
        let v = verify(app, token).await;
        assert_eq!(v["ok"], true, "{v}");
        assert_eq!(v["problem"], Value::Null, "{v}");
        assert_eq!(v["database_id"], id.as_str(), "{v}");
        assert_eq!(v["host"], host.as_str(), "{v}");
        // Only this database's series was checked, and it is listed.
        let series = v["series"].as_array().unwrap();
        assert_eq!(series.len(), 1, "{v}");
        assert_eq!(series[0]["host"], host.as_str());
        assert_eq!(series[0]["file"], audit_seal::series_file(id, &host));
        assert_eq!(series[0]["result"], "ok");
        assert_eq!(series[0]["checkpoints"], v["checkpoints"]);
        assert_eq!(series[0]["last_seq"], v["sealed_up_to"]);
        assert_eq!(v["sealed_up_to"], head(app), "{v}");
        // Every line names its database and host.
        let text = std::fs::read_to_string(dir.join(audit_seal::series_file(id, &host))).unwrap();
        assert!(
            text.lines()
                .all(|l| l.starts_with(&format!("v2 {id} {host} "))),
            "{text}"
        );
    }
    // The admin page names the database and the file it checked.
    let s = second.web_login("admin", ADMIN_PW).await;
    let page = second.page("/admin/audit/verify", &s).await.text();
    assert!(page.contains(&id2), "{page}");
    assert!(
        page.contains(&audit_seal::series_file(&id2, &host)),
        "{page}"
    );
    assert!(page.contains("Matches the trail"), "{page}");
    assert!(!page.contains(&id1), "{page}");

    // A cut of the second's trail is still caught, with the right problem; the first is
    // untouched by it.
    let cut_at = verify(&second, &t2).await["sealed_up_to"].as_i64().unwrap();
    let sql = if is_postgres() {
        "DROP TRIGGER audit_log_no_update ON audit_log; DROP TRIGGER audit_log_no_truncate ON audit_log;"
    } else {
        "DROP TRIGGER audit_log_no_update; DROP TRIGGER audit_log_no_delete;"
    };
    second.with_conn(|c| {
        c.batch_execute(sql).unwrap();
        diesel::delete(a::audit_log.filter(a::seq.ge(cut_at)))
            .execute(c)
            .unwrap()
    });
    let v = verify(&second, &t2).await;
    assert_eq!(v["ok"], false, "{v}");
    assert_eq!(v["problem"], "truncated", "{v}");
    assert_eq!(v["broken_at"], cut_at, "{v}");
    assert_eq!(v["series"][0]["result"], "truncated", "{v}");
    assert_eq!(v["series"][0]["broken_at"], cut_at, "{v}");
    assert_eq!(verify(&first, &t1).await["ok"], true);
}

#[actix_web::test]
async fn every_hosts_series_of_the_database_is_checked_and_listed() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    records_then_checkpoint(&app, 10);
    let dir = dir_of(&app);
    let id = app.state.seal.database_id().to_string();
    // A second host serving the same database writes its own series (here into the same
    // directory, as with a shared one).
    let (other, _) = Seal::open(&dir, &id, "floor-2.room").unwrap();
    let now = app.state.clock.now();
    app.with_conn(|c| other.tick(c, now, "start", true).unwrap());
    records_then_checkpoint(&app, 4);
    app.with_conn(|c| other.tick(c, now, "minute", true).unwrap());
    let host = audit_seal::host_name();
    let v = verify(&app, &token).await;
    assert_eq!(v["ok"], true, "{v}");
    let series = v["series"].as_array().unwrap();
    assert_eq!(series.len(), 2, "{v}");
    // This server's first, then the other host's.
    assert_eq!(series[0]["host"], host.as_str());
    assert_eq!(series[1]["host"], "floor-2.room");
    assert_eq!(
        series[1]["file"],
        audit_seal::series_file(&id, "floor-2.room")
    );
    assert_eq!(series[1]["checkpoints"], 2);
    assert_eq!(series[1]["last_seq"], head(&app));
    assert_eq!(
        v["checkpoints"].as_u64().unwrap(),
        series[0]["checkpoints"].as_u64().unwrap() + 2
    );
    // Another database's series in the directory is not this one's: not checked.
    std::fs::write(
        dir.join(audit_seal::series_file(
            "ffffffffffffffffffffffffffffffff",
            "x",
        )),
        "v2 ffffffffffffffffffffffffffffffff x 1 00 1 start 00\n",
    )
    .unwrap();
    assert_eq!(
        verify(&app, &token).await["series"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    // The other host's file edited: caught, and said of that series.
    let p = dir.join(audit_seal::series_file(&id, "floor-2.room"));
    let text = std::fs::read_to_string(&p).unwrap();
    std::fs::write(&p, text.replacen(" start ", " minute ", 1)).unwrap();
    let v = verify(&app, &token).await;
    assert_eq!(v["ok"], false, "{v}");
    assert_eq!(v["problem"], "checkpoint_forged", "{v}");
    assert_eq!(v["series"][0]["result"], "ok", "{v}");
    assert_eq!(v["series"][1]["result"], "checkpoint_forged", "{v}");
    assert_eq!(v["series"][1]["broken_at"], 1, "{v}");
    // A line of this host's series copied into the other's: not that series' line.
    let own = std::fs::read_to_string(app.state.seal.log_path()).unwrap();
    std::fs::write(&p, own.lines().next().unwrap().to_string() + "\n").unwrap();
    let v = verify(&app, &token).await;
    assert_eq!(v["ok"], true, "the line names this database: {v}");
    std::fs::remove_file(app.state.seal.log_path()).unwrap();
    let v = verify(&app, &token).await;
    assert_eq!(v["problem"], "checkpoints_missing", "{v}");
    assert_eq!(v["series"][0]["host"], host.as_str(), "{v}");
    assert_eq!(v["series"][0]["result"], "checkpoints_missing", "{v}");
}

#[actix_web::test]
async fn an_old_checkpoint_file_is_adopted_by_its_database_and_left_alone_by_another() {
    let first = TestApp::new().await;
    let t1 = first.admin_token().await;
    records_then_checkpoint(&first, 20);
    let dir = dir_of(&first);
    let id1 = first.state.seal.database_id().to_string();
    // As an older version left it: one file, old lines, no database named (here: the
    // first database's checkpoints only), and no series of the new kind.
    let h = head(&first);
    let old = old_lines(&first, &[3, 10, h]);
    std::fs::remove_file(first.state.seal.log_path()).unwrap();
    std::fs::write(dir.join(LEGACY_FILE), &old).unwrap();

    // Another database served from the directory first: the old file does not match its
    // trail: left as it is, listed as not this database's — no false alarm.
    let second = sharing(&first).await;
    let t2 = second.admin_token().await;
    assert!(!second.state.seal.missing_at_start());
    let v = verify(&second, &t2).await;
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["problem"], Value::Null, "{v}");
    let series = v["series"].as_array().unwrap();
    assert_eq!(series.len(), 2, "{v}");
    assert_eq!(series[1]["file"], LEGACY_FILE);
    assert_eq!(series[1]["host"], Value::Null);
    assert_eq!(series[1]["result"], "other_database", "{v}");
    assert_eq!(std::fs::read_to_string(dir.join(LEGACY_FILE)).unwrap(), old);
    let s = second.web_login("admin", ADMIN_PW).await;
    let page = second.page("/admin/audit/verify", &s).await.text();
    assert!(page.contains("Not this database"), "{page}");

    // The first database's server started again: the file matches its trail, so it is
    // its series from now on (continued, no new series recorded).
    let started = seal_started(&first);
    let first = first.restart().await;
    assert_eq!(seal_started(&first), started, "continued, not a new series");
    assert!(!dir.join(LEGACY_FILE).exists());
    records_then_checkpoint(&first, 2);
    let adopted = std::fs::read_to_string(first.state.seal.log_path()).unwrap();
    assert!(adopted.starts_with(&old), "{adopted}");
    assert!(
        adopted
            .lines()
            .last()
            .unwrap()
            .starts_with(&format!("v2 {id1} ")),
        "{adopted}"
    );
    let v = verify(&first, &t1).await;
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["series"].as_array().unwrap().len(), 1, "{v}");
    assert!(v["checkpoints"].as_u64().unwrap() >= 4, "{v}");
    assert_eq!(verify(&second, &t2).await["ok"], true);
}

#[actix_web::test]
async fn an_old_file_written_by_two_databases_in_turn_is_no_false_alarm() {
    let first = TestApp::new().await;
    let t1 = first.admin_token().await;
    records_then_checkpoint(&first, 10);
    let second = sharing(&first).await;
    let t2 = second.admin_token().await;
    records_then_checkpoint(&second, 10);
    let dir = dir_of(&first);
    // What the shared single file held: the first's checkpoints, then the second's.
    let mixed = old_lines(&first, &[2, head(&first)]) + &old_lines(&second, &[2, head(&second)]);
    std::fs::write(dir.join(LEGACY_FILE), &mixed).unwrap();
    // (The second's server goes on; the first's starts again: neither adopts it.)
    let first = first.restart().await;
    assert!(dir.join(LEGACY_FILE).exists());
    for (app, token) in [(&first, &t1), (&second, &t2)] {
        let v = verify(app, token).await;
        assert_eq!(v["ok"], true, "{v}");
        let legacy = v["series"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["file"] == LEGACY_FILE)
            .cloned()
            .expect("listed");
        assert_eq!(legacy["result"], "other_database", "{v}");
    }
    assert_eq!(
        std::fs::read_to_string(dir.join(LEGACY_FILE)).unwrap(),
        mixed
    );
}
