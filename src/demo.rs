//! The demo room, loaded with `--demo` into a database that has no games yet: a few games,
//! eight tables, staff accounts for every role and 36 registered players, 35 with a photo (one
//! incomplete, without a photo; one whose ID expires soon, one banned, one pair kept apart). Everything goes
//! through the same services as real use, so the audit trail shows it.

mod evenings;

use crate::db::audit::Actor;
use crate::domain::age::room_date;
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::TableId;
use crate::domain::player::{DocumentKind, Language, NotifyPref, PlayerInput};
use crate::error::AppError;
use crate::services::Act;
use crate::services::Acting;
use crate::services::{
    self, games::GameInput, games::TableInput, photo, players::BanForm, players::SeparationForm,
    staff::StaffInput,
};
use crate::web::state::AppState;
use chrono::{Datelike, Duration, NaiveDate};
use evenings::past_evenings;

/// Password of the demo staff accounts.
pub const DEMO_PASSWORD: &str = "demo-password";

pub const BANNER: &str = "\n  Demo room loaded. Staff accounts (password `demo-password`):\n      floor    — floor manager\n      dealer1  — dealer\n      dealer2  — dealer\n      dealer3  — dealer\n      dealer4  — dealer\n      cashier  — cashier\n  The `admin` account uses CARDROOM_ADMIN_PASSWORD (or the one-time password printed above).\n";

const FIRST: &[&str] = &[
    "Ana",
    "João",
    "Maria",
    "Pedro",
    "Beatriz",
    "Tiago",
    "Inês",
    "Rui",
    "Carla",
    "Miguel",
    "Sofia",
    "Luís",
    "Mariana",
    "Ricardo",
    "Helena",
    "Bruno",
    "Leong",
    "Chan",
    "Wong",
    "Lúcia",
    "Fernando",
    "Camila",
    "Rafael",
    "Joana",
    "Gustavo",
    "Larissa",
    "Diogo",
    "Patrícia",
    "Vítor",
    "Daniela",
    "André",
    "Renata",
    "Paulo",
    "Teresa",
    "Marco",
    "Sílvia",
];
const LAST: &[&str] = &[
    "Silva",
    "Santos",
    "Ferreira",
    "Pereira",
    "Oliveira",
    "Costa",
    "Rodrigues",
    "Martins",
    "Jesus",
    "Sousa",
    "Fernandes",
    "Gonçalves",
    "Kuok",
    "Lei",
    "Ho",
    "Almeida",
    "Ribeiro",
    "Carvalho",
];

fn game(
    name: &str,
    variant: &str,
    sb: i64,
    bb: i64,
    class: &str,
    min: i64,
    max: Option<i64>,
) -> GameInput {
    GameInput {
        name: name.into(),
        variant: variant.into(),
        small_blind: sb,
        big_blind: bb,
        limit_class: class.into(),
        buy_in_min: min,
        buy_in_max: max,
        ..GameInput::default()
    }
}

/// The demo's action by `who` at `when` (the clock set back for the past evenings).
fn act_at(room: &services::room::Room, when: chrono::DateTime<chrono::Utc>, who: &Actor) -> Act {
    Acting::new(when, who.clone()).with_room(room.clone())
}

/// Loads the demo room. Returns false (and changes nothing) when games already exist.
pub fn load(state: &AppState) -> Result<bool, AppError> {
    let mut conn = state.db.conn()?;
    let now = state.clock.now();
    state.db.write(&mut conn, |c| {
        if !services::games::list_games(c)?.is_empty() {
            return Ok(false);
        }
        let system = Actor::system();
        let room = name_the_room(c, now, &system)?;
        let game_ids = create_games(c, &act_at(&room, now, &system))?;
        create_tables(c, &act_at(&room, now, &system), &game_ids)?;
        let staff = create_staff(c, now, &system)?;
        let player_ids = register_players(c, now, &room, &system)?;
        let table_id = table_ids(c)?;
        // Three past evenings at tables 1 and 3, so the reports have something to show.
        let regulars = regulars(&player_ids);
        let history = [
            (table_id(1), game_ids[0], &regulars[..8]),
            (table_id(3), game_ids[1], &regulars[8..16]),
        ];
        let dealers = [[&staff[1], &staff[2]], [&staff[4], &staff[5]]];
        past_evenings(c, now, &room, &staff[0], &dealers, &history)?;
        open_live_floor(
            c,
            &act_at(&room, now, &system),
            &table_id,
            &game_ids,
            &regulars,
        )?;
        ban_and_separate(c, &act_at(&room, now, &system), &player_ids)?;
        Ok(true)
    })
}

/// The room gets the demo's name (its zone, currency and rules stay).
fn name_the_room(
    c: &mut crate::db::DbConn,
    now: chrono::DateTime<chrono::Utc>,
    system: &Actor,
) -> Result<services::room::Room, AppError> {
    let room = services::room::get(c)?;
    let update = services::room::RoomUpdate {
        name: "Sala de Póquer Demo".into(),
        timezone: room.timezone.clone(),
        currency: room.currency.clone(),
        default_language: Language::Pt,
        profile: room.profile.clone(),
        theme: None,
        call_alert: None,
        tap_late_max_s: None,
    };
    services::room::update(c, &act_at(&room, now, system), &update)
}

/// The demo's games, in this order: the ids the tables and lists refer to by index.
fn create_games(c: &mut crate::db::DbConn, act: &Act) -> Result<Vec<GameId>, AppError> {
    let games = [
        game(
            "NL Hold'em 1/2",
            "holdem_nl",
            100,
            200,
            "low",
            4_000,
            Some(20_000),
        ),
        game(
            "NL Hold'em 2/5",
            "holdem_nl",
            200,
            500,
            "mid",
            10_000,
            Some(50_000),
        ),
        game("PLO 5/10", "plo", 500, 1_000, "high", 50_000, Some(250_000)),
        game(
            "Short Deck 2/5",
            "short_deck_holdem",
            200,
            500,
            "mid",
            10_000,
            Some(50_000),
        ),
        game(
            "Sintético 1/2",
            "synthetic",
            100,
            200,
            "low",
            4_000,
            Some(20_000),
        ),
    ];
    let mut ids = Vec::new();
    for g in &games {
        ids.push(services::games::create_game(c, act, g)?.id);
    }
    Ok(ids)
}

/// Eight tables: number, game (index into the games), mode. Table 8 has no game.
const TABLES: [(i32, Option<usize>, &str); 8] = [
    (1, Some(0), "continuous"),
    (2, Some(0), "continuous"),
    (3, Some(1), "continuous"),
    (4, Some(1), "session"),
    (5, Some(2), "continuous"),
    (6, Some(3), "continuous"),
    (7, Some(4), "session"),
    (8, None, "continuous"),
];

fn create_tables(
    c: &mut crate::db::DbConn,
    act: &Act,
    game_ids: &[GameId],
) -> Result<(), AppError> {
    for (number, g, mode) in TABLES {
        let t = TableInput {
            number,
            seats: None,
            game_id: g.map(|i| game_ids[i]),
            mode: mode.into(),
            active: Some(true),
        };
        services::games::create_table(c, act, &t)?;
    }
    Ok(())
}

/// One account for every role: the floor, two dealers, the cashier and two more dealers, in
/// this order (each table of the past evenings has its own two dealers).
fn create_staff(
    c: &mut crate::db::DbConn,
    now: chrono::DateTime<chrono::Utc>,
    system: &Actor,
) -> Result<Vec<Actor>, AppError> {
    let mut staff = Vec::new();
    for (username, name, role) in [
        ("floor", "Marta Floor", "floor"),
        ("dealer1", "Carlos Dealer", "dealer"),
        ("dealer2", "Wong Dealer", "dealer"),
        ("cashier", "Rita Caixa", "cashier"),
        ("dealer3", "Ana Croupier", "dealer"),
        ("dealer4", "Li Dealer", "dealer"),
    ] {
        let s = StaffInput {
            username: Some(username.into()),
            display_name: name.into(),
            role: role.into(),
            password: Some(DEMO_PASSWORD.into()),
            active: Some(true),
        };
        staff.push(services::staff::actor(&services::staff::create(
            c, now, system, &s,
        )?));
    }
    Ok(staff)
}

/// The 36 players registered, in order. Player 7 registered without a photo: saved as
/// incomplete.
fn register_players(
    c: &mut crate::db::DbConn,
    now: chrono::DateTime<chrono::Utc>,
    room: &services::room::Room,
    system: &Actor,
) -> Result<Vec<PlayerId>, AppError> {
    let today = room_date(now, room.tz);
    let mut player_ids = Vec::new();
    for i in 0..36usize {
        let pic = if i == 7 {
            None
        } else {
            Some(photo::process(&photo::generated_portrait(i as u64 + 1))?)
        };
        let (row, _) = services::players::create(
            c,
            &act_at(room, now, system),
            &demo_player(i, today),
            pic.as_ref(),
        )?;
        player_ids.push(row.id);
    }
    Ok(player_ids)
}

/// The `i`th demo player, as the desk would type them. Player 5's ID expires in 10 days.
fn demo_player(i: usize, today: NaiveDate) -> PlayerInput {
    let first = FIRST[i % FIRST.len()];
    let last = LAST[(i * 7) % LAST.len()];
    let year = today.year() - 21 - (i as i32 * 37 % 45);
    let dob = NaiveDate::from_ymd_opt(year, (i % 12) as u32 + 1, (i * 3 % 28) as u32 + 1)
        .unwrap_or(today);
    let (kind, country) = match i % 4 {
        0 => (DocumentKind::NationalId, "PT"),
        1 => (DocumentKind::Passport, "BR"),
        2 => (DocumentKind::NationalId, "MO"),
        _ => (DocumentKind::DrivingLicence, "PT"),
    };
    let expiry = if i == 5 {
        today + Duration::days(10)
    } else {
        today + Duration::days(400 + i as i64 * 30)
    };
    PlayerInput {
        full_name: format!("{first} {last}"),
        date_of_birth: dob,
        doc_kind: kind,
        doc_number: format!("{}{:07}", country, 1_000_123 + i * 7919),
        doc_country: country.into(),
        doc_expiry: expiry,
        phone: Some(format!("+3519{:08}", 10_000_000 + i * 104_729)),
        email: Some(format!(
            "{}.{}@example.com",
            crate::services::players::fold(first),
            i
        )),
        language: if i.is_multiple_of(3) {
            Language::En
        } else {
            Language::Pt
        },
        notify: if i.is_multiple_of(2) {
            NotifyPref::Sms
        } else {
            NotifyPref::Both
        },
        alias: format!("{}{}", first.chars().take(8).collect::<String>(), i),
    }
}

/// The id of each table by its number (0: no such table).
fn table_ids(c: &mut crate::db::DbConn) -> Result<impl Fn(i32) -> TableId, AppError> {
    let tables = services::games::list_tables(c)?;
    Ok(move |n: i32| {
        tables
            .iter()
            .find(|(t, _)| t.number == n)
            .map(|(t, _)| t.id)
            .unwrap_or_default()
    })
}

/// The players who play, in order: all but player 7 (no photo) and player 11 (banned).
fn regulars(player_ids: &[PlayerId]) -> Vec<PlayerId> {
    player_ids
        .iter()
        .copied()
        .filter(|id| *id != player_ids[7] && *id != player_ids[11])
        .collect()
}

/// A live floor: tables 1, 3 and 5 running, table 2 open and filling, lists waiting.
fn open_live_floor(
    c: &mut crate::db::DbConn,
    act: &Act,
    table_id: &impl Fn(i32) -> TableId,
    game_ids: &[GameId],
    regulars: &[PlayerId],
) -> Result<(), AppError> {
    let mut next = regulars.iter().copied();
    for (number, seated) in [(1, 9), (3, 6), (5, 5), (2, 3)] {
        let tid = table_id(number);
        services::floor::open_table(c, act, tid)?;
        for seat in 1..=seated {
            if let Some(pid) = next.next() {
                services::floor::seat_directly(c, act, tid, seat, pid)?;
            }
        }
    }
    for (game_index, count) in [(0usize, 4), (1, 2), (2, 1)] {
        for _ in 0..count {
            if let Some(pid) = next.next() {
                services::floor::join(c, act, game_ids[game_index], pid, false)?;
            }
        }
    }
    Ok(())
}

/// One player banned, one pair kept apart.
fn ban_and_separate(
    c: &mut crate::db::DbConn,
    act: &Act,
    player_ids: &[PlayerId],
) -> Result<(), AppError> {
    let ban = BanForm {
        reason: Some("Comportamento abusivo (BSOP 10)".into()),
        starts_at: None,
        ends_at: None,
    };
    services::players::ban(c, act, player_ids[11], &ban)?;
    let sep = SeparationForm {
        other_player_id: Some(player_ids[3]),
        reason: Some("Pedido da direção (BSOP 47)".into()),
    };
    services::players::separate(c, act, player_ids[2], &sep)?;
    Ok(())
}
