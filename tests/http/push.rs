//! The push hub (`cardroom::push`): one reader per process fans the events out to every open
//! stream — in order, each once, never skipped — whether a stream follows live, resumes from
//! an old `Last-Event-ID`, falls behind the broadcast, or meets a sequence number committed
//! late; on PostgreSQL, events written through one server process reach the streams of
//! another through `NOTIFY`/`LISTEN`.

use crate::pages::{eligible_players, nl_game};
use crate::support::{is_postgres, TestApp, ADMIN_PW};
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::ServiceResponse;
use actix_web::test::TestRequest;
use cardroom::db::schema::{events, sequences};
use cardroom::domain::ids::TableId;
use diesel::prelude::*;
use std::time::{Duration, Instant};

/// Generous limit for something that should happen "at once" (never a timing assertion:
/// only a guard against waiting forever).
const PATIENCE: Duration = Duration::from_secs(10);

/// An open SSE response and everything read from it so far.
pub(crate) struct Sse {
    body: BoxBody,
    pub(crate) text: String,
    /// The server ended the stream (a browser would reconnect with `Last-Event-ID`).
    pub(crate) ended: bool,
    /// The id of the opening `hello` event: the sequence number the stream starts after.
    pub(crate) after: i64,
}

impl Sse {
    /// Checks the response and reads the `retry:` line and `hello` event the stream starts with.
    pub(crate) async fn open(res: ServiceResponse) -> Sse {
        assert_eq!(res.status(), 200);
        assert_eq!(
            res.headers()
                .get("content-type")
                .map(|v| v.to_str().unwrap_or_default()),
            Some("text/event-stream")
        );
        let mut s = Sse {
            body: res.into_body(),
            text: String::new(),
            ended: false,
            after: -1,
        };
        assert!(
            s.read_until(|t| t.contains("\n\n"), PATIENCE).await,
            "nothing came"
        );
        // The `retry:` line and the `hello` event naming where the stream starts; the
        // events after it are what the tests read.
        assert!(
            s.text.starts_with("retry: 2000\nevent: hello\nid: "),
            "{}",
            s.text
        );
        let end = s.text.find("\n\n").expect("hello frame") + 2;
        let hello: String = s.text.drain(..end).collect();
        s.after = hello
            .lines()
            .find_map(|l| l.strip_prefix("id: "))
            .and_then(|n| n.trim().parse().ok())
            .expect("hello id");
        assert!(
            hello.contains(&format!("data: {{\"after\":{}}}\n", s.after)),
            "{hello}"
        );
        s
    }

    /// Reads until `done` holds for everything read so far, or `within` passes, or the
    /// stream ends. Returns whether `done` held.
    pub(crate) async fn read_until(
        &mut self,
        done: impl Fn(&str) -> bool,
        within: Duration,
    ) -> bool {
        let deadline = Instant::now() + within;
        while !done(&self.text) {
            if self.ended {
                return false;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            let next = futures_util::future::poll_fn(|cx| {
                std::pin::Pin::new(&mut self.body).poll_next(cx)
            });
            match tokio::time::timeout(left, next).await {
                Ok(Some(Ok(b))) => self.text.push_str(&String::from_utf8_lossy(&b)),
                Ok(_) => {
                    self.ended = true;
                    return done(&self.text);
                }
                Err(_) => {}
            }
        }
        true
    }

    /// Reads until the event `seq` has come.
    pub(crate) async fn read_to(&mut self, seq: i64) -> bool {
        let needle = format!("id: {seq}\n");
        self.read_until(|t| t.contains(&needle), PATIENCE).await
    }

    /// Keeps reading for a while (lets the stream subscribe, or shows late duplicates).
    pub(crate) async fn pump(&mut self, d: Duration) {
        self.read_until(|_| false, d).await;
    }

    /// The sequence numbers received, in the order received.
    pub(crate) fn ids(&self) -> Vec<i64> {
        self.text
            .lines()
            .filter_map(|l| l.strip_prefix("id: "))
            .map(|n| n.trim().parse().expect("numeric id"))
            .collect()
    }
}

/// The sequence numbers in the database after `after` (of one table, or all), in order.
pub(crate) fn seqs_after(app: &TestApp, after: i64, table: Option<i64>) -> Vec<i64> {
    app.with_conn(|c| match table {
        None => events::table
            .filter(events::seq.gt(after))
            .order(events::seq.asc())
            .select(events::seq)
            .load(c)
            .unwrap(),
        Some(t) => events::table
            .filter(events::seq.gt(after))
            .filter(events::table_id.eq(t))
            .order(events::seq.asc())
            .select(events::seq)
            .load(c)
            .unwrap(),
    })
}

pub(crate) fn last_seq(app: &TestApp) -> i64 {
    app.with_conn(|c| cardroom::push::last_seq(c).unwrap())
}

/// Polls the streams until the hub has `n` subscribers (each stream subscribes on its
/// first read after the `retry:` line).
async fn until_subscribed(app: &TestApp, streams: &mut [&mut Sse], n: usize) {
    let deadline = Instant::now() + PATIENCE;
    while app.state.push.receivers() < n {
        assert!(
            Instant::now() < deadline,
            "streams did not subscribe ({} of {n})",
            app.state.push.receivers()
        );
        for s in streams.iter_mut() {
            s.pump(Duration::from_millis(10)).await;
        }
    }
}

/// Polls the stream until the hub has done the reads it does on its own at start (and, on
/// PostgreSQL, once its listener listens): from then on it reads only when woken.
async fn until_hub_waits(app: &TestApp, s: &mut Sse) {
    use std::sync::atomic::Ordering::Relaxed;
    let stats = app.state.push.stats();
    let deadline = Instant::now() + PATIENCE;
    let reads = if is_postgres() { 2 } else { 1 };
    while stats.reads.load(Relaxed) < reads || (is_postgres() && stats.listens.load(Relaxed) < 1) {
        assert!(Instant::now() < deadline, "the hub did not start");
        s.pump(Duration::from_millis(10)).await;
    }
    s.pump(Duration::from_millis(100)).await;
}

/// `n` events straight through the service that writes them (one transaction), as a
/// burst of changes would.
async fn emit_many(app: &TestApp, table_id: Option<i64>, n: usize) {
    let now = app.state.clock.now();
    app.state
        .write(move |_, c| {
            for i in 0..n {
                cardroom::services::floor::emit(
                    c,
                    now,
                    table_id.map(TableId),
                    "test.burst",
                    &serde_json::json!({ "n": i }),
                )?;
            }
            Ok(())
        })
        .await
        .expect("events written");
}

/// An event row with this sequence number, written behind the services' back (no
/// notification; the event counter is the caller's business). On PostgreSQL the `events`
/// trigger (migration 000015) would notify the hubs: the row is written as a replica's, for
/// which triggers do not fire (superuser only; the test cluster's), as by another process
/// whose notification is still on its way.
fn insert_raw(app: &TestApp, seq: i64) {
    let now = app.state.clock.now().naive_utc();
    app.with_conn(|c| {
        c.transaction::<_, diesel::result::Error, _>(|c| {
            if is_postgres() {
                diesel::sql_query("SET LOCAL session_replication_role = replica").execute(c)?;
            }
            diesel::insert_into(events::table)
                .values((
                    events::seq.eq(seq),
                    events::at.eq(now),
                    events::table_id.eq(None::<i64>),
                    events::kind.eq("test.raw"),
                    events::payload.eq("{}"),
                ))
                .execute(c)
        })
        .unwrap()
    });
}

/// Pairs a tablet with a table through the services; returns its device token.
fn pair_tablet(app: &TestApp, table_id: i64) -> String {
    use cardroom::auth::{issue, TokenKind};
    let now = app.state.clock.now();
    app.with_conn(|c| {
        let (p, _) = cardroom::services::tablets::start_pairing(c, now).unwrap();
        let act = cardroom::services::Acting::system(now)
            .in_room(c)
            .expect("room");
        let t = cardroom::services::tablets::pair(c, &act, &p.code, TableId(table_id), "push test")
            .unwrap();
        issue(
            &app.state.keys,
            t.id,
            t.token_version,
            TokenKind::Device,
            "",
            now,
            24,
        )
        .0
    })
}

/// NL 1/2 with two open tables of 9 and `players` eligible players on its list; returns the
/// API token and the admin's page session.
pub(crate) async fn room(app: &TestApp, players: usize) -> (String, crate::support::WebSession) {
    let token = app.admin_token().await;
    nl_game(app, &token).await;
    for n in 1..=2 {
        let t = serde_json::json!({"number": n, "game_id": 1, "mode": "continuous", "seats": 9});
        assert_eq!(
            app.send_json("POST", "/api/v1/tables", &token, t)
                .await
                .status,
            201
        );
    }
    let s = app.web_login("admin", ADMIN_PW).await;
    for n in 1..=2 {
        assert_eq!(
            app.post_form(&format!("/floor/tables/{n}/open"), &s, &[])
                .await
                .status,
            303
        );
    }
    for id in eligible_players(app, players) {
        let r = app
            .send_json(
                "POST",
                "/api/v1/games/1/waitlist",
                &token,
                serde_json::json!({"player_id": id}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
    }
    (token, s)
}

#[actix_web::test]
async fn every_stream_gets_every_event_in_order_once() {
    let app = TestApp::new().await;
    let (token, admin) = room(&app, 6).await;
    app.create_staff("floor1", "floor");
    let floor = app.web_login("floor1", crate::support::STAFF_PW).await;
    let device = pair_tablet(&app, 1);
    let start = last_seq(&app);
    // Two floor pages (two people) and table 1's tablet, all from now.
    let uri = format!("/floor/stream?since={start}");
    let mut a = Sse::open(
        app.call_raw(TestRequest::get().uri(&uri).cookie(admin.c()).to_request())
            .await,
    )
    .await;
    let mut b = Sse::open(
        app.call_raw(TestRequest::get().uri(&uri).cookie(floor.c()).to_request())
            .await,
    )
    .await;
    let tablet_req = TestRequest::get()
        .uri(&format!("/tablet/stream?since={start}"))
        .cookie(admin.c())
        .cookie(actix_web::cookie::Cookie::new("cr_device", device))
        .to_request();
    let mut t = Sse::open(app.call_raw(tablet_req).await).await;
    until_subscribed(&app, &mut [&mut a, &mut b, &mut t], 3).await;
    // Changes made at the same moment (group commit may put them in one transaction), with
    // events for both tables and for the whole floor.
    let app_ref = &app;
    let calls = (1..=4).map(|i| {
        let uri = format!("/api/v1/tables/{}/seats/{}/call-next", 1 + i % 2, i);
        let token = token.clone();
        async move {
            app_ref
                .send_json("POST", &uri, &token, serde_json::json!({}))
                .await
        }
    });
    for r in futures_util::future::join_all(calls).await {
        assert_eq!(r.status, 201, "{}", r.text());
    }
    emit_many(&app, None, 5).await;
    emit_many(&app, Some(1), 3).await;
    let all = seqs_after(&app, start, None);
    let table1 = seqs_after(&app, start, Some(1));
    assert!(
        all.len() >= 12 && table1.len() >= 5,
        "the changes wrote events: {all:?}"
    );
    let end = *all.last().unwrap();
    assert!(
        a.read_to(end).await && b.read_to(end).await,
        "both floor streams got the last event:\n{}\n---\n{}",
        a.text,
        b.text
    );
    assert!(
        t.read_to(*table1.last().unwrap()).await,
        "the tablet got its table's last event:\n{}",
        t.text
    );
    // Whatever else might still come (a duplicate) has time to show.
    for s in [&mut a, &mut b, &mut t] {
        s.pump(Duration::from_millis(300)).await;
    }
    assert_eq!(a.ids(), all, "floor stream 1: every event, in order, once");
    assert_eq!(b.ids(), all, "floor stream 2: every event, in order, once");
    assert_eq!(
        t.ids(),
        table1,
        "tablet: its table's events only, in order, once"
    );
    assert!(
        app.state
            .push
            .stats()
            .published
            .load(std::sync::atomic::Ordering::Relaxed)
            >= all.len() as u64,
        "the hub pushed them"
    );
}

#[actix_web::test]
async fn a_stream_resuming_from_an_old_event_gets_the_backlog_then_live_events_without_duplicates()
{
    let app = TestApp::new().await;
    let (token, admin) = room(&app, 2).await;
    let resume = last_seq(&app);
    // Missed while away: more than one catch-up page (200) of events.
    emit_many(&app, None, 230).await;
    emit_many(&app, Some(2), 20).await;
    let backlog = seqs_after(&app, resume, None);
    let req = TestRequest::get()
        .uri("/floor/stream")
        .cookie(admin.c())
        .insert_header(("last-event-id", resume.to_string()))
        .to_request();
    let mut s = Sse::open(app.call_raw(req).await).await;
    // Live events are written while the backlog is being read.
    let live = actix_web::rt::spawn({
        let state = app.state.clone();
        async move {
            let now = state.clock.now();
            for i in 0..10 {
                state
                    .write(move |_, c| {
                        cardroom::services::floor::emit(
                            c,
                            now,
                            None,
                            "test.live",
                            &serde_json::json!({ "n": i }),
                        )
                        .map(|_| ())
                    })
                    .await
                    .expect("live event");
            }
        }
    });
    assert!(
        s.read_to(*backlog.last().unwrap()).await,
        "the backlog came: {}",
        s.text
    );
    live.await.unwrap();
    let r = app
        .send_json(
            "POST",
            "/api/v1/tables/1/seats/1/call-next",
            &token,
            serde_json::json!({}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let all = seqs_after(&app, resume, None);
    assert!(
        s.read_to(*all.last().unwrap()).await,
        "the live events came after the backlog: {}",
        s.text
    );
    s.pump(Duration::from_millis(300)).await;
    assert_eq!(s.ids(), all, "backlog then live, in order, each once");
    assert!(s.text.contains("seat.call"), "{}", s.text);
}

#[actix_web::test]
async fn a_stream_that_falls_behind_the_broadcast_catches_up_from_the_database() {
    let app = TestApp::new().await;
    let (_, admin) = room(&app, 1).await;
    let start = last_seq(&app);
    let mut s = Sse::open(
        app.call_raw(
            TestRequest::get()
                .uri(&format!("/floor/stream?since={start}"))
                .cookie(admin.c())
                .to_request(),
        )
        .await,
    )
    .await;
    until_subscribed(&app, &mut [&mut s], 1).await;
    // While this stream reads nothing, more events than the broadcast keeps are pushed.
    let n = cardroom::push::BUFFER + 500;
    for _ in 0..3 {
        emit_many(&app, None, n / 3 + 1).await;
    }
    let all = seqs_after(&app, start, None);
    let end = *all.last().unwrap();
    let deadline = Instant::now() + PATIENCE;
    while app.state.push.horizon() < end {
        assert!(
            Instant::now() < deadline,
            "the hub did not publish the burst"
        );
        actix_web::rt::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(s.read_to(end).await, "the stream caught up to {end}");
    s.pump(Duration::from_millis(300)).await;
    let ids = s.ids();
    assert_eq!(ids.len(), all.len(), "no event lost or repeated");
    assert_eq!(ids, all, "in order");
}

/// A page rendered after events the hub has not pushed yet starts its stream ahead of the
/// hub: when the hub pushes those events, that stream must not send them again.
#[actix_web::test]
async fn a_stream_starting_ahead_of_the_hub_gets_nothing_twice() {
    let app = TestApp::new().await;
    let (_, admin) = room(&app, 1).await;
    // The hub only reads when woken (no fallback poll during this test).
    app.state.push.set_fallback(Duration::from_secs(3600));
    let start = last_seq(&app);
    let open = |since: i64| {
        TestRequest::get()
            .uri(&format!("/floor/stream?since={since}"))
            .cookie(admin.c())
            .to_request()
    };
    let mut early = Sse::open(app.call_raw(open(start)).await).await;
    until_subscribed(&app, &mut [&mut early], 1).await;
    until_hub_waits(&app, &mut early).await;
    // Written without waking the hub (no local signal, no notification), as by another
    // process whose notification is still on its way.
    app.with_conn(|c| {
        diesel::update(sequences::table.find("event"))
            .set(sequences::value.eq(start + 3))
            .execute(c)
            .unwrap()
    });
    for seq in start + 1..=start + 3 {
        insert_raw(&app, seq);
    }
    let rendered = last_seq(&app);
    assert!(
        app.state.push.horizon() < rendered,
        "the hub has not read them yet"
    );
    let mut late = Sse::open(app.call_raw(open(rendered)).await).await;
    until_subscribed(&app, &mut [&mut late], 2).await;
    // The next change wakes the hub: it pushes the three and the new one.
    emit_many(&app, None, 1).await;
    let all = seqs_after(&app, start, None);
    let end = *all.last().unwrap();
    assert!(
        early.read_to(end).await && late.read_to(end).await,
        "{}\n---\n{}",
        early.text,
        late.text
    );
    late.pump(Duration::from_millis(200)).await;
    assert_eq!(early.ids(), all);
    assert_eq!(late.ids(), vec![end], "only what is newer than the page");
}

/// A sequence number committed after a higher one (possible between concurrent
/// PostgreSQL transactions): the later events wait for it; one that never comes is given
/// up on after the grace time.
#[actix_web::test]
async fn a_late_sequence_number_holds_the_next_events_back_until_it_comes() {
    let app = TestApp::new().await;
    let (_, admin) = room(&app, 1).await;
    let start = last_seq(&app);
    let mut s = Sse::open(
        app.call_raw(
            TestRequest::get()
                .uri(&format!("/floor/stream?since={start}"))
                .cookie(admin.c())
                .to_request(),
        )
        .await,
    )
    .await;
    until_subscribed(&app, &mut [&mut s], 1).await;
    let insert = |seq: i64| {
        insert_raw(&app, seq);
        app.state.changed();
    };
    // Numbers start+1 and start+2 are taken; start+2 commits first.
    app.with_conn(|c| {
        diesel::update(sequences::table.find("event"))
            .set(sequences::value.eq(start + 3))
            .execute(c)
            .unwrap()
    });
    insert(start + 2);
    // The hub has had every chance to publish start+2 too early.
    s.pump(Duration::from_millis(300)).await;
    insert(start + 1);
    assert!(s.read_to(start + 2).await, "{}", s.text);
    s.pump(Duration::from_millis(100)).await;
    assert_eq!(
        s.ids(),
        vec![start + 1, start + 2],
        "in sequence order, though committed the other way round"
    );
    // start+3 was taken by a writer that never commits: start+4 goes out after the grace time.
    app.with_conn(|c| {
        diesel::update(sequences::table.find("event"))
            .set(sequences::value.eq(start + 4))
            .execute(c)
            .unwrap()
    });
    insert(start + 4);
    assert!(
        s.read_to(start + 4).await,
        "given up on the missing number: {}",
        s.text
    );
    assert_eq!(s.ids(), vec![start + 1, start + 2, start + 4]);
    assert_eq!(
        app.state
            .push
            .stats()
            .skipped
            .load(std::sync::atomic::Ordering::Relaxed),
        1
    );
}

/// PostgreSQL, two server processes on one database (two application states, each with
/// its own hub): an event written through one reaches a stream served by the other through
/// `NOTIFY`, not through the fallback poll (set to an hour here), also after the listening
/// connection was killed. The page session signed by one process is valid on the other.
#[actix_web::test]
async fn on_postgresql_an_event_written_by_one_process_reaches_the_streams_of_another() {
    use std::sync::atomic::Ordering::Relaxed;
    if !is_postgres() {
        eprintln!("skipped: PostgreSQL only (CARDROOM_TEST_DB=postgres)");
        return;
    }
    let a = TestApp::new().await;
    let (token, admin) = room(&a, 3).await;
    let b_app = TestApp::builder().like(&a).start().await;
    let b = &b_app.state;
    b.push.set_fallback(Duration::from_secs(3600));
    let start = last_seq(&a);
    let req = TestRequest::get()
        .uri(&format!("/floor/stream?since={start}"))
        .cookie(admin.c())
        .to_request();
    let mut s = Sse::open(b_app.call_raw(req).await).await;
    // B's hub has subscribed this stream, listens, and has read once after listening: from
    // now on only a notification (or B's own writes, and there are none) wakes it.
    let deadline = Instant::now() + PATIENCE;
    while b.push.receivers() < 1
        || b.push.stats().listens.load(Relaxed) < 1
        || b.push.stats().reads.load(Relaxed) < 2
    {
        assert!(Instant::now() < deadline, "B's hub did not start listening");
        s.pump(Duration::from_millis(20)).await;
    }
    s.pump(Duration::from_millis(200)).await;
    let r = a
        .send_json(
            "POST",
            "/api/v1/tables/1/seats/1/call-next",
            &token,
            serde_json::json!({}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let first = seqs_after(&a, start, None);
    assert!(
        s.read_to(*first.last().unwrap()).await,
        "process B's stream got process A's event: {}",
        s.text
    );
    assert!(b.push.stats().notifications.load(Relaxed) >= 1);

    // The listening connection dies; B's listener connects again and goes on.
    a.with_conn(|c| {
        diesel::sql_query(format!(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '{}' AND datname = current_database()",
            cardroom::push::listen::APPLICATION_NAME
        ))
        .execute(c)
        .unwrap()
    });
    let deadline = Instant::now() + PATIENCE;
    while b.push.stats().listens.load(Relaxed) < 2 {
        assert!(Instant::now() < deadline, "B's listener did not reconnect");
        s.pump(Duration::from_millis(20)).await;
    }
    s.pump(Duration::from_millis(200)).await;
    let r = a
        .send_json(
            "POST",
            "/api/v1/tables/2/seats/1/call-next",
            &token,
            serde_json::json!({}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let all = seqs_after(&a, start, None);
    assert!(
        s.read_to(*all.last().unwrap()).await,
        "after the reconnection too: {}",
        s.text
    );
    s.pump(Duration::from_millis(200)).await;
    assert_eq!(s.ids(), all, "in order, once");
}

#[actix_web::test]
async fn a_fresh_stream_says_the_id_it_starts_after_in_a_hello_event() {
    let app = TestApp::new().await;
    let (_token, admin) = room(&app, 2).await;
    let now = last_seq(&app);
    assert!(now > 2, "the room wrote events");
    let open = |uri: String, last: Option<&str>| {
        let mut req = TestRequest::get().uri(&uri).cookie(admin.c());
        if let Some(l) = last {
            req = req.insert_header(("last-event-id", l.to_string()));
        }
        req.to_request()
    };
    // Fresh: after the newest event (the browser keeps it as its Last-Event-ID).
    let s = Sse::open(app.call_raw(open("/floor/stream".into(), None)).await).await;
    assert_eq!(s.after, now);
    // From the page's event, and from the browser's Last-Event-ID (which wins).
    let s = Sse::open(
        app.call_raw(open("/floor/stream?since=1".into(), None))
            .await,
    )
    .await;
    assert_eq!(s.after, 1);
    let s = Sse::open(
        app.call_raw(open("/floor/stream?since=1".into(), Some("2")))
            .await,
    )
    .await;
    assert_eq!(s.after, 2);
    // A resuming stream sends the backlog after its hello, each event once.
    let mut s = Sse::open(app.call_raw(open("/floor/stream".into(), Some("0"))).await).await;
    assert_eq!(s.after, 0);
    assert!(s.read_to(now).await, "{}", s.text);
    assert_eq!(s.ids(), seqs_after(&app, 0, None));
}
