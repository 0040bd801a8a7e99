//! The table side from the dealer tablet: buy-ins with the amount a returning player
//! must bring (BSOP 26, 37), the minimum stay of winners with the floor's override (BSOP 38),
//! absence, buttons and two-person chip removal into custody (BSOP 36, 39; PT-2007 90),
//! rebuys (PT-2007 79), a table change with the stack (BSOP 27), hands (PT-2007 13, 89) and
//! requests to the floor. Every refusal changes nothing; every change is audited.

use crate::pages::eligible_players;
use crate::support::{TestApp, WebSession, ADMIN_PW, STAFF_PW};
use crate::tablets::{paired_room, Tablet};
use actix_web::test::TestRequest;
use cardroom::db::schema::{buyins, chip_custody, seat_calls, seatings};
use diesel::prelude::*;

pub(crate) struct Room {
    pub(crate) app: TestApp,
    pub(crate) token: String,
    pub(crate) floor: WebSession,
    pub(crate) tablet: Tablet,
    pub(crate) dealer: WebSession,
    pub(crate) players: Vec<i64>,
}

impl Room {
    /// A POST from the tablet, signed in as `who`.
    pub(crate) async fn tap(
        &self,
        who: &WebSession,
        uri: &str,
        fields: &[(&str, &str)],
    ) -> crate::support::Resp {
        let mut form: Vec<(&str, &str)> = vec![("csrf", who.csrf.as_str())];
        form.extend_from_slice(fields);
        self.app
            .call(
                TestRequest::post()
                    .uri(uri)
                    .cookie(self.tablet.c())
                    .cookie(who.c())
                    .set_form(form)
                    .to_request(),
            )
            .await
    }

    pub(crate) async fn view(&self) -> String {
        self.app
            .call(
                TestRequest::get()
                    .uri("/tablet/view")
                    .cookie(self.tablet.c())
                    .cookie(self.dealer.c())
                    .to_request(),
            )
            .await
            .text()
    }

    pub(crate) async fn seat_page(&self, seating: i64) -> crate::support::Resp {
        self.app
            .call(
                TestRequest::get()
                    .uri(&format!("/tablet/seats/{seating}"))
                    .cookie(self.tablet.c())
                    .cookie(self.dealer.c())
                    .to_request(),
            )
            .await
    }

    pub(crate) async fn join(&self, player: i64) {
        let game: i64 = self.app.with_conn(|c| {
            cardroom::db::schema::card_tables::table
                .find(1)
                .select(cardroom::db::schema::card_tables::game_id)
                .first::<Option<i64>>(c)
                .unwrap()
                .unwrap()
        });
        let r = self
            .app
            .send_json(
                "POST",
                &format!("/api/v1/games/{game}/waitlist"),
                &self.token,
                serde_json::json!({ "player_id": player }),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
    }

    pub(crate) async fn call(&self, seat: i32) -> i64 {
        let r = self
            .app
            .send_json(
                "POST",
                &format!("/api/v1/tables/1/seats/{seat}/call-next"),
                &self.token,
                serde_json::json!({}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
        r.json()["id"].as_i64().unwrap()
    }

    /// Calls the next player for `seat` and seats them from the tablet with `amount`.
    pub(crate) async fn seat(&self, seat: i32, amount: &str) -> i64 {
        let call = self.call(seat).await;
        let r = self
            .tap(
                &self.dealer,
                &format!("/tablet/calls/{call}/seat"),
                &[("amount", amount)],
            )
            .await;
        assert_eq!(r.status, 303, "{}", r.text());
        self.seating_at(seat).expect("seated")
    }

    pub(crate) fn seating_at(&self, seat: i32) -> Option<i64> {
        self.app.with_conn(|c| {
            seatings::table
                .filter(seatings::table_id.eq(1))
                .filter(seatings::seat_no.eq(seat))
                .filter(seatings::left_at.is_null())
                .select(seatings::id)
                .first(c)
                .optional()
                .unwrap()
        })
    }

    pub(crate) fn stack(&self, seating: i64) -> (i64, i64, Option<i64>) {
        self.app.with_conn(|c| {
            seatings::table
                .find(seating)
                .select((seatings::stack, seatings::bought_in, seatings::taken_off))
                .first(c)
                .unwrap()
        })
    }

    pub(crate) async fn advance(&self, minutes: i64) {
        let r = self
            .app
            .send_json(
                "POST",
                "/api/v1/test/clock/advance",
                &self.token,
                serde_json::json!({ "minutes": minutes }),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text());
    }

    /// One pass of the scheduler, as the server runs it.
    pub(crate) fn tick(&self) -> usize {
        let now = self.app.state.clock.now();
        self.app.with_conn(|c| {
            self.app
                .state
                .db
                .write(c, |c| {
                    let act = cardroom::services::Acting::system(now).in_room(c)?;
                    cardroom::services::floor::tick(c, &act)
                })
                .expect("tick")
        })
    }
}

/// Two open tables of NL 1/2 (buy-in €40–€200), a tablet at table 1 with dealer1 signed in,
/// `n` eligible players.
pub(crate) async fn room(n: usize) -> Room {
    let app = TestApp::with_clock(true).await;
    let (token, floor, tablet) = paired_room(&app).await;
    app.create_staff("dealer1", "dealer");
    app.create_staff("dealer2", "dealer");
    let dealer = app.web_login("dealer1", STAFF_PW).await;
    let players = eligible_players(&app, n);
    Room {
        app,
        token,
        floor,
        tablet,
        dealer,
        players,
    }
}

#[actix_web::test]
async fn bsop_26_the_tablet_shows_and_checks_the_buyin_of_a_player_returning_within_the_hour() {
    let r = room(1).await;
    let p = r.players[0];
    r.join(p).await;
    let call = r.call(3).await;
    // The tablet shows the game's range before anything is typed.
    let view = r.view().await;
    assert!(view.contains(&format!("id=\"required-{call}\"")), "{view}");
    assert!(view.contains("€40.00 – €200.00"), "{view}");
    // Below the minimum: refused (PT-2007 78), nothing changes.
    let audit0 = r.app.audit_count();
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/calls/{call}/seat"),
            &[("amount", "30")],
        )
        .await;
    assert_eq!(res.status, 422, "{}", res.text());
    assert!(
        res.text()
            .contains("The minimum buy-in for this game is €40.00"),
        "{}",
        res.text()
    );
    assert_eq!(r.app.audit_count(), audit0);
    assert_eq!(r.seating_at(3), None);
    assert_eq!(r.app.count("buyins"), 0);
    // Not a number: a clear refusal too.
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/calls/{call}/seat"),
            &[("amount", "lots")],
        )
        .await;
    assert_eq!(res.status, 422);
    // €100: seated with a stack of €100, audited.
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/calls/{call}/seat"),
            &[("amount", "100")],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    let s = r.seating_at(3).expect("seated");
    assert_eq!(r.stack(s), (10_000, 10_000, None));
    let kind: String = r.app.with_conn(|c| {
        buyins::table
            .filter(buyins::seating_id.eq(s))
            .select(buyins::kind)
            .first(c)
            .unwrap()
    });
    assert_eq!(kind, "buyin");
    assert!(r.app.audit_count() > audit0);
    // The player leaves with €150 (low limit: no minimum stay); €150 is recorded taken off.
    r.advance(20).await;
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{s}/cash-out"),
            &[("stack", "150"), ("confirm", "1")],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    assert_eq!(r.stack(s).2, Some(15_000));
    // Back on the list and called again 30 minutes later: at least €150 (BSOP 26).
    r.advance(30).await;
    r.join(p).await;
    let call = r.call(5).await;
    let view = r.view().await;
    assert!(
        view.contains("€150.00 – €200.00") && view.contains("BSOP 26"),
        "{view}"
    );
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/calls/{call}/seat"),
            &[("amount", "100")],
        )
        .await;
    assert_eq!(res.status, 422);
    assert!(
        res.text()
            .contains("at least the €150.00 taken off the table (BSOP 26)"),
        "{}",
        res.text()
    );
    assert_eq!(r.seating_at(5), None);
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/calls/{call}/seat"),
            &[("amount", "150")],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    let s2 = r.seating_at(5).unwrap();
    assert_eq!(r.stack(s2).0, 15_000);
}

#[actix_web::test]
async fn bsop_26_exactly_one_hour_after_leaving_the_game_range_applies_again() {
    let r = room(1).await;
    let p = r.players[0];
    r.join(p).await;
    let s = r.seat(2, "100").await;
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{s}/cash-out"),
            &[("stack", "180"), ("confirm", "1")],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    r.advance(60).await;
    r.join(p).await;
    let call = r.call(2).await;
    let view = r.view().await;
    assert!(
        view.contains("€40.00 – €200.00") && !view.contains("BSOP 26"),
        "{view}"
    );
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/calls/{call}/seat"),
            &[("amount", "40")],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
}

/// A Mid Limit game (BSOP 38: one hour for winners) with its own table 3 and the tablet
/// moved there.
async fn mid_limit_room() -> (Room, i64) {
    let r = room(2).await;
    let game = serde_json::json!({"name": "NL 5/10", "variant": "holdem_nl", "small_blind": 500, "big_blind": 1000,
        "limit_class": "mid", "buy_in_min": 20000, "buy_in_max": 100000});
    let g = r
        .app
        .send_json("POST", "/api/v1/games", &r.token, game)
        .await;
    assert_eq!(g.status, 201, "{}", g.text());
    let gid = g.json()["id"].as_i64().unwrap();
    // Table 1 (open, empty) changes game.
    let t = r
        .app
        .send_json(
            "PUT",
            "/api/v1/tables/1",
            &r.token,
            serde_json::json!({"number": 1, "game_id": gid, "mode": "continuous", "seats": 9}),
        )
        .await;
    assert!(t.status < 300, "{}", t.text());
    for p in &r.players {
        r.join(*p).await;
    }
    (r, gid)
}

#[actix_web::test]
async fn bsop_38_a_winner_may_not_leave_a_mid_limit_table_before_an_hour_unless_the_floor_overrides(
) {
    let (r, _) = mid_limit_room().await;
    let s = r.seat(1, "300").await;
    r.advance(40).await;
    // Winning (€450 > €300 bought in) after 40 minutes: refused with the time left.
    let audit0 = r.app.audit_count();
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{s}/cash-out"),
            &[("stack", "450")],
        )
        .await;
    assert_eq!(res.status, 409, "{}", res.text());
    assert!(res.text().contains("20 minutes left"), "{}", res.text());
    assert!(res.text().contains("BSOP 38"), "{}", res.text());
    assert_eq!(r.app.audit_count(), audit0);
    assert!(r.seating_at(1).is_some());
    // A dealer cannot override.
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{s}/cash-out"),
            &[("stack", "450"), ("override_reason", "taxi")],
        )
        .await;
    assert_eq!(res.status, 403, "{}", res.text());
    assert!(r.seating_at(1).is_some());
    // Equal to the total bought in is not winning: allowed at once (another player).
    let s2 = r.seat(2, "300").await;
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{s2}/cash-out"),
            &[("stack", "300"), ("confirm", "1")],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    // The floor manager, signed in on the tablet, overrides with a reason: audited.
    let res = r
        .tap(
            &r.floor,
            &format!("/tablet/seats/{s}/cash-out"),
            &[
                ("stack", "450"),
                ("override_reason", "Family emergency"),
                ("confirm", "1"),
            ],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    assert_eq!(r.seating_at(1), None);
    let overrides = r.app.with_conn(|c| {
        use cardroom::db::schema::audit_log;
        audit_log::table
            .filter(audit_log::action.eq("seat.min_stay_override"))
            .select(audit_log::after_json)
            .load::<String>(c)
            .unwrap()
    });
    assert_eq!(overrides.len(), 1);
    assert!(overrides[0].contains("Family emergency"), "{overrides:?}");
}

#[actix_web::test]
async fn bsop_38_exactly_at_the_minimum_stay_a_winner_may_leave() {
    let (r, _) = mid_limit_room().await;
    let s = r.seat(1, "300").await;
    r.advance(60).await;
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{s}/cash-out"),
            &[("stack", "900"), ("confirm", "1")],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
}

#[actix_web::test]
async fn bsop_36_away_fifteen_minutes_then_two_staff_count_the_chips_into_custody_and_the_next_player_is_called(
) {
    let r = room(2).await;
    let (a, b) = (r.players[0], r.players[1]);
    r.join(a).await;
    let s = r.seat(4, "120").await;
    r.join(b).await;
    // Away: the clock starts; the tablet shows the countdown.
    let res = r
        .tap(&r.dealer, &format!("/tablet/seats/{s}/away"), &[])
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    let view = r.view().await;
    assert!(
        view.contains("data-seconds=\"900\"") || view.contains("data-seconds=\"899\""),
        "15:00 to go: {view}"
    );
    // Marking away twice is refused.
    let res = r
        .tap(&r.dealer, &format!("/tablet/seats/{s}/away"), &[])
        .await;
    assert_eq!(res.status, 409);
    // 14:59 in: not yet (refused with the time left, nothing written).
    r.advance(14).await;
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{s}/remove"),
            &[("amount", "120"), ("storage", "Box 3")],
        )
        .await;
    assert_eq!(res.status, 409, "{}", res.text());
    assert!(res.text().contains("1 minute left"), "{}", res.text());
    assert_eq!(r.app.count("chip_custody"), 0);
    // Exactly 15:00: due. The scheduler alerts the floor once.
    r.advance(1).await;
    assert!(r.tick() >= 1);
    let live = r.app.page("/floor/live", &r.floor).await.text();
    assert!(live.contains("id=\"removal-1-4\""), "{live}");
    let alerts: i64 = r.app.with_conn(|c| {
        use cardroom::db::schema::audit_log;
        audit_log::table
            .filter(audit_log::action.eq("seat.removal_due"))
            .count()
            .get_result(c)
            .unwrap()
    });
    assert_eq!(alerts, 1);
    r.tick();
    let again: i64 = r.app.with_conn(|c| {
        use cardroom::db::schema::audit_log;
        audit_log::table
            .filter(audit_log::action.eq("seat.removal_due"))
            .count()
            .get_result(c)
            .unwrap()
    });
    assert_eq!(again, 1, "alerted once");
    assert!(r.seat_page(s).await.text().contains("id=\"start-removal\""));
    // Storage is required.
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{s}/remove"),
            &[("amount", "120"), ("storage", " ")],
        )
        .await;
    assert_eq!(res.status, 422);
    // dealer1 counts €118 into box 3.
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{s}/remove"),
            &[("amount", "118"), ("storage", "Box 3")],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    let k: i64 = r.app.with_conn(|c| {
        chip_custody::table
            .select(chip_custody::id)
            .first(c)
            .unwrap()
    });
    // The same person cannot be the second count.
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/custody/{k}/confirm"),
            &[("amount", "118")],
        )
        .await;
    assert_eq!(res.status, 409, "{}", res.text());
    assert!(
        res.text().contains("different staff member"),
        "{}",
        res.text()
    );
    // dealer2 signs on the same tablet with a wrong password: refused.
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/custody/{k}/confirm"),
            &[
                ("amount", "118"),
                ("username", "dealer2"),
                ("password", "nope"),
            ],
        )
        .await;
    assert_eq!(res.status, 401, "{}", res.text());
    // dealer2 counts a different amount: both count again.
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/custody/{k}/confirm"),
            &[
                ("amount", "120"),
                ("username", "dealer2"),
                ("password", STAFF_PW),
            ],
        )
        .await;
    assert_eq!(res.status, 409, "{}", res.text());
    assert!(res.text().contains("€118.00 and €120.00"), "{}", res.text());
    assert!(r.seating_at(4).is_some(), "nothing changed yet");
    // dealer2 counts €118: custody, seat freed, the next player called for it.
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/custody/{k}/confirm"),
            &[
                ("amount", "118"),
                ("username", "dealer2"),
                ("password", STAFF_PW),
            ],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    let (state, counted_by, confirmed_by): (String, i64, Option<i64>) = r.app.with_conn(|c| {
        chip_custody::table
            .find(k)
            .select((
                chip_custody::state,
                chip_custody::counted_by,
                chip_custody::confirmed_by,
            ))
            .first(c)
            .unwrap()
    });
    assert_eq!(state, "held");
    assert!(confirmed_by.is_some() && confirmed_by != Some(counted_by));
    assert_eq!(r.seating_at(4), None);
    let next: (i64, String) = r.app.with_conn(|c| {
        seat_calls::table
            .filter(seat_calls::table_id.eq(1))
            .filter(seat_calls::seat_no.eq(4))
            .filter(seat_calls::state.eq("pending"))
            .select((seat_calls::player_id, seat_calls::source))
            .first(c)
            .unwrap()
    });
    assert_eq!(next.0, b, "the next on the list is called for the seat");
    // The custody page lists the chips; A comes back within the hour: exactly the same stack
    // (BSOP 37).
    let page = r.app.page("/floor/custody", &r.floor).await.text();
    assert!(
        page.contains(&format!("id=\"custody-{k}\""))
            && page.contains("Box 3")
            && page.contains("€118.00"),
        "{page}"
    );
    r.advance(10).await;
    r.join(a).await;
    let call = r.call(6).await;
    let view = r.view().await;
    assert!(
        view.contains("exactly €118.00") && view.contains("BSOP 37"),
        "{view}"
    );
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/calls/{call}/seat"),
            &[("amount", "200")],
        )
        .await;
    assert_eq!(res.status, 422);
    assert!(res.text().contains("BSOP 37"), "{}", res.text());
    // The player reclaims the chips at the desk.
    let res = r
        .app
        .post_form(
            &format!("/floor/custody/{k}/resolve"),
            &r.floor,
            &[("how", "reclaimed")],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    let res = r
        .app
        .post_form(
            &format!("/floor/custody/{k}/resolve"),
            &r.floor,
            &[("how", "settled")],
        )
        .await;
    assert_eq!(res.status, 409, "already out of custody");
    // Every action of this story has a label in the audit trail, in both languages.
    for lang in ["en", "pt"] {
        let req = TestRequest::get()
            .uri("/admin/audit?limit=200")
            .cookie(r.floor.c())
            .insert_header(("Accept-Language", lang))
            .to_request();
        let page = r.app.call(req).await;
        assert_eq!(page.status, 200);
        let text = page.text();
        assert!(
            text.contains("custody.held") && text.contains("seat.away"),
            "{text}"
        );
        assert!(
            !text.contains(">action-"),
            "an audit action without a label ({lang}): {text}"
        );
    }
}

#[actix_web::test]
async fn bsop_36_39_pt_2007_90_missed_blinds_give_buttons_two_big_blinds_make_the_seat_due_and_the_floor_may_extend(
) {
    let r = room(2).await;
    r.join(r.players[0]).await;
    let s = r.seat(2, "100").await;
    // A missed blind needs the player away.
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{s}/missed"),
            &[("blind", "big")],
        )
        .await;
    assert_eq!(res.status, 409);
    r.tap(&r.dealer, &format!("/tablet/seats/{s}/away"), &[])
        .await;
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{s}/missed"),
            &[("blind", "small")],
        )
        .await;
    assert_eq!(res.status, 303);
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{s}/missed"),
            &[("blind", "big")],
        )
        .await;
    assert_eq!(res.status, 303);
    let (mb, bb): (bool, i32) = r.app.with_conn(|c| {
        seatings::table
            .find(s)
            .select((seatings::missed_blind_button, seatings::missed_bb))
            .first(c)
            .unwrap()
    });
    assert!(mb);
    assert_eq!(bb, 1);
    // Back (pt-casino profile): pays both blinds dead (PT-2007 90); the tablet says so.
    let res = r
        .tap(&r.dealer, &format!("/tablet/seats/{s}/back"), &[])
        .await;
    assert_eq!(res.status, 303);
    assert!(
        r.view().await.contains("pay both dead"),
        "PT-2007 90 notice"
    );
    let res = r
        .tap(&r.dealer, &format!("/tablet/seats/{s}/settled"), &[])
        .await;
    assert_eq!(res.status, 303);
    let mb: bool = r.app.with_conn(|c| {
        seatings::table
            .find(s)
            .select(seatings::missed_blind_button)
            .first(c)
            .unwrap()
    });
    assert!(!mb, "buttons cleared once settled");
    // Away again, two big blinds missed: due at once (BSOP 36), the floor is alerted.
    r.tap(&r.dealer, &format!("/tablet/seats/{s}/away"), &[])
        .await;
    r.tap(
        &r.dealer,
        &format!("/tablet/seats/{s}/missed"),
        &[("blind", "big")],
    )
    .await;
    r.tap(
        &r.dealer,
        &format!("/tablet/seats/{s}/missed"),
        &[("blind", "big")],
    )
    .await;
    assert!(r.view().await.contains("id=\"removal-due-2\""));
    // A dealer may not extend; the floor extends 20 minutes with a reason: no longer due.
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{s}/extend"),
            &[("minutes", "20"), ("reason", "Phone call")],
        )
        .await;
    assert_eq!(res.status, 403);
    let res = r
        .tap(
            &r.floor,
            &format!("/tablet/seats/{s}/extend"),
            &[("minutes", "20"), ("reason", "")],
        )
        .await;
    assert_eq!(res.status, 422, "a reason is required");
    let res = r
        .tap(
            &r.floor,
            &format!("/tablet/seats/{s}/extend"),
            &[("minutes", "20"), ("reason", "Phone call, told the floor")],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    let view = r.view().await;
    assert!(
        !view.contains("id=\"removal-due-2\"")
            && (view.contains("data-seconds=\"1200\"") || view.contains("data-seconds=\"1199\"")),
        "{view}"
    );
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{s}/remove"),
            &[("amount", "100"), ("storage", "Box 1")],
        )
        .await;
    assert_eq!(res.status, 409, "extended: not due");
}

#[actix_web::test]
async fn pt_2007_79_rebuys_are_kept_under_the_maximum() {
    let r = room(1).await;
    r.join(r.players[0]).await;
    let s = r.seat(1, "100").await;
    // €150 on the table + €80 would be €230 > €200: refused with what is allowed.
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{s}/chips"),
            &[("stack", "150"), ("amount", "80")],
        )
        .await;
    assert_eq!(res.status, 422, "{}", res.text());
    assert!(res.text().contains("at most €50.00 now"), "{}", res.text());
    assert_eq!(r.stack(s), (10_000, 10_000, None));
    // Down to €20 (below the €40 minimum: the tablet says a rebuy is needed), rebuy €100.
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{s}/count"),
            &[("stack", "20")],
        )
        .await;
    assert_eq!(res.status, 303);
    assert!(r.view().await.contains("Rebuy needed"));
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{s}/chips"),
            &[("stack", "20"), ("amount", "100")],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    assert_eq!(r.stack(s), (12_000, 20_000, None));
    assert!(!r.view().await.contains("Rebuy needed"));
}

#[actix_web::test]
async fn bsop_27_no_table_change_in_the_first_hour_with_a_stack_above_the_maximum() {
    let r = room(3).await;
    for p in &r.players {
        r.join(*p).await;
    }
    let s = r.seat(1, "200").await;
    r.seat(2, "100").await;
    r.advance(30).await;
    // €250 > €200 maximum, 30 minutes in: refused with the time left.
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{s}/transfer"),
            &[("table_id", "2"), ("stack", "250")],
        )
        .await;
    assert_eq!(res.status, 409, "{}", res.text());
    assert!(res.text().contains("30 minutes left"), "{}", res.text());
    assert!(r.seating_at(1).is_some());
    // €180: allowed, the stack and what was bought in move with the player.
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{s}/transfer"),
            &[("table_id", "2"), ("stack", "180")],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    let (stack, bought): (i64, i64) = r.app.with_conn(|c| {
        seatings::table
            .filter(seatings::table_id.eq(2))
            .filter(seatings::left_at.is_null())
            .select((seatings::stack, seatings::bought_in))
            .first(c)
            .unwrap()
    });
    assert_eq!((stack, bought), (18_000, 20_000));
}

/// The table a seating is at, and its stack and what was bought in, if it is still open.
fn open_seat_of(app: &TestApp, player: i64) -> Option<(i64, i64, i64)> {
    app.with_conn(|c| {
        seatings::table
            .filter(seatings::player_id.eq(player))
            .filter(seatings::left_at.is_null())
            .select((seatings::table_id, seatings::stack, seatings::bought_in))
            .first(c)
            .optional()
            .unwrap()
    })
}

/// The open seating of a player.
fn seating_of(app: &TestApp, player: i64) -> i64 {
    app.with_conn(|c| {
        seatings::table
            .filter(seatings::player_id.eq(player))
            .filter(seatings::left_at.is_null())
            .select(seatings::id)
            .first(c)
            .unwrap()
    })
}

#[actix_web::test]
async fn bsop_27_every_voluntary_table_change_is_refused_in_the_first_hour_above_the_maximum() {
    let r = room(3).await;
    for p in &r.players {
        r.join(*p).await;
    }
    let (a, b) = (r.players[0], r.players[1]);
    let sa = r.seat(1, "200").await;
    let sb = r.seat(2, "100").await;
    // b changes table after 10 minutes (within the maximum: allowed); the first hour counts
    // from sitting down in the game, not at the new table.
    r.advance(10).await;
    let res = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/seatings/{sb}/transfer"),
            &r.token,
            serde_json::json!({ "table_id": 2 }),
        )
        .await;
    assert_eq!(res.status, 201, "{}", res.text());
    let sb = seating_of(&r.app, b);
    // Both stacks counted at €250, above the €200 maximum.
    for s in [sa, sb] {
        let res = r
            .app
            .send_json(
                "POST",
                &format!("/api/v1/seatings/{s}/count"),
                &r.token,
                serde_json::json!({ "stack": 25_000 }),
            )
            .await;
        assert_eq!(res.status, 200, "{}", res.text());
    }
    // 59 minutes in: every path that moves a player to another table by choice is refused,
    // naming the rule, the stack, the maximum and when the hour ends; nothing changes.
    r.advance(49).await;
    let audit = r.app.audit_count();
    let refused = |res: &crate::support::Resp, path: &str| {
        assert_eq!(res.status, 409, "{path}: {}", res.text());
        let text = res.text();
        assert!(
            text.contains("BSOP 27")
                && text.contains("€250.00")
                && text.contains("€200.00")
                && text.contains("1 minute left"),
            "{path}: {text}"
        );
    };
    // The floor's transfer (JSON API), in English and in Portuguese.
    let uri = format!("/api/v1/seatings/{sa}/transfer");
    let res = r
        .app
        .send_json("POST", &uri, &r.token, serde_json::json!({ "table_id": 2 }))
        .await;
    refused(&res, "floor API");
    let res = r
        .app
        .call(
            TestRequest::post()
                .uri(&uri)
                .insert_header(("Authorization", format!("Bearer {}", r.token)))
                .insert_header(("accept-language", "pt"))
                .set_json(serde_json::json!({ "table_id": 2 }))
                .to_request(),
        )
        .await;
    assert_eq!(res.status, 409);
    assert!(
        res.text().contains("primeira hora") && res.text().contains("(BSOP 27)"),
        "{}",
        res.text()
    );
    // The floor's page.
    let res = r
        .app
        .post_form(
            &format!("/floor/seatings/{sa}/transfer"),
            &r.floor,
            &[("table_id", "2")],
        )
        .await;
    refused(&res, "floor page");
    // The dealer's change with the whole stack, from the tablet and through the API.
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{sa}/transfer"),
            &[("table_id", "2"), ("stack", "250")],
        )
        .await;
    refused(&res, "tablet");
    let res = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/seatings/{sa}/transfer-with-stack"),
            &r.token,
            serde_json::json!({ "table_id": 2, "stack": 25_000 }),
        )
        .await;
    refused(&res, "dealer API");
    // b, back to the first table: its seating there is 49 minutes old, its game 59.
    let res = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/seatings/{sb}/transfer"),
            &r.token,
            serde_json::json!({ "table_id": 1 }),
        )
        .await;
    refused(&res, "after an earlier move");
    assert_eq!(r.app.audit_count(), audit, "a refusal was audited");
    // A seat held for the player at the other table (BSOP 49): taking it is a voluntary
    // change too.
    let res = r
        .app
        .send_json(
            "POST",
            "/api/v1/tables/2/seats/5/hold",
            &r.token,
            serde_json::json!({ "player_id": a }),
        )
        .await;
    assert_eq!(res.status, 201, "{}", res.text());
    let audit = r.app.audit_count();
    let res = r
        .app
        .send_json(
            "POST",
            "/api/v1/tables/2/seats/5",
            &r.token,
            serde_json::json!({ "player_id": a }),
        )
        .await;
    refused(&res, "held seat");
    assert_eq!(r.app.audit_count(), audit);
    assert_eq!(open_seat_of(&r.app, a), Some((1, 25_000, 20_000)));
    assert_eq!(open_seat_of(&r.app, b), Some((2, 25_000, 10_000)));

    // 61 minutes in: allowed, and the whole stack moves with the player.
    r.advance(2).await;
    let res = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/seatings/{sb}/transfer"),
            &r.token,
            serde_json::json!({ "table_id": 1 }),
        )
        .await;
    assert_eq!(res.status, 201, "{}", res.text());
    assert_eq!(open_seat_of(&r.app, b), Some((1, 25_000, 10_000)));
    let res = r
        .app
        .send_json(
            "POST",
            "/api/v1/tables/2/seats/5",
            &r.token,
            serde_json::json!({ "player_id": a }),
        )
        .await;
    assert_eq!(res.status, 201, "{}", res.text());
    assert_eq!(open_seat_of(&r.app, a), Some((2, 25_000, 20_000)));
    // Past the hour, every other path moves them too, each with the whole stack: the
    // dealer's tablet (b, at its table, to table 2), the floor's page (a, back to table 1)
    // and the dealer's API (a again, to table 2).
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{}/transfer", seating_of(&r.app, b)),
            &[("table_id", "2"), ("stack", "250")],
        )
        .await;
    assert_eq!(res.status, 303, "tablet: {}", res.text());
    assert_eq!(open_seat_of(&r.app, b), Some((2, 25_000, 10_000)));
    let res = r
        .app
        .post_form(
            &format!("/floor/seatings/{}/transfer", seating_of(&r.app, a)),
            &r.floor,
            &[("table_id", "1")],
        )
        .await;
    assert_eq!(res.status, 303, "floor page: {}", res.text());
    assert_eq!(open_seat_of(&r.app, a), Some((1, 25_000, 20_000)));
    let res = r
        .app
        .send_json(
            "POST",
            &format!(
                "/api/v1/seatings/{}/transfer-with-stack",
                seating_of(&r.app, a)
            ),
            &r.token,
            serde_json::json!({ "table_id": 2, "stack": 25_000 }),
        )
        .await;
    assert_eq!(res.status, 201, "dealer API: {}", res.text());
    assert_eq!(open_seat_of(&r.app, a), Some((2, 25_000, 20_000)));
}

#[actix_web::test]
async fn bsop_28_chips_arriving_during_a_hand_play_in_it_only_with_the_floors_approval() {
    let r = room(4).await;
    for p in &r.players {
        r.join(*p).await;
    }
    let mut s = Vec::new();
    for seat in 1..=4 {
        s.push(r.seat(seat, "100").await);
    }
    // Hand 1 is dealt.
    let res = r.tap(&r.dealer, "/tablet/hand", &[]).await;
    assert_eq!(res.status, 303, "{}", res.text());
    // A rebuy asked for before the hand reaches seat 1 during it.
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{}/chips", s[0]),
            &[("stack", "100"), ("amount", "50"), ("during_hand", "1")],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    assert!(
        r.view()
            .await
            .contains("€50.00 from the next hand (BSOP 28)"),
        "the tablet says when the chips play"
    );
    let board = r.app.floor_all(&r.floor).await;
    assert!(
        board.contains("reached the seat during it") && board.contains("Approve for this hand"),
        "{board}"
    );
    let id: i64 = r.app.with_conn(|c| {
        buyins::table
            .filter(buyins::arrived_in_hand.eq(1))
            .select(buyins::id)
            .first(c)
            .unwrap()
    });
    // A dealer does not approve; the floor does, once, from the board.
    let res = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/buyins/{id}/approve"),
            &r.app.staff_token("dealer9", "dealer").await,
            serde_json::json!({}),
        )
        .await;
    assert_eq!(res.status, 403, "{}", res.text());
    let res = r
        .app
        .post_form(&format!("/floor/buyins/{id}/approve"), &r.floor, &[])
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    assert!(r.view().await.contains("€50.00 approved for this hand"));
    assert!(!r
        .app
        .floor_all(&r.floor)
        .await
        .contains("Approve for this hand"));
    let audit = r.app.audit_count();
    let res = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/buyins/{id}/approve"),
            &r.token,
            serde_json::json!({}),
        )
        .await;
    assert_eq!(res.status, 409, "{}", res.text());
    assert!(res.error().1.contains("BSOP 28"), "{}", res.text());
    // Another rebuy during hand 1, left alone: hand 2 starts and it plays from then; the
    // floor can no longer approve it for hand 1.
    let res = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/seatings/{}/chips", s[1]),
            &r.token,
            serde_json::json!({ "stack": 10_000, "amount": 4_000, "during_hand": true }),
        )
        .await;
    assert_eq!(res.status, 201, "{}", res.text());
    assert_eq!(res.json()["arrived_in_hand"], 1);
    let second = res.json()["id"].as_i64().unwrap();
    assert_eq!(r.tap(&r.dealer, "/tablet/hand", &[]).await.status, 303);
    assert!(!r.view().await.contains("from the next hand"));
    let audit2 = r.app.audit_count();
    let res = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/buyins/{second}/approve"),
            &r.token,
            serde_json::json!({}),
        )
        .await;
    assert_eq!(res.status, 409, "{}", res.text());
    assert!(res.error().1.contains("Hand 1 is over"), "{}", res.text());
    // Chips bought between hands play at once: nothing to approve.
    let res = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/seatings/{}/chips", s[2]),
            &r.token,
            serde_json::json!({ "stack": 10_000, "amount": 1_000 }),
        )
        .await;
    assert_eq!(res.status, 201, "{}", res.text());
    assert!(res.json()["arrived_in_hand"].is_null());
    let third = res.json()["id"].as_i64().unwrap();
    let audit3 = r.app.audit_count();
    let res = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/buyins/{third}/approve"),
            &r.token,
            serde_json::json!({}),
        )
        .await;
    assert_eq!(res.status, 409, "{}", res.text());
    assert_eq!(r.app.audit_count(), audit3, "a refusal is not audited");
    assert!(audit2 > audit);
    let approved: Vec<(i64, Option<i64>)> = r.app.with_conn(|c| {
        buyins::table
            .filter(buyins::arrived_in_hand.is_not_null())
            .order(buyins::id.asc())
            .select((buyins::id, buyins::approved_by))
            .load(c)
            .unwrap()
    });
    assert_eq!(approved.len(), 2);
    assert!(
        approved[0].1.is_some() && approved[1].1.is_none(),
        "{approved:?}"
    );
}

/// Four players seated at table 1 (continuous) with stacks of €100, €150, €200 and €350
/// counted: the game is under way and the average capital in play is €200. The fifth player
/// is called to seat 5; answers the call's id.
async fn table_under_way(r: &Room) -> i64 {
    for p in &r.players {
        r.join(*p).await;
    }
    for (seat, stack) in [(1, "100"), (2, "150"), (3, "200"), (4, "350")] {
        let s = r.seat(seat, "100").await;
        let res = r
            .tap(
                &r.dealer,
                &format!("/tablet/seats/{s}/count"),
                &[("stack", stack)],
            )
            .await;
        assert_eq!(res.status, 303, "{}", res.text());
    }
    let state: String = r.app.with_conn(|c| {
        cardroom::db::schema::card_tables::table
            .find(1)
            .select(cardroom::db::schema::card_tables::state)
            .first(c)
            .unwrap()
    });
    assert_eq!(state, "running");
    r.call(5).await
}

#[actix_web::test]
async fn pt_2007_28_a_player_joining_any_game_under_way_enters_at_the_average_capital() {
    let r = room(5).await;
    let call = table_under_way(&r).await;
    // The tablet shows the exact amount before anything is typed.
    let view = r.view().await;
    let card = &view[view
        .find(&format!("id=\"required-{call}\""))
        .expect("requirement")..];
    assert!(
        card[..card.find("</p>").unwrap()].contains("€200.00"),
        "{card}"
    );
    // €150 is inside the game's €40–€200 range but not the average: refused, nothing saved.
    let audit = r.app.audit_count();
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/calls/{call}/seat"),
            &[("amount", "150")],
        )
        .await;
    assert_eq!(res.status, 422, "{}", res.text());
    assert!(
        res.text().contains("PT-2007 28") && res.text().contains("€200.00"),
        "{}",
        res.text()
    );
    assert_eq!(r.app.audit_count(), audit);
    assert_eq!(r.seating_at(5), None);
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/calls/{call}/seat"),
            &[("amount", "200")],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    let s = r.seating_at(5).expect("seated");
    assert_eq!(r.stack(s), (20_000, 20_000, None));
}

#[actix_web::test]
async fn pt_2007_28_a_session_table_under_way_takes_the_average_in_either_reading() {
    let r = room(5).await;
    // Table 1 played by sessions (changed by the admin while closed).
    let tables = r.app.get("/api/v1/tables", &r.token).await.json();
    let t1 = tables
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == 1)
        .unwrap()
        .clone();
    let res = r
        .app
        .send_json(
            "PUT",
            "/api/v1/tables/1",
            &r.token,
            serde_json::json!({
                "number": t1["number"], "seats": t1["seats"], "game_id": t1["game_id"],
                "mode": "session"
            }),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.text());
    // The narrow reading (session games only) applies here as much as the default one.
    for session_only in [false, true] {
        r.app
            .set_profile(&r.token, |p| p.join_at_average_session_only = session_only)
            .await;
        let room = r
            .app
            .with_conn(|c| cardroom::services::room::get(c).unwrap());
        assert_eq!(room.profile.join_at_average_session_only, session_only);
        if !session_only {
            table_under_way(&r).await;
        }
        let call: i64 = r.app.with_conn(|c| {
            cardroom::db::schema::seat_calls::table
                .filter(cardroom::db::schema::seat_calls::seat_no.eq(5))
                .select(cardroom::db::schema::seat_calls::id)
                .order(cardroom::db::schema::seat_calls::id.desc())
                .first(c)
                .unwrap()
        });
        let view = r.view().await;
        let card = &view[view
            .find(&format!("id=\"required-{call}\""))
            .expect("requirement")..];
        assert!(
            card[..card.find("</p>").unwrap()].contains("€200.00"),
            "session_only={session_only}: {card}"
        );
        let audit = r.app.audit_count();
        let res = r
            .tap(
                &r.dealer,
                &format!("/tablet/calls/{call}/seat"),
                &[("amount", "150")],
            )
            .await;
        assert_eq!(res.status, 422, "{}", res.text());
        assert!(res.text().contains("PT-2007 28"), "{}", res.text());
        assert_eq!(r.app.audit_count(), audit);
        assert_eq!(r.seating_at(5), None);
    }
    let call: i64 = r.app.with_conn(|c| {
        cardroom::db::schema::seat_calls::table
            .select(cardroom::db::schema::seat_calls::id)
            .order(cardroom::db::schema::seat_calls::id.desc())
            .first(c)
            .unwrap()
    });
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/calls/{call}/seat"),
            &[("amount", "200")],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    let s = r.seating_at(5).expect("seated");
    assert_eq!(r.stack(s), (20_000, 20_000, None));
}

#[actix_web::test]
async fn pt_2007_28_a_room_may_keep_the_average_to_session_games() {
    let r = room(5).await;
    let room = r
        .app
        .with_conn(|c| cardroom::services::room::get(c).unwrap());
    assert!(room.profile.join_at_average_stack);
    assert!(
        !room.profile.join_at_average_session_only,
        "the text's reading by default"
    );
    r.app
        .set_profile(&r.token, |p| p.join_at_average_session_only = true)
        .await;
    let call = table_under_way(&r).await;
    // A continuous game: the game's own range applies.
    let view = r.view().await;
    let card = &view[view
        .find(&format!("id=\"required-{call}\""))
        .expect("requirement")..];
    assert!(
        card[..card.find("</p>").unwrap()].contains("€40.00 – €200.00"),
        "{card}"
    );
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/calls/{call}/seat"),
            &[("amount", "150")],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    let s = r.seating_at(5).expect("seated");
    assert_eq!(r.stack(s), (15_000, 15_000, None));
}

#[actix_web::test]
async fn pt_2007_13_89_hands_count_rests_and_hands_without_betting_and_the_button_moves() {
    // Four players: no hand is dealt below the minimum to run (PT-2007 24).
    let r = room(4).await;
    for p in &r.players {
        r.join(*p).await;
    }
    let s1 = r.seat(1, "100").await;
    let s2 = r.seat(3, "100").await;
    r.seat(5, "100").await;
    r.seat(7, "100").await;
    // Seat 1 rests; seat 3 does not bet.
    r.tap(
        &r.dealer,
        &format!("/tablet/seats/{s1}/flags"),
        &[("resting", "1")],
    )
    .await;
    let mut buttons = Vec::new();
    for _ in 0..5 {
        r.tap(
            &r.dealer,
            &format!("/tablet/seats/{s2}/flags"),
            &[("no_bet", "1")],
        )
        .await;
        let res = r.tap(&r.dealer, "/tablet/hand", &[]).await;
        assert_eq!(res.status, 303, "{}", res.text());
        let b: Option<i32> = r.app.with_conn(|c| {
            cardroom::db::schema::card_tables::table
                .find(1)
                .select(cardroom::db::schema::card_tables::button_seat)
                .first(c)
                .unwrap()
        });
        buttons.push(b);
        if buttons.len() == 2 {
            // Two rest hands allowed (PT-2007 13).
            assert!(r.view().await.contains("no rest hands left"));
        }
    }
    assert_eq!(
        buttons,
        vec![Some(1), Some(3), Some(5), Some(7), Some(1)],
        "the button moves clockwise"
    );
    let notices: Vec<Option<String>> = r.app.with_conn(|c| {
        seatings::table
            .filter(seatings::id.eq_any([s1, s2]))
            .order(seatings::seat_no.asc())
            .select(seatings::hand_notice)
            .load(c)
            .unwrap()
    });
    assert_eq!(
        notices[0].as_deref(),
        Some("rules-hands-leave-rested-too-long"),
        "third rest: must leave (PT-2007 13)"
    );
    assert_eq!(
        notices[1].as_deref(),
        Some("rules-hands-post-bb"),
        "five hands without a bet: big blind (PT-2007 89)"
    );
    assert_eq!(r.app.count("hands"), 5);
}

#[actix_web::test]
async fn a_table_asks_the_floor_and_the_request_stays_on_the_dashboard_until_handled() {
    let r = room(0).await;
    let res = r
        .tap(&r.dealer, "/tablet/service", &[("kind", "chips")])
        .await;
    assert_eq!(res.status, 303);
    // Asking twice is one request.
    r.tap(&r.dealer, "/tablet/service", &[("kind", "chips")])
        .await;
    assert_eq!(r.app.count("service_requests"), 1);
    let res = r
        .tap(&r.dealer, "/tablet/service", &[("kind", "pizza")])
        .await;
    assert_eq!(res.status, 422);
    assert_eq!(r.app.count("service_requests"), 1);
    let live = r.app.page("/floor/live", &r.floor).await.text();
    let id: i64 = r.app.with_conn(|c| {
        cardroom::db::schema::service_requests::table
            .select(cardroom::db::schema::service_requests::id)
            .first(c)
            .unwrap()
    });
    assert!(live.contains(&format!("id=\"service-{id}\"")), "{live}");
    let res = r
        .app
        .post_form(&format!("/floor/service/{id}/handled"), &r.floor, &[])
        .await;
    assert_eq!(res.status, 303);
    let live = r.app.page("/floor/live", &r.floor).await.text();
    assert!(!live.contains(&format!("id=\"service-{id}\"")));
}

#[actix_web::test]
async fn a_tablet_cannot_act_on_another_tables_seat() {
    let r = room(1).await;
    r.join(r.players[0]).await;
    // Seated at table 2 by the floor.
    let call = {
        let res = r
            .app
            .send_json(
                "POST",
                "/api/v1/tables/2/seats/1/call-next",
                &r.token,
                serde_json::json!({}),
            )
            .await;
        res.json()["id"].as_i64().unwrap()
    };
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/calls/{call}/seat"),
            &[("amount", "100")],
        )
        .await;
    assert_eq!(res.status, 404);
    let confirmed = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/seat-calls/{call}/seat"),
            &r.token,
            serde_json::json!({}),
        )
        .await;
    assert_eq!(confirmed.status, 201, "{}", confirmed.text());
    let s: i64 = r.app.with_conn(|c| {
        seatings::table
            .filter(seatings::table_id.eq(2))
            .select(seatings::id)
            .first(c)
            .unwrap()
    });
    let audit0 = r.app.audit_count();
    for (uri, form) in [
        ("away", vec![]),
        ("cash-out", vec![("stack", "10")]),
        ("count", vec![("stack", "10")]),
    ] {
        let res = r
            .tap(&r.dealer, &format!("/tablet/seats/{s}/{uri}"), &form)
            .await;
        assert_eq!(
            res.status,
            404,
            "{uri} {:?} {}",
            res.header("location"),
            res.text()
        );
    }
    assert_eq!(r.seat_page(s).await.status, 404);
    assert_eq!(r.app.audit_count(), audit0);
    let _ = ADMIN_PW;
}

#[actix_web::test]
async fn the_json_api_runs_the_same_table_side_rules() {
    let r = room(2).await;
    let (a, b) = (r.players[0], r.players[1]);
    r.join(a).await;
    r.join(b).await;
    let dealer = r.app.staff_token("dealer9", "dealer").await;
    r.app.assign_dealer(&dealer, 1).await;
    let call = r.call(7).await;
    // The side view shows the call with the buy-in required.
    let v = r.app.get("/api/v1/tables/1/side", &dealer).await;
    assert_eq!(v.status, 200, "{}", v.text());
    let calls = v.json()["calls"].as_array().unwrap().clone();
    assert_eq!(calls[0]["buyin"]["min"], 4000);
    // Too little: 422 on the amount field, in the reader's language.
    let req = TestRequest::post()
        .uri(&format!("/api/v1/seat-calls/{call}/seat-with-buyin"))
        .insert_header(("Authorization", format!("Bearer {dealer}")))
        .insert_header(("Accept-Language", "pt"))
        .set_json(serde_json::json!({ "amount": 1000 }))
        .to_request();
    let res = r.app.call(req).await;
    assert_eq!(res.status, 422, "{}", res.text());
    assert_eq!(res.json()["error"]["fields"][0]["field"], "amount");
    assert!(
        res.json()["error"]["fields"][0]["message"]
            .as_str()
            .unwrap()
            .contains("40,00"),
        "{}",
        res.text()
    );
    let res = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/seat-calls/{call}/seat-with-buyin"),
            &dealer,
            serde_json::json!({ "amount": 10000 }),
        )
        .await;
    assert_eq!(res.status, 201, "{}", res.text());
    let s = res.json()["seating_id"].as_i64().unwrap();
    assert_eq!(res.json()["stack"], 10000);
    // Away, 15 minutes, removal counted by the dealer and confirmed by the floor (admin).
    assert_eq!(
        r.app
            .send_json(
                "POST",
                &format!("/api/v1/seatings/{s}/away"),
                &dealer,
                serde_json::json!({})
            )
            .await
            .status,
        200
    );
    r.advance(15).await;
    let res = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/seatings/{s}/removal"),
            &dealer,
            serde_json::json!({ "amount": 9500, "storage": "Cage" }),
        )
        .await;
    assert_eq!(res.status, 201, "{}", res.text());
    let k = res.json()["id"].as_i64().unwrap();
    let res = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/custody/{k}/confirm"),
            &dealer,
            serde_json::json!({ "amount": 9500 }),
        )
        .await;
    assert_eq!(res.status, 409, "the same person: {}", res.text());
    let res = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/custody/{k}/confirm"),
            &r.token,
            serde_json::json!({ "amount": 9500 }),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.text());
    assert_eq!(res.json()["state"], "held");
    let next: i64 = r.app.with_conn(|c| {
        seat_calls::table
            .filter(seat_calls::seat_no.eq(7))
            .filter(seat_calls::state.eq("pending"))
            .select(seat_calls::player_id)
            .first(c)
            .unwrap()
    });
    assert_eq!(next, b);
    // Hands need two players; requests to the floor.
    let res = r
        .app
        .send_json(
            "POST",
            "/api/v1/tables/1/hands",
            &dealer,
            serde_json::json!({}),
        )
        .await;
    assert_eq!(res.status, 409, "{}", res.text());
    let res = r
        .app
        .send_json(
            "POST",
            "/api/v1/tables/1/service-requests",
            &dealer,
            serde_json::json!({ "kind": "floor", "note": "split pot" }),
        )
        .await;
    assert_eq!(res.status, 201, "{}", res.text());
    let open = r.app.get("/api/v1/service-requests", &dealer).await.json();
    assert_eq!(open.as_array().unwrap().len(), 1);
    // A dealer may not extend an absence nor mark a request handled.
    let id = open[0]["id"].as_i64().unwrap();
    assert_eq!(
        r.app
            .send_json(
                "POST",
                &format!("/api/v1/service-requests/{id}/handled"),
                &dealer,
                serde_json::json!({})
            )
            .await
            .status,
        403
    );
    assert_eq!(
        r.app
            .send_json(
                "POST",
                &format!("/api/v1/service-requests/{id}/handled"),
                &r.token,
                serde_json::json!({})
            )
            .await
            .status,
        200
    );
}

#[actix_web::test]
async fn bsop_57_a_must_move_player_on_the_button_waits_and_the_move_shows_at_the_table_left() {
    // Four at the must-move table: a game deals no hand with fewer (PT-2007 24).
    let r = room(5).await;
    let (a, b) = (r.players[0], r.players[1]);
    let must_move: bool = r.app.with_conn(|c| {
        cardroom::db::schema::card_tables::table
            .find(2)
            .select(cardroom::db::schema::card_tables::must_move)
            .first(c)
            .unwrap()
    });
    assert!(
        must_move,
        "table 2, opened last, is the must-move table (BSOP 55)"
    );
    // A, B, C, D from the list to the must-move table (seats 1 to 4).
    for (p, seat) in [(a, 1), (b, 2), (r.players[2], 3), (r.players[3], 4)] {
        r.join(p).await;
        let call = r
            .app
            .send_json(
                "POST",
                &format!("/api/v1/tables/2/seats/{seat}/call-next"),
                &r.token,
                serde_json::json!({}),
            )
            .await;
        assert_eq!(call.status, 201, "{}", call.text());
        let id = call.json()["id"].as_i64().unwrap();
        let res = r
            .app
            .send_json(
                "POST",
                &format!("/api/v1/seat-calls/{id}/seat-with-buyin"),
                &r.token,
                serde_json::json!({ "amount": 10000 }),
            )
            .await;
        assert_eq!(res.status, 201, "{}", res.text());
    }
    // First hand at table 2: the button goes to seat 1 (A, first in the must-move order).
    let h = r
        .app
        .send_json(
            "POST",
            "/api/v1/tables/2/hands",
            &r.token,
            serde_json::json!({}),
        )
        .await;
    assert_eq!(h.status, 201, "{}", h.text());
    assert_eq!(h.json()["button_seat"], 1);
    // A seat opens at the main game: A is on the button and waits; nobody else may take it,
    // and the refusal says so (not "nobody on the list"), in English and Portuguese.
    let before = (r.app.audit_count(), r.app.count("seat_calls"));
    let res = r
        .app
        .send_json(
            "POST",
            "/api/v1/tables/1/seats/3/call-next",
            &r.token,
            serde_json::json!({}),
        )
        .await;
    assert_eq!(res.status, 409, "{}", res.text());
    assert_eq!(res.json()["error"]["reason"], "seat_waits_for_must_move");
    let msg = res.error().1;
    assert!(
        msg.starts_with("This seat waits for ")
            && msg.contains("(table 2, seat 1)")
            && msg.contains("except the small blind or the button (BSOP 57)")
            && msg.contains("is on the button now"),
        "{msg}"
    );
    assert!(!msg.contains("Nobody on the list"), "{msg}");
    let res = r
        .app
        .call(
            TestRequest::post()
                .uri("/api/v1/tables/1/seats/3/call-next")
                .insert_header(("Authorization", format!("Bearer {}", r.token)))
                .insert_header(("Accept-Language", "pt-PT"))
                .set_json(serde_json::json!({}))
                .to_request(),
        )
        .await;
    assert_eq!(res.status, 409);
    let msg = res.error().1;
    assert!(
        msg.starts_with("Este lugar espera por ")
            && msg.contains("(BSOP 57)")
            && msg.contains("está no botão agora"),
        "{msg}"
    );
    assert_eq!((r.app.audit_count(), r.app.count("seat_calls")), before);
    // With someone on the list, the seat still waits for A, for the same reason.
    r.join(r.players[4]).await;
    let res = r
        .app
        .send_json(
            "POST",
            "/api/v1/tables/1/seats/3/call-next",
            &r.token,
            serde_json::json!({}),
        )
        .await;
    assert_eq!(res.status, 409, "{}", res.text());
    assert_eq!(res.json()["error"]["reason"], "seat_waits_for_must_move");
    // Next hand: the button moves to seat 2; A moves now, and table 2's tablet is told.
    let h = r
        .app
        .send_json(
            "POST",
            "/api/v1/tables/2/hands",
            &r.token,
            serde_json::json!({}),
        )
        .await;
    assert_eq!(h.json()["button_seat"], 2);
    let res = r
        .app
        .send_json(
            "POST",
            "/api/v1/tables/1/seats/3/call-next",
            &r.token,
            serde_json::json!({}),
        )
        .await;
    assert_eq!(res.status, 201, "{}", res.text());
    assert_eq!(res.json()["player_id"], a);
    assert_eq!(res.json()["source"], "must_move");
    let told: i64 = r.app.with_conn(|c| {
        use cardroom::db::schema::events;
        events::table
            .filter(events::kind.eq("seat.move_due"))
            .filter(events::table_id.eq(2))
            .count()
            .get_result(c)
            .unwrap()
    });
    assert_eq!(told, 1);
    let side = r.app.get("/api/v1/tables/2/side", &r.token).await;
    assert_eq!(side.status, 200);
}

#[actix_web::test]
async fn the_floor_sends_a_message_to_a_tablet_which_keeps_it_until_the_dealer_marks_it_seen() {
    use cardroom::db::schema::{events, floor_messages};
    let r = room(0).await;
    let audit0 = r.app.audit_count();
    // Table 2 has no tablet: nobody would see it.
    let res = r
        .app
        .post_form(
            "/floor/tablets/message",
            &r.floor,
            &[("table_id", "2"), ("body", "Fill table 2 first")],
        )
        .await;
    assert_eq!(res.status, 409);
    assert!(
        res.text().contains("Table 2 has no paired tablet"),
        "{}",
        res.text()
    );
    assert!(
        res.text().contains("Fill table 2 first"),
        "the typed message is kept: {}",
        res.text()
    );
    // Empty, too long: refused on the field.
    let res = r
        .app
        .post_form(
            "/floor/tablets/message",
            &r.floor,
            &[("table_id", "1"), ("body", "   ")],
        )
        .await;
    assert_eq!(res.status, 422);
    let long = "x".repeat(301);
    let res = r
        .app
        .post_form(
            "/floor/tablets/message",
            &r.floor,
            &[("table_id", "1"), ("body", &long)],
        )
        .await;
    assert_eq!(res.status, 422);
    assert_eq!(r.app.count("floor_messages"), 0);
    assert_eq!(r.app.audit_count(), audit0);

    let res = r
        .app
        .post_form(
            "/floor/tablets/message",
            &r.floor,
            &[("table_id", "1"), ("body", "  Seat 4 needs a new deck  ")],
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.text());
    assert!(res.text().contains("id=\"message-sent\""));
    let (id, body): (i64, String) = r.app.with_conn(|c| {
        floor_messages::table
            .select((floor_messages::id, floor_messages::body))
            .first(c)
            .unwrap()
    });
    assert_eq!(body, "Seat 4 needs a new deck");
    // Pushed to table 1's stream.
    let pushed: Option<i64> = r.app.with_conn(|c| {
        events::table
            .filter(events::kind.eq("floor.message"))
            .select(events::table_id)
            .first::<Option<i64>>(c)
            .unwrap()
    });
    assert_eq!(pushed, Some(1));
    assert_eq!(r.app.audit_count(), audit0 + 1);
    // On the tablet until seen.
    let view = r.view().await;
    assert!(
        view.contains(&format!("id=\"floor-message-{id}\""))
            && view.contains("Seat 4 needs a new deck"),
        "{view}"
    );
    let floor_page = r.app.page("/floor/tablets", &r.floor).await.text();
    assert!(floor_page.contains("Not seen yet"), "{floor_page}");
    // The form is in the page's body once (not in its <title>).
    assert_eq!(floor_page.matches("id=\"message-form\"").count(), 1);
    let title =
        &floor_page[floor_page.find("<title>").unwrap()..floor_page.find("</title>").unwrap()];
    assert!(
        !title["<title>".len()..].contains('<'),
        "markup in the title: {title}"
    );
    let res = r
        .tap(&r.dealer, &format!("/tablet/messages/{id}/seen"), &[])
        .await;
    assert_eq!(res.status, 303);
    assert!(!r
        .view()
        .await
        .contains(&format!("id=\"floor-message-{id}\"")));
    let floor_page = r.app.page("/floor/tablets", &r.floor).await.text();
    assert!(
        !floor_page.contains("Not seen yet") && floor_page.contains("· dealer1"),
        "{floor_page}"
    );
    // Seen twice: nothing more.
    let audit1 = r.app.audit_count();
    assert_eq!(
        r.tap(&r.dealer, &format!("/tablet/messages/{id}/seen"), &[])
            .await
            .status,
        303
    );
    assert_eq!(r.app.audit_count(), audit1);
    assert_eq!(
        r.tap(&r.dealer, "/tablet/messages/999/seen", &[])
            .await
            .status,
        404
    );

    // The JSON API: same rules, in the caller's language.
    let res = r
        .app
        .call(
            TestRequest::post()
                .uri("/api/v1/tables/2/floor-messages")
                .insert_header(("Authorization", format!("Bearer {}", r.token)))
                .insert_header(("Accept-Language", "pt-PT"))
                .set_json(serde_json::json!({ "body": "Olá" }))
                .to_request(),
        )
        .await;
    assert_eq!(res.status, 409);
    assert!(
        res.text().contains("não tem tablet emparelhado"),
        "{}",
        res.text()
    );
    let res = r
        .app
        .send_json(
            "POST",
            "/api/v1/tables/1/floor-messages",
            &r.token,
            serde_json::json!({ "body": "Break at 22:00" }),
        )
        .await;
    assert_eq!(res.status, 201, "{}", res.text());
    let id2 = res.json()["id"].as_i64().unwrap();
    let side = r.app.get("/api/v1/tables/1/side", &r.token).await.json();
    assert_eq!(side["unseen_messages"][0]["body"], "Break at 22:00");
    let dealer_token = r.app.api_login("dealer1", STAFF_PW).await;
    // Through the API (not the tablet) a dealer acts at the table the floor assigned.
    r.app.assign_dealer(&dealer_token, 1).await;
    let res = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/floor-messages/{id2}/seen"),
            &dealer_token,
            serde_json::json!({}),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.text());
    assert_eq!(res.json()["seen_by"], "dealer1");
    let list = r
        .app
        .get("/api/v1/tables/1/floor-messages", &r.token)
        .await
        .json();
    assert_eq!(list.as_array().unwrap().len(), 2);
    assert_eq!(list[0]["id"], id2, "newest first");
    // A dealer cannot send messages.
    let res = r
        .app
        .send_json(
            "POST",
            "/api/v1/tables/1/floor-messages",
            &dealer_token,
            serde_json::json!({ "body": "hi" }),
        )
        .await;
    assert_eq!(res.status, 403);
}

#[actix_web::test]
async fn the_seat_page_follows_the_tables_stream_and_sign_out_asks_twice() {
    let r = room(1).await;
    r.join(r.players[0]).await;
    let s = r.seat(1, "100").await;
    let since: i64 = r
        .app
        .with_conn(|c| cardroom::web::stream::last_seq(c).unwrap());
    let page = r.seat_page(s).await.text();
    assert!(page.contains("data-live=\"/tablet/stream\""), "{page}");
    assert!(
        page.contains(&format!("data-since=\"{since}\"")),
        "the stream starts after the last event the page shows: {page}"
    );
    assert!(page.contains("id=\"live-stale\" hidden"));
    let table = r
        .app
        .call(
            TestRequest::get()
                .uri("/tablet")
                .cookie(r.tablet.c())
                .cookie(r.dealer.c())
                .to_request(),
        )
        .await
        .text();
    assert!(
        table.contains("id=\"sign-out\" data-confirm=\"Tap again to sign out\""),
        "{table}"
    );
    // A message from the floor shows on the seat page too.
    r.app
        .post_form(
            "/floor/tablets/message",
            &r.floor,
            &[("table_id", "1"), ("body", "Count seat 1")],
        )
        .await;
    assert!(r.seat_page(s).await.text().contains("Count seat 1"));
}

/// The authorization matrix's table dimension: a dealer changes only the table
/// of the paired tablet they use or the one the floor assigned them; floor and admin act on
/// any table. Every refusal is a 403 with the reason and changes nothing.
#[actix_web::test]
async fn a_dealer_acts_at_their_own_table_only() {
    let r = room(2).await;
    let (a, b) = (r.players[0], r.players[1]);
    r.join(a).await;
    r.join(b).await;
    let seating_t1 = r.seat(3, "100").await;
    let floor = r.app.staff_token("floor7", "floor").await;
    let roaming = r.app.staff_token("dealer7", "dealer").await; // no tablet, no table
    let at_t2 = r.app.staff_token("dealer8", "dealer").await;
    r.app.assign_dealer(&at_t2, 2).await;
    let on_tablet = r.app.api_login("dealer1", STAFF_PW).await; // the tablet is at table 1
    let routes = |t: i64| {
        vec![
            (
                format!("/api/v1/tables/{t}/tips"),
                serde_json::json!({ "amount": 500 }),
            ),
            (
                format!("/api/v1/tables/{t}/drop-box"),
                serde_json::json!({ "amount": 700 }),
            ),
        ]
    };
    let send = |token: String, uri: String, body: serde_json::Value, tablet: bool| {
        let mut req = TestRequest::post()
            .uri(&uri)
            .insert_header(("Authorization", format!("Bearer {token}")))
            .insert_header(("Accept-Language", "en"))
            .set_json(body);
        if tablet {
            req = req.cookie(r.tablet.c());
        }
        r.app.call(req.to_request())
    };
    // (identity, with the tablet's device cookie, tables it may change)
    let who: Vec<(&str, String, bool, Vec<i64>)> = vec![
        ("admin", r.token.clone(), false, vec![1, 2]),
        ("floor", floor.clone(), false, vec![1, 2]),
        ("dealer without a table", roaming.clone(), false, vec![]),
        ("dealer assigned to table 2", at_t2.clone(), false, vec![2]),
        (
            "dealer on the tablet of table 1",
            on_tablet.clone(),
            true,
            vec![1],
        ),
        (
            "dealer of table 1 away from the tablet",
            on_tablet.clone(),
            false,
            vec![],
        ),
    ];
    let mut failures = Vec::new();
    for (name, token, tablet, mine) in &who {
        for t in [1i64, 2] {
            for (uri, body) in routes(t) {
                let before = r.app.audit_count();
                let res = send(token.clone(), uri.clone(), body, *tablet).await;
                let allowed = mine.contains(&t);
                let ok = if allowed {
                    res.status == 201
                } else {
                    res.status == 403
                        && res.json()["error"]["message"]
                            .as_str()
                            .unwrap_or("")
                            .contains(&format!("table {t} is not yours"))
                        && r.app.audit_count() == before
                };
                if !ok {
                    failures.push(format!("{name} → {uri}: {} {}", res.status, res.text()));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "dealer table scope:\n{}",
        failures.join("\n")
    );
    // A seat of table 1: the dealer of table 2 may not count its chips; the tablet's may.
    let count = format!("/api/v1/seatings/{seating_t1}/count");
    let res = send(
        at_t2.clone(),
        count.clone(),
        serde_json::json!({ "stack": 9000 }),
        false,
    )
    .await;
    assert_eq!(res.status, 403, "{}", res.text());
    // The coarse code and the precise reason an integration can branch on.
    assert_eq!(res.json()["error"]["code"], "forbidden");
    assert_eq!(res.json()["error"]["reason"], "dealer_other_table");
    let res = send(
        on_tablet.clone(),
        count,
        serde_json::json!({ "stack": 9000 }),
        true,
    )
    .await;
    assert!(res.status < 300, "{} {}", res.status, res.text());
    // Reading is not limited: a dealer sees the other table.
    assert_eq!(
        r.app.get("/api/v1/tables/2/side", &roaming).await.status,
        200
    );
    // The assignment itself is the floor's: a dealer cannot assign themselves.
    let me = r.app.get("/api/v1/me", &roaming).await.json()["id"]
        .as_i64()
        .unwrap();
    let res = r
        .app
        .send_json(
            "POST",
            "/api/v1/tables/1/dealer",
            &roaming,
            serde_json::json!({ "dealer_id": me }),
        )
        .await;
    assert_eq!(res.status, 403);
    // Only an active dealer can be assigned.
    let floor_id = r.app.get("/api/v1/me", &floor).await.json()["id"]
        .as_i64()
        .unwrap();
    let res = r
        .app
        .send_json(
            "POST",
            "/api/v1/tables/1/dealer",
            &floor,
            serde_json::json!({ "dealer_id": floor_id }),
        )
        .await;
    assert_eq!(res.status, 422, "{}", res.text());
    assert_eq!(res.json()["error"]["fields"][0]["field"], "dealer_id");
}

#[actix_web::test]
async fn pt_2007_24_no_hand_is_dealt_below_the_minimum_to_run_not_even_the_first() {
    let r = room(4).await;
    for (i, p) in r.players.iter().take(3).enumerate() {
        r.join(*p).await;
        r.seat(i as i32 + 1, "100").await;
    }
    let state = |r: &Room| {
        r.app.with_conn(|c| {
            cardroom::db::schema::card_tables::table
                .find(1)
                .select(cardroom::db::schema::card_tables::state)
                .first::<String>(c)
                .unwrap()
        })
    };
    assert_eq!(state(&r), "open", "three players do not start a game");
    let before = (
        r.app.audit_count(),
        r.app.count("hands"),
        r.app.count("cagnotte_sessions"),
        r.app.count("events"),
    );
    // The API: 409 with the reason and the minimum, in English and Portuguese.
    let res = r
        .app
        .send_json(
            "POST",
            "/api/v1/tables/1/hands",
            &r.token,
            serde_json::json!({}),
        )
        .await;
    assert_eq!(res.status, 409, "{}", res.text());
    assert_eq!(res.json()["error"]["reason"], "hand_below_minimum");
    let msg = res.error().1;
    assert!(
        msg.contains("fewer than 4 players (PT-2007 24)") && msg.contains("3 are seated"),
        "{msg}"
    );
    let res = r
        .app
        .call(
            TestRequest::post()
                .uri("/api/v1/tables/1/hands")
                .insert_header(("Authorization", format!("Bearer {}", r.token)))
                .insert_header(("Accept-Language", "pt-PT"))
                .set_json(serde_json::json!({}))
                .to_request(),
        )
        .await;
    assert_eq!(res.status, 409);
    let msg = res.error().1;
    assert!(
        msg.contains("menos de 4 jogadores (PT-2007 24)") && msg.contains("há 3 pessoas sentadas"),
        "{msg}"
    );
    // The tablet's hand button says why, too.
    let res = r.tap(&r.dealer, "/tablet/hand", &[]).await;
    assert_ne!(res.status, 303, "{}", res.text());
    assert!(res.text().contains("PT-2007 24"), "{}", res.text());
    // Nothing changed: no hand, no cagnotte session, no record, no event.
    assert_eq!(
        (
            r.app.audit_count(),
            r.app.count("hands"),
            r.app.count("cagnotte_sessions"),
            r.app.count("events"),
        ),
        before
    );
    // The fourth player: the game runs and the first hand is dealt.
    r.join(r.players[3]).await;
    r.seat(4, "100").await;
    assert_eq!(state(&r), "running");
    let res = r
        .app
        .send_json(
            "POST",
            "/api/v1/tables/1/hands",
            &r.token,
            serde_json::json!({}),
        )
        .await;
    assert_eq!(res.status, 201, "{}", res.text());
    assert_eq!(r.app.count("hands"), 1);
}

#[actix_web::test]
async fn the_tablet_names_the_button_and_the_small_blind_each_on_its_own_seat() {
    // Two seats were both badged "Button / small blind". BSOP 57 protects the
    // button and the small blind: each is named on its seat; heads-up (the button posts the
    // small blind) one seat carries both.
    let r = room(4).await;
    for p in &r.players {
        r.join(*p).await;
    }
    let seats = [1, 3, 5, 7];
    for s in seats {
        r.seat(s, "100").await;
    }
    let res = r.tap(&r.dealer, "/tablet/hand", &[]).await;
    assert_eq!(res.status, 303, "{}", res.text());
    let html = r.view().await;
    assert!(html.contains("id=\"seat-button-1\""), "{html}");
    assert!(html.contains("id=\"seat-small-blind-3\""), "{html}");
    assert!(!html.contains("Button / small blind"), "{html}");
    for s in [5, 7] {
        assert!(!html.contains(&format!("id=\"seat-button-{s}\"")));
        assert!(!html.contains(&format!("id=\"seat-small-blind-{s}\"")));
    }
}

/// The board's strip counts every kind of alarm at once and each is on its table's tile:
/// a removal due (BSOP 36), a count waiting for a second staff member, and a suspended table
/// near its close (PT-2007 24).
#[actix_web::test]
async fn the_alarm_strip_counts_removals_counts_and_a_suspended_table_near_its_close() {
    let r = room(5).await;
    for p in &r.players {
        r.join(*p).await;
    }
    let mut s = Vec::new();
    for seat in 1..=5 {
        s.push(r.seat(seat, "100").await);
    }
    for x in [s[3], s[4]] {
        let res = r
            .tap(&r.dealer, &format!("/tablet/seats/{x}/away"), &[])
            .await;
        assert_eq!(res.status, 303, "{}", res.text());
    }
    // 15 minutes away: both due for removal; seat 5's chips are counted by the dealer and
    // wait for a second count.
    r.advance(15).await;
    r.tick();
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{}/remove", s[4]),
            &[("amount", "100"), ("storage", "Box 1")],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    let custody: i64 = r.app.with_conn(|c| {
        chip_custody::table
            .select(chip_custody::id)
            .first(c)
            .unwrap()
    });
    // Seats 1 and 2 leave: below four, the table is suspended; 11 minutes later it closes
    // within five.
    for x in [s[0], s[1]] {
        let res = r
            .app
            .send_json(
                "POST",
                &format!("/api/v1/seatings/{x}/leave"),
                &r.token,
                serde_json::json!({ "reason": "left" }),
            )
            .await;
        assert_eq!(res.status, 200, "{}", res.text());
    }
    r.advance(11).await;
    let live = r.app.page("/floor/live", &r.floor).await.text();
    let strip = &live[live.find("id=\"floor-alerts\"").expect("the strip")..];
    let strip = &strip[..strip.find("</section>").unwrap()];
    for id in [
        "id=\"removal-1-4\"".to_string(),
        format!("id=\"custody-alarm-{custody}\""),
        "id=\"closing-1\"".to_string(),
    ] {
        assert!(strip.contains(&id), "{id} not on the strip: {strip}");
    }
    // The count is the alarms listed.
    let listed = strip.matches("<li class=\"alarm").count();
    assert!(listed >= 3, "{strip}");
    assert!(
        strip.contains(&format!("data-count=\"{listed}\"")),
        "{listed} alarms listed: {strip}"
    );
    // The tile carries the same.
    let at = live.find("id=\"tile-1\"").expect("tile 1");
    let tile = &live[live[..at].rfind("<a").unwrap_or(at)..];
    let tile = &tile[..tile.find("</a>").unwrap()];
    for kind in ["removal", "custody", "closing"] {
        assert!(
            tile.contains(&format!("data-alarm=\"{kind}\"")),
            "{kind} not on the tile: {tile}"
        );
    }
}
