//! Player-page benchmark: the room of the floor benchmark (250 tables of 10 seats
//! across 10 games, 2,500 seated players, 5,000 on the waiting lists, every player with a
//! photo) on a temporary SQLite file, the real server in-process (2 HTTP workers), and many
//! phones reading their player's link at once:
//!
//! * (a) `GET /p/{token}`: the whole page;
//! * (b) `GET /p/{token}/state`: the live part, what the page polls every 3 s;
//! * (c) `GET /p/{token}/state` with `If-None-Match` (the ETag of (b)): the 304 path, what
//!   almost every poll is while nothing changes;
//! * (d) the room as it is: (c) paced at 1,666 requests/s (5,000 waiting phones polling
//!   every 3 s), open loop, latency counted from when each request was due.
//!
//! (a)–(c) each come from 64 concurrent clients (threads, each on its own keep-alive
//! connection) as fast as they can, over a sample of waitlisted players' links (minted with
//! the app's key: 1,000 of the 5,000 waiting players, spread evenly over the ten lists and
//! places 1 to 500). Throughput, p50 / p99 latency, answers other than 200 / 304, the CPU
//! busy and the process's peak resident memory (`VmHWM`) are printed, with PASS/MISS against
//! the targets (≥ 5,000 requests/s, p99 ≤ 10 ms on 2 cores); it never fails on a
//! figure. Diagnostics: the page's database work called directly (link check + room +
//! `services::player_page::view`), without HTTP, on one thread (latency) and on one thread
//! per core (the ceiling it sets); the place in line by `services::floor::place_of` against
//! the same numbers from two `COUNT(*)` queries; `PLAYER_BENCH_SQL=1` also counts the page's
//! statements.
//!
//! The per-address rate limit of the links (`CARDROOM_PLAYER_LINK_RATE`) is raised to its
//! maximum in the bench's configuration: every client comes from 127.0.0.1.
//!
//! Run: `cargo bench --bench player`. Knobs (environment): `PLAYER_BENCH_SECS` (8, per
//! measured phase), `PLAYER_BENCH_WARMUP_SECS` (2), `PLAYER_BENCH_CLIENTS` (64),
//! `PLAYER_BENCH_LINKS` (1000), `PLAYER_BENCH_DIRECT_RUNS` (500), `PLAYER_BENCH_POLL_RATE`
//! (1666 requests/s for (d); 0 leaves it out), `PLAYER_BENCH_SQL=1`,
//! `PLAYER_BENCH_KEEP_DB=1` (keep the SQLite file and print its path).

use cardroom::config::Settings;
use cardroom::domain::ids::EntryId;
use cardroom::domain::ids::GameId;
use cardroom::domain::ids::PlayerId;
use cardroom::domain::ids::TableId;
use cardroom::domain::player::{DocumentKind, Language, NotifyPref, PlayerInput};
use cardroom::error::AppError;
use cardroom::notify::link;
use cardroom::services::{self, games::GameInput, games::TableInput, photo};
use cardroom::web::state::AppState;
use chrono::{Datelike, Duration as Days, NaiveDate};
use std::collections::BTreeMap;

use std::net::SocketAddr;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

const TABLES: usize = 250;
const SEATS: i32 = 10;
const GAMES: usize = 10;
const SEATED: usize = TABLES * SEATS as usize;
const WAITLISTED: usize = 5_000;
const BATCH: usize = 500;
const ADMIN_PASSWORD: &str = ADMIN_PW;

const TARGET_RPS: f64 = 5_000.0;
const TARGET_P99_MS: f64 = 10.0;

#[path = "common/mod.rs"]
mod common;
use common::app::{Backend, TestApp, ADMIN_PW};
use common::*;

/// CPU seconds the whole machine has been busy (every process; /proc/stat, 1/100 s ticks):
/// with [`cpu_s`], how much of the machine other processes took during a phase.
fn machine_busy_s() -> f64 {
    std::fs::read_to_string("/proc/stat")
        .ok()
        .and_then(|s| {
            let v: Vec<f64> = s
                .lines()
                .next()?
                .split_whitespace()
                .skip(1)
                .filter_map(|x| x.parse().ok())
                .collect();
            // user nice system idle iowait irq softirq steal …
            let total: f64 = v.iter().take(8).sum();
            Some((total - v.get(3)? - v.get(4).unwrap_or(&0.0)) / 100.0)
        })
        .unwrap_or(f64::NAN)
}

// ---- the generated room (services directly, one write transaction per batch) ------------

fn player_input(i: usize, today: NaiveDate) -> PlayerInput {
    PlayerInput {
        full_name: format!("Bench Player {i:05}"),
        date_of_birth: NaiveDate::from_ymd_opt(
            today.year() - 25 - (i % 40) as i32,
            (i % 12) as u32 + 1,
            (i % 28) as u32 + 1,
        )
        .unwrap_or(today),
        doc_kind: DocumentKind::NationalId,
        doc_number: format!("PT{:08}", 10_000_000 + i),
        doc_country: "PT".into(),
        doc_expiry: today + Days::days(400 + (i % 1000) as i64),
        phone: Some(format!("+3519{:08}", 10_000_000 + i)),
        email: None,
        language: if i.is_multiple_of(3) {
            Language::En
        } else {
            Language::Pt
        },
        notify: NotifyPref::Sms,
        alias: format!("P{i:05}"),
    }
}

/// Builds the room; returns the waitlisted players' ids in list order (player j of the
/// waiting players is on the list of game j % 10, at place j / 10 + 1).
fn build_room(state: &AppState) -> Result<Vec<PlayerId>, AppError> {
    let now = state.clock.now();
    let mut conn = state.db.conn()?;
    let room = services::room::get(&mut conn)?;
    // The room itself builds the bench's room, now.
    let act = services::Acting::system(now).with_room(room.clone());

    let t = Instant::now();
    let variants = [
        ("holdem_nl", 100, 200, "low", 4_000, 20_000),
        ("holdem_nl", 200, 500, "mid", 10_000, 50_000),
        ("holdem_nl", 500, 1_000, "high", 50_000, 250_000),
        ("holdem_pl", 100, 200, "low", 4_000, 20_000),
        ("holdem_pl", 200, 500, "mid", 10_000, 50_000),
        ("plo", 100, 200, "low", 4_000, 20_000),
        ("plo", 500, 1_000, "high", 50_000, 250_000),
        ("omaha", 100, 200, "low", 4_000, 20_000),
        ("omaha", 200, 500, "mid", 10_000, 50_000),
        ("holdem_nl", 1_000, 2_000, "high", 100_000, 500_000),
    ];
    let (game_ids, tables) = state.db.write(
        &mut conn,
        |c| -> Result<(Vec<GameId>, Vec<TableId>), AppError> {
            let mut game_ids = Vec::new();
            for (i, (variant, sb, bb, class, min, max)) in variants.iter().enumerate().take(GAMES) {
                let g = GameInput {
                    name: format!("Bench {i:02} {variant} {}/{}", sb / 100, bb / 100),
                    variant: (*variant).into(),
                    small_blind: *sb,
                    big_blind: *bb,
                    limit_class: (*class).into(),
                    buy_in_min: *min,
                    buy_in_max: Some(*max),
                    ..GameInput::default()
                };
                game_ids.push(services::games::create_game(c, &act, &g)?.id);
            }
            let mut tables = Vec::new();
            for n in 0..TABLES {
                let input = TableInput {
                    number: n as i32 + 1,
                    seats: Some(SEATS),
                    game_id: Some(game_ids[n % GAMES]),
                    mode: "continuous".into(),
                    active: Some(true),
                };
                let row = services::games::create_table(c, &act, &input)?;
                services::floor::open_table(c, &act, row.id)?;
                tables.push(row.id);
            }
            Ok((game_ids, tables))
        },
    )?;
    let games_s = t.elapsed().as_secs_f64();

    let t = Instant::now();
    let pic = photo::process(&photo::generated_portrait(1))?;
    let today = cardroom::domain::age::room_date(now, room.tz);
    let mut player_ids = Vec::with_capacity(SEATED + WAITLISTED);
    for start in (0..SEATED + WAITLISTED).step_by(BATCH) {
        let end = (start + BATCH).min(SEATED + WAITLISTED);
        let ids = state
            .db
            .write(&mut conn, |c| -> Result<Vec<PlayerId>, AppError> {
                (start..end)
                    .map(|i| {
                        services::players::create(c, &act, &player_input(i, today), Some(&pic))
                            .map(|(row, _)| row.id)
                    })
                    .collect()
            })?;
        player_ids.extend(ids);
    }
    let players_s = t.elapsed().as_secs_f64();

    let t = Instant::now();
    for start in (0..SEATED).step_by(BATCH) {
        let end = (start + BATCH).min(SEATED);
        state.db.write(&mut conn, |c| -> Result<(), AppError> {
            for (i, &pid) in player_ids.iter().enumerate().take(end).skip(start) {
                let (ti, si) = (i / SEATS as usize, i % SEATS as usize);
                services::floor::seat_directly(c, &act, tables[ti], si as i32 + 1, pid)?;
            }
            Ok(())
        })?;
    }
    let seat_s = t.elapsed().as_secs_f64();

    let t = Instant::now();
    for start in (0..WAITLISTED).step_by(BATCH) {
        let end = (start + BATCH).min(WAITLISTED);
        state.db.write(&mut conn, |c| -> Result<(), AppError> {
            for j in start..end {
                services::floor::join(c, &act, game_ids[j % GAMES], player_ids[SEATED + j], false)?;
            }
            Ok(())
        })?;
    }
    let join_s = t.elapsed().as_secs_f64();
    println!(
        "setup: games+tables {games_s:.1} s, {} players with photo {players_s:.1} s, {SEATED} seatings {seat_s:.1} s, {WAITLISTED} list joins {join_s:.1} s",
        SEATED + WAITLISTED
    );
    Ok(player_ids[SEATED..].to_vec())
}

/// Links for `n` waitlisted players spread over every list and place,
/// signed with the app's key for the player's current link version, valid for 3 hours (not
/// the end of the gaming day: a run near the cut-over must not see its links expire).
fn mint_links(
    state: &AppState,
    waiting: &[PlayerId],
    n: usize,
) -> Result<Vec<(PlayerId, String)>, AppError> {
    use cardroom::db::schema::players;
    use diesel::prelude::*;
    let mut conn = state.db.conn()?;
    let now = state.clock.now();
    // Link i: waiting player i·step + (i mod step). With the default step of 5 this visits
    // every list (player j is on list j mod 10) and every place (j / 10 + 1) evenly.
    let step = (waiting.len() / n.max(1)).max(1);
    let mut out = Vec::new();
    for i in 0..n {
        let Some(&pid) = waiting.get(i * step + i % step) else {
            break;
        };
        let ver: i32 = players::table
            .find(pid)
            .select(players::link_token_version)
            .first(&mut conn)?;
        out.push((
            pid,
            link::issue(
                &state.keys,
                pid,
                ver,
                link::Purpose::PlayerPage,
                now,
                now + Days::hours(3),
            ),
        ));
    }
    Ok(out)
}

// ---- the server --------------------------------------------------------------------------

// ---- the load ------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `GET /p/{token}`.
    Page,
    /// `GET /p/{token}/state`.
    State,
    /// `GET /p/{token}/state` with `If-None-Match`.
    NotModified,
}

impl Kind {
    fn label(self) -> &'static str {
        match self {
            Kind::Page => "GET /p/{token} (page)",
            Kind::State => "GET /p/{token}/state",
            Kind::NotModified => "GET /p/{token}/state + If-None-Match (304)",
        }
    }
    fn key(self) -> &'static str {
        match self {
            Kind::Page => "page",
            Kind::State => "state",
            Kind::NotModified => "state_304",
        }
    }
    fn expected(self) -> u16 {
        if self == Kind::NotModified {
            304
        } else {
            200
        }
    }
}

struct Phase {
    kind: Kind,
    /// Requests per second asked for (None: each client as fast as it can).
    pace: Option<f64>,
    lat: Summary,
    wall_s: f64,
    rps: f64,
    /// Answers with the expected status (200, or 304 for the ETag phase).
    expected: usize,
    /// 200 in the ETag phase (the ETag did not match: something changed or it is unstable).
    etag_misses: usize,
    /// Answers other than 200 / 304, by status (429 = the rate limit), and transport errors.
    other: BTreeMap<u16, usize>,
    errors: Vec<String>,
    bytes: usize,
    cores_busy: f64,
    /// Cores other processes kept busy meanwhile (a noisy machine skews every figure).
    others_busy: f64,
    connects: usize,
}

/// `clients` threads in a closed loop, each on its own keep-alive connection, for `secs`
/// (after a common start); client k walks the links k, k + clients, … so that requests
/// spread over every list and place.
fn run_phase(
    addr: SocketAddr,
    links: &Arc<Vec<(String, String)>>,
    kind: Kind,
    clients: usize,
    secs: f64,
    pace: Option<f64>,
) -> Phase {
    let barrier = Arc::new(Barrier::new(clients + 1));
    let handles: Vec<_> = (0..clients)
        .map(|k| {
            let (links, barrier) = (links.clone(), barrier.clone());
            std::thread::spawn(move || {
                let mut c = Client::from_address(addr, k);
                let mut lat = Vec::with_capacity(50_000);
                let (mut expected, mut misses, mut bytes) = (0usize, 0usize, 0usize);
                let mut other: BTreeMap<u16, usize> = BTreeMap::new();
                let mut errors = Vec::new();
                let mut i = k;
                // Open the connection before the clock starts.
                let _ = c.get("/healthz", &[]);
                barrier.wait();
                let start = Instant::now();
                let end = start + Duration::from_secs_f64(secs);
                while Instant::now() < end {
                    let (token, etag) = &links[i % links.len()];
                    // Paced: request i (over all clients) is due at start + i / rate, and its
                    // latency counts from then, so a server falling behind shows in it.
                    let due = pace.map(|rate| start + Duration::from_secs_f64(i as f64 / rate));
                    i += clients;
                    if let Some(due) = due {
                        if due >= end {
                            break;
                        }
                        let now = Instant::now();
                        if due > now {
                            std::thread::sleep(due - now);
                        }
                    }
                    let (path, inm);
                    let headers: &[(&str, &str)] = match kind {
                        Kind::Page => {
                            path = format!("/p/{token}");
                            &[]
                        }
                        Kind::State => {
                            path = format!("/p/{token}/state");
                            &[]
                        }
                        Kind::NotModified => {
                            path = format!("/p/{token}/state");
                            inm = [("If-None-Match", etag.as_str())];
                            &inm
                        }
                    };
                    let t = due.unwrap_or_else(Instant::now);
                    match c.get(&path, headers) {
                        Ok(r) => {
                            lat.push(t.elapsed().as_micros() as u64);
                            bytes = bytes.max(r.body.len());
                            if r.status == kind.expected() {
                                expected += 1;
                            } else if kind == Kind::NotModified && r.status == 200 {
                                misses += 1;
                            } else {
                                *other.entry(r.status).or_default() += 1;
                                if errors.len() < 3 {
                                    errors.push(format!(
                                        "{} {path}: {}",
                                        r.status,
                                        r.text().chars().take(200).collect::<String>()
                                    ));
                                }
                            }
                        }
                        Err(e) => {
                            *other.entry(0).or_default() += 1;
                            if errors.len() < 3 {
                                errors.push(format!("{path}: {e}"));
                            }
                        }
                    }
                }
                (lat, expected, misses, other, errors, bytes, c.connects)
            })
        })
        .collect();
    barrier.wait();
    let (t0, cpu0, all0) = (Instant::now(), cpu_s(), machine_busy_s());
    let mut lat = Vec::new();
    let (mut expected, mut etag_misses, mut bytes, mut connects) = (0, 0, 0, 0);
    let mut other: BTreeMap<u16, usize> = BTreeMap::new();
    let mut errors = Vec::new();
    for h in handles {
        let (l, e, m, o, errs, b, cn) = h.join().expect("client thread");
        lat.extend(l);
        expected += e;
        etag_misses += m;
        for (s, n) in o {
            *other.entry(s).or_default() += n;
        }
        errors.extend(errs);
        bytes = bytes.max(b);
        connects += cn;
    }
    let wall_s = t0.elapsed().as_secs_f64();
    let cores_busy = (cpu_s() - cpu0) / wall_s;
    let others_busy = ((machine_busy_s() - all0) / wall_s - cores_busy).max(0.0);
    let n = lat.len();
    Phase {
        kind,
        pace,
        lat: summarize(lat),
        wall_s,
        rps: n as f64 / wall_s,
        expected,
        etag_misses,
        other,
        errors,
        bytes,
        cores_busy,
        others_busy,
        connects,
    }
}

/// The ETag of each link's state (one request each, not measured).
fn etags(addr: SocketAddr, tokens: &[(PlayerId, String)]) -> Vec<(String, String)> {
    let mut c = Client::new(addr);
    tokens
        .iter()
        .map(|(pid, token)| {
            let r = c
                .get(&format!("/p/{token}/state"), &[])
                .expect("GET /p/{token}/state");
            assert_eq!(
                r.status,
                200,
                "player #{pid}'s state answered {}: {}",
                r.status,
                r.text()
            );
            (
                token.clone(),
                r.header("etag").expect("an ETag").to_string(),
            )
        })
        .collect()
}

/// Diagnostic: the same database work on `threads` threads at once (each with its own pooled
/// connection) for `secs`: pages per second and the CPU it took, i.e. the ceiling the
/// database part alone sets for the HTTP figures.
fn direct_parallel(
    state: &AppState,
    tokens: &Arc<Vec<(PlayerId, String)>>,
    threads: usize,
    secs: f64,
) -> (f64, f64, f64) {
    let day_ends = state.config.room.gaming_day_ends;
    let barrier = Arc::new(Barrier::new(threads + 1));
    let handles: Vec<_> = (0..threads)
        .map(|k| {
            let (state, tokens, barrier) = (state.clone(), tokens.clone(), barrier.clone());
            std::thread::spawn(move || {
                let mut conn = state.db.conn().expect("conn");
                let mut n = 0usize;
                barrier.wait();
                let end = Instant::now() + Duration::from_secs_f64(secs);
                let mut i = k;
                while Instant::now() < end {
                    let (_, token) = &tokens[i % tokens.len()];
                    i += threads;
                    let now = state.clock.now();
                    let claims = link::verify(
                        &mut conn,
                        &state.keys,
                        token,
                        link::Purpose::PlayerPage,
                        now,
                    )
                    .expect("link");
                    let room = services::room::get(&mut conn).expect("room");
                    std::hint::black_box(
                        services::player_page::view(
                            &mut conn,
                            &state.waits,
                            now,
                            &room,
                            PlayerId(claims.sub),
                            day_ends,
                        )
                        .expect("view"),
                    );
                    n += 1;
                }
                n
            })
        })
        .collect();
    barrier.wait();
    let (t0, cpu0, all0) = (Instant::now(), cpu_s(), machine_busy_s());
    let n: usize = handles
        .into_iter()
        .map(|h| h.join().expect("direct thread"))
        .sum();
    let wall = t0.elapsed().as_secs_f64();
    let own = (cpu_s() - cpu0) / wall;
    (
        n as f64 / wall,
        own,
        ((machine_busy_s() - all0) / wall - own).max(0.0),
    )
}

/// Diagnostic: what one page costs the database and the rules, without HTTP or templates:
/// the link check, the room, and `services::player_page::view`, one thread.
fn direct(
    state: &AppState,
    tokens: &[(PlayerId, String)],
    runs: usize,
) -> Result<(Summary, Option<String>), AppError> {
    let mut conn = state.db.conn()?;
    let day_ends = state.config.room.gaming_day_ends;
    let stats = std::env::var_os("PLAYER_BENCH_SQL").map(|_| sql_profile(&mut conn));
    let mut v = Vec::with_capacity(runs);
    for i in 0..runs + 1 {
        let (_, token) = &tokens[i % tokens.len()];
        let now = state.clock.now();
        let t = Instant::now();
        let claims = link::verify(
            &mut conn,
            &state.keys,
            token,
            link::Purpose::PlayerPage,
            now,
        )
        .map_err(|e| AppError::internal(e.to_string()))?;
        let room = services::room::get(&mut conn)?;
        let view = services::player_page::view(
            &mut conn,
            &state.waits,
            now,
            &room,
            PlayerId(claims.sub),
            day_ends,
        )?;
        std::hint::black_box(view);
        if i > 0 {
            v.push(t.elapsed().as_micros() as u64);
        }
    }
    let report = stats.map(|stats| {
        use diesel::connection::Connection;
        conn.set_instrumentation(|_: diesel::connection::InstrumentationEvent<'_>| {});
        let stats = stats.lock().unwrap();
        let mut rows: Vec<_> = stats.iter().collect();
        rows.sort_by_key(|r| std::cmp::Reverse(r.1 .1));
        let per = (runs + 1) as f64;
        let total: u128 = rows.iter().map(|r| r.1 .1).sum();
        let n: u64 = rows.iter().map(|r| r.1 .0).sum();
        let mut s = format!(
            "SQL per page (link check + room + view), over {} pages: {:.1} statements, {:.3} ms\n",
            runs + 1,
            n as f64 / per,
            total as f64 / 1e6 / per
        );
        for (sql, (count, ns, _)) in rows.iter().take(20) {
            s.push_str(&format!(
                "{:>8.1} µs/page {:>5.2}/page  {}\n",
                *ns as f64 / 1e3 / per,
                *count as f64 / per,
                sql.chars().take(160).collect::<String>()
            ));
        }
        s
    });
    Ok((summarize(v), report))
}

/// Diagnostic: the place in line, the way `services::floor::place_of` computes it (every
/// active entry of the game loaded, then `domain::waitlist::positions`), against two
/// `COUNT(*)` queries giving the same numbers (entries ahead in list order, entries on the
/// list; lapsed call-ins left out as `positions` does). Times both on the sampled players
/// and counts disagreements (0 expected). What a fix of `place_of` could save.
fn place_diag(
    state: &AppState,
    players: &[(PlayerId, String)],
) -> Result<(Summary, Summary, usize), AppError> {
    use cardroom::db::schema::waitlist_entries as w;
    use diesel::prelude::*;
    let mut conn = state.db.conn()?;
    let now = state.clock.now();
    let naive = now.naive_utc();
    let (mut full, mut counted, mut differ) = (Vec::new(), Vec::new(), 0);
    for (pid, _) in players {
        let (id, game, key, joined): (EntryId, GameId, i64, chrono::NaiveDateTime) = w::table
            .filter(w::player_id.eq(pid))
            .filter(w::state.eq("waiting").or(w::state.eq("called")))
            .select((w::id, w::game_id, w::order_key, w::joined_at))
            .first(&mut conn)?;
        let t = Instant::now();
        let place = services::floor::place_of(&mut conn, game, id, now)?
            .map(|p| (p.ahead as i64, p.of as i64));
        full.push(t.elapsed().as_micros() as u64);
        let t = Instant::now();
        let live = w::state.eq("waiting").or(w::state.eq("called")).and(
            w::call_in_expires_at
                .is_null()
                .or(w::checked_in_at.is_not_null())
                .or(w::call_in_expires_at.gt(naive)),
        );
        let of: i64 = w::table
            .filter(w::game_id.eq(game))
            .filter(live)
            .count()
            .get_result(&mut conn)?;
        let before = w::order_key.lt(key).or(w::order_key.eq(key).and(
            w::joined_at
                .lt(joined)
                .or(w::joined_at.eq(joined).and(w::id.lt(id))),
        ));
        let ahead: i64 = w::table
            .filter(w::game_id.eq(game))
            .filter(live)
            .filter(before)
            .count()
            .get_result(&mut conn)?;
        counted.push(t.elapsed().as_micros() as u64);
        if place != Some((ahead, of)) {
            differ += 1;
        }
    }
    Ok((summarize(full), summarize(counted), differ))
}

fn main() {
    let t_all = Instant::now();
    let secs = env_or("PLAYER_BENCH_SECS", 8).max(1) as f64;
    let warmup = env_or("PLAYER_BENCH_WARMUP_SECS", 2) as f64;
    let clients = env_or("PLAYER_BENCH_CLIENTS", 64).max(1);
    let n_links = env_or("PLAYER_BENCH_LINKS", 1_000).clamp(1, WAITLISTED);
    let direct_runs = env_or("PLAYER_BENCH_DIRECT_RUNS", 500).max(1);
    // 5,000 waiting phones, one poll every 3 s each.
    let poll_rate = env_or("PLAYER_BENCH_POLL_RATE", WAITLISTED / 3) as f64;
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(0);
    let mb = |kb: u64| kb as f64 / 1024.0;

    let dir = tempfile::tempdir().expect("temp dir");
    let db_path = dir.path().join("bench.db");
    let builder = TestApp::builder()
        .backend(Backend::Url(format!("sqlite://{}", db_path.display())))
        .tune(|c| {
            // The server's own pool (the tests' is smaller) and 2 HTTP workers.
            c.database.pool_size = Settings::default().database.pool_size;
            c.server.workers = Some(2);
            // Every client is 127.0.0.1: the per-address limit (240/min by default) would
            // answer 429 after the first few hundred requests. The maximum the setting allows.
            c.room.player_link_rate = 1_000_000;
        });
    let pool_size = Settings::default().database.pool_size;
    println!(
        "player page benchmark: {TABLES} tables × {SEATS} seats, {GAMES} games, {SEATED} seated, {WAITLISTED} waiting; \
         SQLite (pool {pool_size}), 2 HTTP workers, {clients} clients, {cores} cores"
    );

    let t_setup = Instant::now();
    let app = builder.build();
    let state = app.state.clone();
    app.settings.validate().expect("valid bench configuration");
    let waiting = build_room(&state).expect("generated room");
    let tokens = mint_links(&state, &waiting, n_links).expect("links");
    let setup_s = t_setup.elapsed().as_secs_f64();
    let db_mb = std::fs::metadata(&db_path).map(|m| m.len()).unwrap_or(0) as f64 / 1e6;
    let rss_setup = mb(rss_kb("VmHWM:"));
    println!("setup {setup_s:.1} s (not part of the figures); {} links; database file {db_mb:.0} MB; peak RSS so far {rss_setup:.0} MB", tokens.len());

    let (direct_lat, sql_report) = direct(&state, &tokens, direct_runs).expect("direct page reads");
    let (place_full, place_count, place_differ) =
        place_diag(&state, &tokens).expect("place diagnostic");
    let direct_threads = cores.max(1);
    let shared = Arc::new(tokens.clone());
    let (direct_rate1, direct_busy1, direct_others1) = direct_parallel(&state, &shared, 1, 2.0);
    let (direct_rate, direct_busy, direct_others) =
        direct_parallel(&state, &shared, direct_threads, 2.0);

    let served = app.serve();
    let (addr, handle) = (served.addr, served.handle.clone());
    println!("server on http://{addr}");
    let links = Arc::new(etags(addr, &tokens));
    // Sanity: a page and a 304 for the first link, and what the page shows.
    let mut c = Client::new(addr);
    let page = c
        .get(&format!("/p/{}", links[0].0), &[])
        .expect("GET /p/{token}");
    assert_eq!(page.status, 200, "the first link's page: {}", page.text());
    assert!(
        page.text().contains("data-position=\"1\""),
        "player #{} should be first on their list",
        tokens[0].0
    );
    let r = c
        .get(
            &format!("/p/{}/state", links[0].0),
            &[("If-None-Match", &links[0].1)],
        )
        .expect("304");
    assert_eq!(r.status, 304, "the state with its own ETag");

    if warmup > 0.0 {
        let w = run_phase(addr, &links, Kind::Page, clients, warmup, None);
        println!(
            "warm-up: {} page requests in {:.1} s ({:.0}/s, not measured)",
            w.lat.n, w.wall_s, w.rps
        );
    }
    let mut phases = Vec::new();
    let mut rss_after = Vec::new();
    for kind in [Kind::Page, Kind::State, Kind::NotModified] {
        println!("{}: {clients} clients, {secs:.0} s …", kind.label());
        let p = run_phase(addr, &links, kind, clients, secs, None);
        for e in &p.errors {
            println!("  unexpected answer: {e}");
        }
        rss_after.push(mb(rss_kb("VmHWM:")));
        phases.push(p);
    }
    // The room as it really is: every waiting player's phone polls every 3 s, nearly always
    // a 304. Paced (open loop), so the latency is the one a phone sees at that load.
    if poll_rate > 0.0 {
        println!(
            "{} paced at {poll_rate:.0}/s: {clients} clients, {secs:.0} s …",
            Kind::NotModified.label()
        );
        let p = run_phase(
            addr,
            &links,
            Kind::NotModified,
            clients,
            secs,
            Some(poll_rate),
        );
        for e in &p.errors {
            println!("  unexpected answer: {e}");
        }
        phases.push(p);
    }
    let peak_mb = mb(rss_kb("VmHWM:"));
    let total_s = t_all.elapsed().as_secs_f64();

    let row = |what: &str, value: String, target: &str, result: &str| {
        println!("| {what:<58} | {value:>19} | {target:>8} | {result:<4} |");
    };
    println!();
    println!(
        "| {:<58} | {:>19} | {:>8} | {:<4} |",
        "measure", "value", "target", ""
    );
    println!(
        "|{}|{}|{}|{}|",
        "-".repeat(60),
        "-".repeat(21),
        "-".repeat(10),
        "-".repeat(6)
    );
    for p in &phases {
        let others: usize = p.other.values().sum();
        match p.pace {
            None => row(
                &format!("{}: requests/s", p.kind.label()),
                format!("{:.0}", p.rps),
                "≥ 5000",
                verdict(p.rps >= TARGET_RPS),
            ),
            Some(rate) => row(
                &format!("paced 304 polls, {rate:.0}/s asked: requests/s"),
                format!("{:.0}", p.rps),
                "",
                "",
            ),
        }
        row(
            "  p50 / p90 (ms)",
            format!("{:.2} / {:.2}", p.lat.p50, p.lat.p90),
            "",
            "",
        );
        row(
            "  p99 (ms)",
            format!("{:.2}", p.lat.p99),
            "≤ 10",
            verdict(p.lat.p99 <= TARGET_P99_MS),
        );
        row(
            "  max / mean (ms)",
            format!("{:.2} / {:.2}", p.lat.max, p.lat.mean),
            "",
            "",
        );
        row(
            &format!(
                "  answered {} / other than 200-304 / ETag misses",
                p.kind.expected()
            ),
            format!("{} / {} / {}", p.expected, others, p.etag_misses),
            "0 other",
            verdict(others == 0),
        );
        if !p.other.is_empty() {
            row(
                "    other answers by status (0 = transport error)",
                format!("{:?}", p.other),
                "",
                "",
            );
        }
        row(
            "  body (bytes) / connections opened",
            format!("{} / {}", p.bytes, p.connects),
            "",
            "",
        );
        row(
            "  CPU busy: this process / other processes (cores)",
            format!("{:.2} / {:.2} of {cores}", p.cores_busy, p.others_busy),
            "",
            "",
        );
    }
    row(
        &format!(
            "direct: link check + room + view(), 1 thread, n={}",
            direct_lat.n
        ),
        format!("{:.2} / {:.2}", direct_lat.p50, direct_lat.p99),
        "",
        "",
    );
    row(
        "  (p50 / p99 ms; no HTTP, no template)",
        String::new(),
        "",
        "",
    );
    row(
        &format!(
            "  of which floor::place_of() p50 / p99 (ms), n={}",
            place_full.n
        ),
        format!("{:.3} / {:.3}", place_full.p50, place_full.p99),
        "",
        "",
    );
    row(
        "  same place by 2 COUNT(*) queries p50 / p99 (ms)",
        format!("{:.3} / {:.3}", place_count.p50, place_count.p99),
        "",
        "",
    );
    row(
        "  places that differ between the two",
        place_differ.to_string(),
        "0",
        verdict(place_differ == 0),
    );
    row(
        "direct, 1 thread, 2 s: pages/s (CPU: this / others)",
        format!("{direct_rate1:.0} ({direct_busy1:.2} / {direct_others1:.2})"),
        "",
        "",
    );
    row(
        &format!("direct, {direct_threads} threads, 2 s: pages/s (CPU: this / others)"),
        format!("{direct_rate:.0} ({direct_busy:.2} / {direct_others:.2})"),
        "",
        "",
    );
    row("peak RSS, VmHWM (MB)", format!("{peak_mb:.0}"), "", "");
    row(
        "  after setup / page / state / 304 (MB)",
        format!(
            "{rss_setup:.0} / {:.0} / {:.0} / {:.0}",
            rss_after[0], rss_after[1], rss_after[2]
        ),
        "",
        "",
    );
    row(
        "setup (s, not part of the figures)",
        format!("{setup_s:.1}"),
        "",
        "",
    );
    row("whole run (s)", format!("{total_s:.1}"), "", "");
    println!();
    if let Some(r) = sql_report {
        println!("{r}");
    }
    let kv = |k: &str, v: String| println!("player.{k}={v}");
    kv("room.waitlisted", WAITLISTED.to_string());
    kv("links", tokens.len().to_string());
    kv("clients", clients.to_string());
    for p in &phases {
        let k = if p.pace.is_some() {
            "poll_paced"
        } else {
            p.kind.key()
        };
        kv(&format!("{k}.requests"), p.lat.n.to_string());
        kv(&format!("{k}.throughput_per_s"), format!("{:.1}", p.rps));
        kv(&format!("{k}.p50_ms"), format!("{:.3}", p.lat.p50));
        kv(&format!("{k}.p90_ms"), format!("{:.3}", p.lat.p90));
        kv(&format!("{k}.p99_ms"), format!("{:.3}", p.lat.p99));
        kv(&format!("{k}.max_ms"), format!("{:.3}", p.lat.max));
        kv(&format!("{k}.mean_ms"), format!("{:.3}", p.lat.mean));
        kv(
            &format!("{k}.other_answers"),
            p.other.values().sum::<usize>().to_string(),
        );
        kv(&format!("{k}.etag_misses"), p.etag_misses.to_string());
        kv(&format!("{k}.bytes"), p.bytes.to_string());
        kv(&format!("{k}.cores_busy"), format!("{:.2}", p.cores_busy));
        kv(&format!("{k}.others_busy"), format!("{:.2}", p.others_busy));
        // Paced: the rate is ours, only the latency is judged.
        let ok = (p.pace.is_some() || p.rps >= TARGET_RPS) && p.lat.p99 <= TARGET_P99_MS;
        kv(&format!("{k}.verdict"), verdict(ok).to_string());
    }
    kv("direct.p50_ms", format!("{:.3}", direct_lat.p50));
    kv("direct.p99_ms", format!("{:.3}", direct_lat.p99));
    kv("place_of.p50_ms", format!("{:.3}", place_full.p50));
    kv("place_of.p99_ms", format!("{:.3}", place_full.p99));
    kv("place_by_count.p50_ms", format!("{:.3}", place_count.p50));
    kv("place_by_count.p99_ms", format!("{:.3}", place_count.p99));
    kv("place_by_count.differ", place_differ.to_string());
    kv("direct_1_thread.pages_per_s", format!("{direct_rate1:.1}"));
    kv("direct_parallel.threads", direct_threads.to_string());
    kv("direct_parallel.pages_per_s", format!("{direct_rate:.1}"));
    kv("direct_parallel.cores_busy", format!("{direct_busy:.2}"));
    kv("peak_rss_mb", format!("{peak_mb:.1}"));
    kv("setup_s", format!("{setup_s:.1}"));
    kv("total_s", format!("{total_s:.1}"));

    // Stop the server; the temporary database goes with `dir` (unless kept).
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(handle.stop(false));
    drop(state);
    drop(served);
    if std::env::var_os("PLAYER_BENCH_KEEP_DB").is_some() {
        println!("database kept at {}", dir.keep().join("bench.db").display());
    }
}
