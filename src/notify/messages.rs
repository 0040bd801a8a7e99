//! The messages players get, how they are put in the outbox (in the caller's transaction)
//! and how they are written (catalogs `notify.ftl`, the player's language).
//!
//! What a message says is fixed when it is enqueued: the numbers and times it needs are
//! computed in the action's transaction and stored as [`Params`]. The text is written from
//! them at the first delivery attempt and stored with the message, so every retry sends
//! exactly the same words and the same link (the link token is deterministic: issued at the
//! message's creation time, expiring at the end of that gaming day, with the player's link
//! version as it was when the message was made).

use super::link;
use crate::auth::Keys;
use crate::db::models::Channel;
use crate::db::models::OutboxStatus;
use crate::db::models::{OutboxRow, PlayerRow};
use crate::db::schema::{notify_marks, outbox, players};
use crate::db::{next_seq, DbConn};
use crate::domain::ids::PlayerId;
use crate::domain::player::{Language, NotifyPref};
use crate::error::AppResult;
use crate::i18n::I18n;
use chrono::{DateTime, NaiveTime, Utc};
use chrono_tz::Tz;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

crate::domain::enums::string_enum! {
    /// What a message is about.
    Kind {
        /// Added to a waiting list, with the player's link (BSOP 43: the room tells the
        /// player, who no longer has to stand by the desk).
        Added = "added",
        /// First in line for the next free seat (once per list entry).
        Next = "next",
        /// Second or third in line (once per list entry, and not after "next").
        NearlyNext = "nearly_next",
        /// A seat is reserved for the player: table, seat, game, respond by HH:MM.
        SeatReady = "seat_ready",
        /// The response window ran out (PT-2007 12: the seat goes to the next player).
        CallExpired = "call_expired",
        /// Taken off a list (by the floor, or a call-in that was not checked in).
        Removed = "removed",
        /// BSOP 55, 57: the must-move player's turn to move to a main game.
        MustMove = "must_move",
        /// BSOP 36: the player's chips were removed into custody.
        Custody = "custody",
        /// The floor sends the player's link again (a new phone, a lost message).
        Link = "link",
        /// The one-time code that proves a phone joining the lists from itself.
        JoinCode = "join_code",
    }
}

/// "Nearly next": the players in these places of a list (2nd and 3rd) are told once.
pub const NEARLY_NEXT_UP_TO: usize = 3;

/// Everything a message says, computed when it is enqueued.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Params {
    /// The room's name and time zone (times are shown in the room's zone, HH:MM).
    pub room: String,
    pub tz: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub respond_by: Option<DateTime<Utc>>,
    /// Money in minor units, with the room's currency.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage: Option<String>,
    /// Call expired: back at the bottom of the list (true) or taken off it (false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub back_on_list: Option<bool>,
    /// The player's `link_token_version` when the message was made.
    #[serde(default)]
    pub link_version: i32,
    /// A join code (kept with its message until sent, as every message's text is;
    /// the code request itself keeps only its HMAC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}

/// The channels a player is reached by: their preference, and only where they gave that
/// contact (`domain::player::NotifyPref`).
pub fn channels(p: &PlayerRow) -> Vec<(Channel, String)> {
    let pref: NotifyPref = p.notify.parse().unwrap_or(NotifyPref::None);
    let phone = p.phone.as_deref().map(str::trim).filter(|s| !s.is_empty());
    let email = p.email.as_deref().map(str::trim).filter(|s| !s.is_empty());
    let mut v = Vec::new();
    if matches!(pref, NotifyPref::Sms | NotifyPref::Both) {
        if let Some(ph) = phone {
            v.push((Channel::Sms, ph.to_string()));
        }
    }
    if matches!(pref, NotifyPref::Email | NotifyPref::Both) {
        if let Some(e) = email {
            v.push((Channel::Email, e.to_string()));
        }
    }
    v
}

/// Puts one message per channel of the player in the outbox, in the caller's transaction
/// (so it exists exactly when the action that causes it is committed). Returns the ids of the
/// messages (none when the player is not reached by any channel).
pub fn enqueue(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    player: &PlayerRow,
    kind: Kind,
    params: &Params,
) -> AppResult<Vec<i64>> {
    let mut ids = Vec::new();
    let json = serde_json::to_string(params).unwrap_or_default();
    for (channel, recipient) in channels(player) {
        let id = next_seq(conn, "outbox")?;
        let row = OutboxRow {
            id,
            player_id: Some(player.id),
            kind: kind.to_string(),
            channel,
            recipient,
            language: player.language.clone(),
            params: json.clone(),
            subject: None,
            body: None,
            // Unique across databases too (ids restart in a new database; the provider may
            // remember keys for a while).
            idem_key: format!("cr{id}-{}", crate::auth::random_token(9)),
            status: OutboxStatus::Pending,
            attempts: 0,
            next_attempt_at: now.naive_utc(),
            lease_until: None,
            claimed_by: None,
            last_error: None,
            provider_ref: None,
            created_at: now.naive_utc(),
            sent_at: None,
            failed_at: None,
        };
        // PostgreSQL, inside a write: kept for the write's one tail statement (`db::tail`).
        if let Some(row) = crate::db::tail::push_outbox(conn, row) {
            crate::native!(conn, |c| diesel::insert_into(outbox::table)
                .values(&row)
                .execute(c))?;
        }
        ids.push(id);
    }
    Ok(ids)
}

/// Puts one message to a recipient who may not be a registered player (a join code
/// to the phone being proved) in the outbox, in the caller's transaction. No player: the
/// message carries no link.
pub fn enqueue_to(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    channel: Channel,
    recipient: &str,
    language: Language,
    kind: Kind,
    params: &Params,
) -> AppResult<i64> {
    let id = next_seq(conn, "outbox")?;
    let row = OutboxRow {
        id,
        player_id: None,
        kind: kind.to_string(),
        channel,
        recipient: recipient.into(),
        language: language.to_string(),
        params: serde_json::to_string(params).unwrap_or_default(),
        subject: None,
        body: None,
        idem_key: format!("cr{id}-{}", crate::auth::random_token(9)),
        status: OutboxStatus::Pending,
        attempts: 0,
        next_attempt_at: now.naive_utc(),
        lease_until: None,
        claimed_by: None,
        last_error: None,
        provider_ref: None,
        created_at: now.naive_utc(),
        sent_at: None,
        failed_at: None,
    };
    if let Some(row) = crate::db::tail::push_outbox(conn, row) {
        crate::native!(conn, |c| diesel::insert_into(outbox::table)
            .values(&row)
            .execute(c))?;
    }
    Ok(id)
}

/// Tells a player something: loads the player (nothing is done, nothing read further, for
/// a player reached by no channel), fills in the room's name and zone and the player's link
/// version, lets `fill` add the rest, and enqueues it.
pub fn tell(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    player_id: PlayerId,
    kind: Kind,
    fill: impl FnOnce(&mut DbConn, &mut Params) -> AppResult<()>,
) -> AppResult<Vec<i64>> {
    use crate::db::schema::room;
    // The player and the room's name, zone and currency in one statement (a call
    // tells up to three players; a round trip each counts on PostgreSQL).
    let (p, (name, tz, currency)): (PlayerRow, (String, String, String)) =
        crate::native!(conn, |c| players::table
            .inner_join(room::table.on(room::id.eq(1i64)))
            .filter(players::id.eq(player_id))
            .select((
                PlayerRow::as_select(),
                (room::name, room::timezone, room::currency)
            ))
            .first(c))?;
    let room = RoomFacts { name, tz, currency };
    tell_player(conn, now, &p, &room, kind, fill)
}

/// What a message says of the room: its name, time zone and currency.
#[derive(Debug, Clone)]
pub struct RoomFacts {
    pub name: String,
    pub tz: String,
    pub currency: String,
}

/// [`tell`] for a player and a room the caller read in this transaction (a call
/// already read the player it calls, and the write the room): nothing read again.
pub fn tell_player(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    p: &PlayerRow,
    room: &RoomFacts,
    kind: Kind,
    fill: impl FnOnce(&mut DbConn, &mut Params) -> AppResult<()>,
) -> AppResult<Vec<i64>> {
    if channels(p).is_empty() {
        return Ok(Vec::new());
    }
    let mut params = Params {
        room: room.name.clone(),
        tz: room.tz.clone(),
        link_version: p.link_token_version,
        ..Params::default()
    };
    if kind == Kind::Custody {
        params.currency = Some(room.currency.clone());
    }
    fill(conn, &mut params)?;
    enqueue(conn, now, p, kind, &params)
}

/// A statement's rows or ids three at a time, the missing ones repeating the first: a
/// statement with a fixed number of parameters stays prepared, where one whose number varies
/// (an `IN` list, a multi-row insert) is prepared afresh on every run (SQLite: 48 µs against
/// 7 µs). The repeats must change nothing (an id asked twice, a row the primary key
/// drops).
pub fn in_threes<T: Copy>(items: &[T]) -> impl Iterator<Item = [T; 3]> + '_ {
    items.chunks(3).map(|c| {
        let at = |i: usize| c.get(i).copied().unwrap_or(c[0]);
        [at(0), at(1), at(2)]
    })
}

/// Records that list entries were told a kind (once per entry and kind: the primary key
/// settles it, a mark already there is kept), all in one statement (the head of a list
/// moving on marks up to two).
pub fn mark_all(conn: &mut DbConn, now: DateTime<Utc>, marks: &[(i64, Kind)]) -> AppResult<()> {
    // Three rows a statement ([`in_threes`]; the primary key drops the repeats).
    for three in in_threes(marks) {
        let rows = three.map(|(entry_id, kind)| {
            (
                notify_marks::entry_id.eq(entry_id),
                notify_marks::kind.eq(kind.as_str()),
                notify_marks::at.eq(now.naive_utc()),
            )
        });
        crate::native!(conn, |dbc| diesel::insert_into(notify_marks::table)
            .values(&rows)
            .on_conflict_do_nothing()
            .execute(dbc))?;
    }
    Ok(())
}

/// Which entries were already told which kinds (for a few entries at once: up to
/// [`NEARLY_NEXT_UP_TO`], the head of a list). One statement with a fixed number of
/// parameters (missing ids repeat the first), so it stays prepared: it runs on every seat
/// call from a list.
pub fn marks_of(conn: &mut DbConn, entry_ids: &[i64]) -> AppResult<Vec<(i64, String)>> {
    let mut out = Vec::new();
    for [a, b, c] in in_threes(entry_ids) {
        let rows: Vec<(i64, String)> = crate::native!(conn, |dbc| notify_marks::table
            .filter(
                notify_marks::entry_id
                    .eq(a)
                    .or(notify_marks::entry_id.eq(b))
                    .or(notify_marks::entry_id.eq(c))
            )
            .select((notify_marks::entry_id, notify_marks::kind))
            .load(dbc))?;
        out.extend(rows);
    }
    Ok(out)
}

/// Where links point and when they expire: from the configuration.
#[derive(Debug, Clone)]
pub struct LinkSettings {
    pub public_base: String,
    pub day_ends: NaiveTime,
}

/// A message as written for its channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// E-mail only.
    pub subject: Option<String>,
    pub body: String,
}

/// The link in a message: issued at the message's creation, expiring at the end of that
/// gaming day (so a re-sent message carries the same link).
pub fn message_link(
    keys: &Keys,
    links: &LinkSettings,
    m: &OutboxRow,
    params: &Params,
) -> Option<String> {
    let player_id = m.player_id?;
    let tz: Tz = params.tz.parse().unwrap_or(chrono_tz::UTC);
    let created = m.created_at.and_utc();
    let exp = link::gaming_day_end(created, tz, links.day_ends);
    let token = link::issue(
        keys,
        player_id,
        params.link_version,
        link::Purpose::PlayerPage,
        created,
        exp,
    );
    Some(link::url(&links.public_base, &token))
}

/// Writes a message in the player's language: the short text (the SMS, also the e-mail's
/// first paragraph), and for e-mail a subject and the player's link.
pub fn write(
    i18n: &I18n,
    keys: &Keys,
    links: &LinkSettings,
    m: &OutboxRow,
) -> Result<Written, String> {
    let kind: Kind = m
        .kind
        .parse()
        .map_err(|_| format!("unknown message kind {:?}", m.kind))?;
    let params: Params =
        serde_json::from_str(&m.params).map_err(|e| format!("message parameters: {e}"))?;
    let lang: Language = m.language.parse().unwrap_or(Language::Pt);
    let email = m.channel == Channel::Email;
    // A text message carries the short address of this message (it leads to the same link);
    // an e-mail the link itself.
    let link = if email {
        message_link(keys, links, m, &params)
    } else {
        m.player_id
            .map(|_| link::short_url(&links.public_base, keys, m.id))
    };
    Ok(write_with(
        i18n,
        lang,
        kind,
        &params,
        email,
        link.as_deref(),
    ))
}

/// [`write`] from its parts (pure: the unit tests call it).
pub fn write_with(
    i18n: &I18n,
    lang: Language,
    kind: Kind,
    p: &Params,
    email: bool,
    link: Option<&str>,
) -> Written {
    let tz: Tz = p.tz.parse().unwrap_or(chrono_tz::UTC);
    let mut args: Vec<(&str, String)> = vec![("room", p.room.clone())];
    if let Some(g) = &p.game {
        args.push(("game", g.clone()));
    }
    if let Some(n) = p.position {
        args.push(("position", n.to_string()));
    }
    if let Some(n) = p.table {
        args.push(("table", n.to_string()));
    }
    if let Some(n) = p.seat {
        args.push(("seat", n.to_string()));
    }
    if let Some(t) = p.respond_by {
        // HH:MM in the room's zone.
        args.push(("time", t.with_timezone(&tz).format("%H:%M").to_string()));
    }
    if let (Some(a), Some(c)) = (p.amount, &p.currency) {
        args.push(("amount", crate::i18n::money(a, c)));
    }
    if let Some(s) = &p.storage {
        args.push(("storage", s.clone()));
    }
    if let Some(code) = &p.code {
        args.push(("code", code.clone()));
        args.push((
            "minutes",
            crate::domain::remote_join::CODE_TTL_MIN.to_string(),
        ));
    }
    args.push((
        "outcome",
        if p.back_on_list.unwrap_or(false) {
            "bottom"
        } else {
            "removed"
        }
        .to_string(),
    ));
    // (A message without a player has no link; the words around it stay readable.)
    args.push(("link", link.unwrap_or_default().to_string()));
    let key = kind.as_str().replace('_', "-");
    let text = i18n.msg(lang, &format!("notify-{key}-sms"), &args);
    if !email {
        return Written {
            subject: None,
            body: text,
        };
    }
    let subject = i18n.msg(lang, &format!("notify-{key}-subject"), &args);
    let mut body = text;
    // The link once: messages whose text already carries it ("added", "link") get no second copy.
    if let Some(l) = link.filter(|l| !body.contains(l)) {
        body.push_str("\n\n");
        body.push_str(&i18n.msg(lang, "notify-email-link", &[("link", l.to_string())]));
    }
    body.push_str("\n\n");
    body.push_str(&i18n.msg(lang, "notify-email-footer", &[("room", p.room.clone())]));
    Written {
        subject: Some(subject),
        body,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notify::policy::sms_segments;

    fn t(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    fn params() -> Params {
        Params {
            room: "Casino Lisboa".into(),
            tz: "Europe/Lisbon".into(),
            game: Some("NL 1/2".into()),
            position: Some(3),
            table: Some(12),
            seat: Some(4),
            // 21:45 UTC in November is 21:45 in Lisbon.
            respond_by: Some(t("2026-11-22T21:45:00Z")),
            amount: Some(15_050),
            currency: Some("EUR".into()),
            storage: Some("cofre 2".into()),
            back_on_list: Some(true),
            link_version: 0,
            code: Some("042917".into()),
        }
    }

    #[test]
    fn seat_ready_names_table_seat_game_and_the_local_time() {
        let i = I18n::default();
        let en = write_with(&i, Language::En, Kind::SeatReady, &params(), false, None).body;
        let pt = write_with(&i, Language::Pt, Kind::SeatReady, &params(), false, None).body;
        for s in [&en, &pt] {
            assert!(
                s.contains("12") && s.contains('4') && s.contains("NL 1/2") && s.contains("21:45"),
                "{s}"
            );
        }
        assert!(en.contains("Your seat is ready"), "{en}");
        assert!(pt.contains("Lugar pronto"), "{pt}");
        // São Paulo: the same instant is 18:45 there.
        let mut sp = params();
        sp.tz = "America/Sao_Paulo".into();
        assert!(
            write_with(&i, Language::En, Kind::SeatReady, &sp, false, None)
                .body
                .contains("18:45")
        );
    }

    #[test]
    fn an_e_mail_carries_the_link_exactly_once() {
        let i = I18n::default();
        let link = "https://room.example/p/abc.def.ghi";
        for kind in [Kind::Added, Kind::Link, Kind::SeatReady] {
            let w = write_with(&i, Language::En, kind, &params(), true, Some(link));
            assert_eq!(w.body.matches(link).count(), 1, "{kind:?}: {}", w.body);
        }
    }

    #[test]
    fn custody_shows_money_the_readers_way() {
        let i = I18n::default();
        let en = write_with(&i, Language::En, Kind::Custody, &params(), false, None).body;
        let pt = write_with(&i, Language::Pt, Kind::Custody, &params(), false, None).body;
        assert!(en.contains("€150.50") && en.contains("cofre 2"), "{en}");
        assert!(pt.contains("150,50 €") && pt.contains("cofre 2"), "{pt}");
    }

    #[test]
    fn call_expired_says_what_became_of_the_place() {
        let i = I18n::default();
        let mut p = params();
        let bottom = write_with(&i, Language::En, Kind::CallExpired, &p, false, None).body;
        p.back_on_list = Some(false);
        let removed = write_with(&i, Language::En, Kind::CallExpired, &p, false, None).body;
        assert_ne!(bottom, removed);
        assert!(bottom.contains("bottom"), "{bottom}");
    }

    #[test]
    fn every_message_exists_in_both_languages_and_fits_one_sms_where_it_can() {
        let i = I18n::default();
        for kind in Kind::ALL {
            for lang in [Language::Pt, Language::En] {
                let sms = write_with(
                    &i,
                    lang,
                    *kind,
                    &params(),
                    false,
                    Some("https://cardroom.casino-lisboa.example/m/2sAbCdEfGh"),
                )
                .body;
                assert!(
                    !sms.contains("notify-") && !sms.contains('{'),
                    "{kind} {lang}: {sms}"
                );
                // Every text fits one SMS with the message's short address (a room's host
                // of 30 characters); "added" and "seat ready" carry it (the player answers a
                // call from the seat-ready message).
                assert_eq!(
                    sms_segments(&sms),
                    1,
                    "{kind} {lang} takes more than one SMS: {sms} ({} chars)",
                    sms.chars().count()
                );
                if matches!(*kind, Kind::Added | Kind::SeatReady) {
                    assert!(sms.contains("/m/2sAbCdEfGh"), "{kind} {lang}: {sms}");
                }
                let mail = write_with(
                    &i,
                    lang,
                    *kind,
                    &params(),
                    true,
                    Some("https://room.example/p/x"),
                );
                let subject = mail.subject.unwrap();
                assert!(
                    !subject.is_empty() && !subject.contains("notify-"),
                    "{kind} {lang}: {subject}"
                );
                assert!(
                    mail.body.contains("https://room.example/p/x")
                        && mail.body.contains("Casino Lisboa"),
                    "{}",
                    mail.body
                );
            }
            let en = write_with(&i, Language::En, *kind, &params(), false, None).body;
            let pt = write_with(&i, Language::Pt, *kind, &params(), false, None).body;
            assert_ne!(en, pt, "{kind}: same text in both languages");
            // The floor's messages page names every kind, in both languages.
            for lang in [Language::Pt, Language::En] {
                let key = format!("outbox-kind-{kind}");
                assert_ne!(i.msg(lang, &key, &[]), key, "{lang}: {key}");
            }
        }
    }

    /// Words only one of the two languages uses (the messages' own words: the parameters of
    /// [`params`] are names and numbers either language writes alike).
    const ONLY_EN: &[&str] = &[
        "the", "your", "you", "please", "seat", "table", "list", "move", "must", "chips", "now",
        "by", "are", "is", "was", "were", "next", "ready", "answer", "code", "taken", "off",
        "went", "back", "bottom", "live", "place", "line", "reclaim", "desk", "valid", "soon",
        "expired", "custody", "stay", "close", "floor", "link", "player",
    ];
    const ONLY_PT: &[&str] = &[
        "mesa",
        "lugar",
        "lista",
        "seu",
        "sua",
        "mude",
        "fichas",
        "está",
        "venha",
        "até",
        "às",
        "já",
        "vá",
        "responda",
        "código",
        "válido",
        "voltou",
        "saiu",
        "passou",
        "jogador",
        "seguinte",
        "falta",
        "pouco",
        "fique",
        "perto",
        "sala",
        "peça",
        "balcão",
        "custódia",
        "mudança",
        "obrigatória",
        "acompanhe",
        "ligação",
        "expirou",
        "pronto",
        "segue",
    ];

    fn words(s: &str) -> Vec<String> {
        s.split(|c: char| !c.is_alphanumeric() && c != '-')
            .flat_map(|w| w.split('-'))
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    }

    /// Every message kind, SMS and e-mail (subject and body), in each language: not one word
    /// of the other language (a Portuguese player never reads "Must-move:").
    #[test]
    fn every_message_is_written_wholly_in_the_players_language() {
        let i = I18n::default();
        let link = "https://room.example/m/x";
        for kind in Kind::ALL {
            for (lang, foreign) in [(Language::Pt, ONLY_EN), (Language::En, ONLY_PT)] {
                for email in [false, true] {
                    let w = write_with(&i, lang, *kind, &params(), email, Some(link));
                    let text =
                        format!("{} {}", w.subject.unwrap_or_default(), w.body).replace(link, "");
                    let stray: Vec<String> = words(&text)
                        .into_iter()
                        .filter(|w| foreign.contains(&w.as_str()))
                        .collect();
                    assert!(
                        stray.is_empty(),
                        "{kind} {lang} (e-mail: {email}) has {stray:?}: {text}"
                    );
                }
            }
        }
    }

    #[test]
    fn must_move_says_where_and_by_when_in_the_players_language() {
        let i = I18n::default();
        let pt = write_with(&i, Language::Pt, Kind::MustMove, &params(), false, None).body;
        let en = write_with(&i, Language::En, Kind::MustMove, &params(), false, None).body;
        assert!(pt.starts_with("Mudança obrigatória"), "{pt}");
        for s in [&pt, &en] {
            assert!(
                s.contains("12") && s.contains('4') && s.contains("21:45"),
                "table, seat and the time to be there: {s}"
            );
        }
    }

    #[test]
    fn channels_follow_the_preference_and_the_contacts() {
        let mut p = PlayerRow {
            id: PlayerId(1),
            full_name: "Ana".into(),
            alias: "Ana".into(),
            date_of_birth: chrono::NaiveDate::from_ymd_opt(1990, 1, 1).unwrap(),
            doc_kind: "passport".into(),
            doc_number: "X".into(),
            doc_number_norm: "X".into(),
            doc_country: "PT".into(),
            doc_expiry: chrono::NaiveDate::from_ymd_opt(2035, 1, 1).unwrap(),
            phone: Some("+351912345678".into()),
            email: None,
            language: "pt".into(),
            notify: "both".into(),
            has_photo: true,
            search_key: "ana".into(),
            link_token_version: 0,
            version: 1,
            created_at: t("2026-11-22T00:00:00Z").naive_utc(),
            updated_at: t("2026-11-22T00:00:00Z").naive_utc(),
        };
        assert_eq!(
            channels(&p),
            vec![(Channel::Sms, "+351912345678".to_string())]
        );
        p.email = Some("ana@example.pt".into());
        assert_eq!(channels(&p).len(), 2);
        p.notify = "email".into();
        assert_eq!(
            channels(&p),
            vec![(Channel::Email, "ana@example.pt".to_string())]
        );
        p.notify = "none".into();
        assert!(channels(&p).is_empty());
    }
}
