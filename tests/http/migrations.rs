//! Every migration applies and reverts cleanly, on the backend under test (SQLite by
//! default, PostgreSQL with `CARDROOM_TEST_DB=postgres`).

use crate::support::*;
use cardroom::db::{revert_all_migrations, run_migrations, Backend, Db};
use diesel::prelude::*;

#[derive(QueryableByName)]
struct Name {
    #[diesel(sql_type = diesel::sql_types::Text)]
    name: String,
}

fn tables(db: &Db) -> Vec<String> {
    let mut c = db.conn().unwrap();
    let sql = match db.backend {
        Backend::Sqlite => "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        Backend::Postgres => "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
    };
    diesel::sql_query(sql)
        .load::<Name>(&mut c)
        .unwrap()
        .into_iter()
        .map(|n| n.name)
        .collect()
}

#[test]
fn migrations_apply_revert_and_reapply() {
    let t = fresh_db();
    let db = Db::open(&t.url, 2).unwrap();
    let mut c = db.conn().unwrap();
    let applied = run_migrations(&mut c).unwrap();
    assert!(applied >= 1);
    let all = tables(&db);
    for t in [
        "players",
        "staff",
        "audit_log",
        "games",
        "card_tables",
        "exclusions",
        "separations",
        "room",
    ] {
        assert!(
            all.contains(&t.to_string()),
            "{t} missing after migrations: {all:?}"
        );
    }
    assert_eq!(run_migrations(&mut c).unwrap(), 0, "nothing left to apply");
    let reverted = revert_all_migrations(&mut c).unwrap();
    assert_eq!(reverted, applied);
    let left: Vec<String> = tables(&db)
        .into_iter()
        .filter(|t| t != "__diesel_schema_migrations")
        .collect();
    assert!(left.is_empty(), "tables left after reverting: {left:?}");
    assert_eq!(run_migrations(&mut c).unwrap(), applied);
}

#[test]
fn the_audit_log_refuses_updates_and_deletes() {
    let app = TestApp::builder().build();
    let state = &app.state;
    let mut c = state.db.conn().unwrap();
    // The first start wrote audit records (room, admin account).
    let n: i64 = cardroom::db::schema::audit_log::table
        .count()
        .get_result(&mut c)
        .unwrap();
    assert!(n >= 2);
    let upd = diesel::sql_query("UPDATE audit_log SET actor_name = 'mallory'").execute(&mut c);
    assert!(upd.is_err(), "UPDATE must be refused");
    let del = diesel::sql_query("DELETE FROM audit_log").execute(&mut c);
    assert!(del.is_err(), "DELETE must be refused");
    let report = cardroom::db::audit::verify(&mut c).unwrap();
    assert!(report.ok);
    assert_eq!(report.records as i64, n);
}

#[test]
fn a_tampered_record_is_found_by_the_chain_check() {
    let app = TestApp::builder().build();
    let state = &app.state;
    let mut c = state.db.conn().unwrap();
    // Someone with database access disables the guard and edits record 2.
    let disable = match state.db.backend {
        Backend::Sqlite => "DROP TRIGGER audit_log_no_update",
        Backend::Postgres => "ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update",
    };
    diesel::sql_query(disable).execute(&mut c).unwrap();
    diesel::sql_query("UPDATE audit_log SET actor_name = 'mallory' WHERE seq = 2")
        .execute(&mut c)
        .unwrap();
    let report = cardroom::db::audit::verify(&mut c).unwrap();
    assert!(!report.ok);
    assert_eq!(report.broken_at, Some(2));
    assert_eq!(report.records, 1);
}

/// The PostgreSQL run makes one database per test on one cluster: a passing test's is dropped
/// with its `TestDb`, even while the app is still connected (kept, ~290 of them filled a CI
/// machine's disk).
#[actix_web::test]
async fn postgres_a_passing_tests_database_is_dropped_with_it() {
    if !crate::support::is_postgres() {
        return;
    }
    #[derive(QueryableByName)]
    struct N {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    let base = std::env::var("CARDROOM_TEST_PG").expect("CARDROOM_TEST_PG");
    let exists = |name: &str| {
        let mut admin = diesel::PgConnection::establish(&base).expect("connect");
        diesel::sql_query("SELECT COUNT(*) AS n FROM pg_database WHERE datname = $1")
            .bind::<diesel::sql_types::Text, _>(name)
            .get_result::<N>(&mut admin)
            .expect("count")
            .n
            == 1
    };
    let app = TestApp::new().await;
    let name = app.db.url.rsplit('/').next().expect("name").to_string();
    assert!(app.admin_token().await.len() > 10, "the app is in use");
    assert!(exists(&name), "{name} exists while the test runs");
    drop(app);
    assert!(!exists(&name), "{name} is dropped with the test");
}
