//! The tables, shared by both backends (migrations/sqlite and migrations/postgres keep the
//! same columns and types).

diesel::table! {
    settings (key) {
        key -> Text,
        value -> Text,
    }
}

diesel::table! {
    /// One row: the database's random identity, named by the audit trail's checkpoints.
    database_identity (one) {
        one -> Integer,
        id -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    sequences (name) {
        name -> Text,
        value -> BigInt,
    }
}

diesel::table! {
    room (id) {
        id -> BigInt,
        name -> Text,
        timezone -> Text,
        currency -> Text,
        default_language -> Text,
        profile -> Text,
        updated_at -> Timestamp,
        theme -> Text,
        call_alert -> Text,
        tap_late_max_s -> Integer,
    }
}

diesel::table! {
    staff (id) {
        id -> BigInt,
        username -> Text,
        display_name -> Text,
        role -> Text,
        password_hash -> Text,
        active -> Bool,
        language -> Nullable<Text>,
        token_version -> Integer,
        must_change_password -> Bool,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        relief_pin_hash -> Nullable<Text>,
    }
}

diesel::table! {
    login_throttle (throttle_key) {
        throttle_key -> Text,
        failures -> Integer,
        last_failure -> Timestamp,
        not_before -> Nullable<Timestamp>,
    }
}

diesel::table! {
    staff_sessions (id) {
        id -> Text,
        staff_id -> BigInt,
        kind -> Text,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        last_seen_at -> Timestamp,
        user_agent -> Text,
        address -> Text,
        ended_at -> Nullable<Timestamp>,
        end_reason -> Nullable<Text>,
    }
}

diesel::table! {
    players (id) {
        id -> BigInt,
        full_name -> Text,
        alias -> Text,
        date_of_birth -> Date,
        doc_kind -> Text,
        doc_number -> Text,
        doc_number_norm -> Text,
        doc_country -> Text,
        doc_expiry -> Date,
        phone -> Nullable<Text>,
        email -> Nullable<Text>,
        language -> Text,
        notify -> Text,
        has_photo -> Bool,
        search_key -> Text,
        link_token_version -> Integer,
        version -> Integer,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    player_photos (player_id) {
        player_id -> BigInt,
        content_type -> Text,
        data -> Binary,
        width -> Integer,
        height -> Integer,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    exclusions (id) {
        id -> BigInt,
        player_id -> BigInt,
        reason -> Text,
        starts_at -> Timestamp,
        ends_at -> Nullable<Timestamp>,
        created_by -> Nullable<BigInt>,
        created_at -> Timestamp,
        lifted_at -> Nullable<Timestamp>,
        lifted_by -> Nullable<BigInt>,
        lift_reason -> Nullable<Text>,
    }
}

diesel::table! {
    separations (id) {
        id -> BigInt,
        player_a -> BigInt,
        player_b -> BigInt,
        reason -> Text,
        created_by -> Nullable<BigInt>,
        created_at -> Timestamp,
        removed_at -> Nullable<Timestamp>,
        removed_by -> Nullable<BigInt>,
    }
}

diesel::table! {
    games (id) {
        id -> BigInt,
        name -> Text,
        variant -> Text,
        small_blind -> BigInt,
        big_blind -> BigInt,
        limit_class -> Text,
        buy_in_min -> BigInt,
        buy_in_max -> Nullable<BigInt>,
        seats -> Integer,
        cagnotte_mode -> Text,
        cagnotte_bp -> Integer,
        active -> Bool,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        cagnotte_base -> Text,
        rake_cap -> Nullable<BigInt>,
        smallest_chip -> Nullable<BigInt>,
        colour -> Text,
        table_policy -> Text,
        cucurucho -> Bool,
        cucurucho_bb -> Integer,
        macaca -> Bool,
        macaca_bb -> Integer,
        macaca_cap_bb -> Integer,
    }
}

diesel::table! {
    card_tables (id) {
        id -> BigInt,
        number -> Integer,
        seats -> Integer,
        game_id -> Nullable<BigInt>,
        mode -> Text,
        state -> Text,
        active -> Bool,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        opened_at -> Nullable<Timestamp>,
        suspended_at -> Nullable<Timestamp>,
        must_move -> Bool,
        button_seat -> Nullable<Integer>,
        extra_seat -> Bool,
        small_blind -> Nullable<BigInt>,
        big_blind -> Nullable<BigInt>,
        buy_in_min -> Nullable<BigInt>,
        buy_in_max -> Nullable<BigInt>,
        limits_since -> Nullable<Timestamp>,
    }
}

diesel::table! {
    audit_log (seq) {
        seq -> BigInt,
        at -> Timestamp,
        actor_id -> Nullable<BigInt>,
        actor_name -> Text,
        action -> Text,
        subject_kind -> Text,
        subject_id -> Nullable<BigInt>,
        before_json -> Text,
        after_json -> Text,
        prev_hash -> Text,
        hash -> Text,
    }
}

diesel::table! {
    waitlist_entries (id) {
        id -> BigInt,
        game_id -> BigInt,
        player_id -> BigInt,
        order_key -> BigInt,
        joined_at -> Timestamp,
        source -> Text,
        call_in_expires_at -> Nullable<Timestamp>,
        checked_in_at -> Nullable<Timestamp>,
        state -> Text,
        ended_at -> Nullable<Timestamp>,
        end_reason -> Nullable<Text>,
        created_by -> Nullable<BigInt>,
        via -> Nullable<Text>,
    }
}

diesel::table! {
    seatings (id) {
        id -> BigInt,
        table_id -> BigInt,
        seat_no -> Integer,
        player_id -> BigInt,
        game_id -> Nullable<BigInt>,
        entry_id -> Nullable<BigInt>,
        sat_at -> Timestamp,
        left_at -> Nullable<Timestamp>,
        left_reason -> Nullable<Text>,
        seated_by -> Nullable<BigInt>,
        stack -> BigInt,
        bought_in -> BigInt,
        taken_off -> Nullable<BigInt>,
        away_since -> Nullable<Timestamp>,
        away_extended_until -> Nullable<Timestamp>,
        removal_alerted_at -> Nullable<Timestamp>,
        missed_sb -> Integer,
        missed_bb -> Integer,
        missed_blind_button -> Bool,
        absence_button -> Bool,
        hands_no_bet -> Integer,
        rest_hands -> Integer,
        rested_since_bet -> Bool,
        resting -> Bool,
        no_bet -> Bool,
        hand_notice -> Nullable<Text>,
        absence_tapped_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    seat_calls (id) {
        id -> BigInt,
        table_id -> BigInt,
        seat_no -> Integer,
        player_id -> BigInt,
        entry_id -> Nullable<BigInt>,
        source -> Text,
        called_at -> Timestamp,
        respond_by -> Timestamp,
        state -> Text,
        acknowledged_at -> Nullable<Timestamp>,
        resolved_at -> Nullable<Timestamp>,
        created_by -> Nullable<BigInt>,
        escalated_at -> Nullable<Timestamp>,
        player_answer -> Nullable<Text>,
        answered_at -> Nullable<Timestamp>,
        extended_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    seat_holds (id) {
        id -> BigInt,
        table_id -> BigInt,
        seat_no -> Integer,
        player_id -> Nullable<BigInt>,
        reason -> Text,
        held_at -> Timestamp,
        until -> Nullable<Timestamp>,
        released_at -> Nullable<Timestamp>,
        created_by -> Nullable<BigInt>,
    }
}

diesel::table! {
    seat_change_requests (id) {
        id -> BigInt,
        table_id -> BigInt,
        player_id -> BigInt,
        requested_at -> Timestamp,
        resolved_at -> Nullable<Timestamp>,
        state -> Text,
    }
}

diesel::table! {
    must_move_refusals (id) {
        id -> BigInt,
        game_id -> BigInt,
        table_id -> BigInt,
        player_id -> BigInt,
        seating_id -> BigInt,
        choice -> Text,
        refused_at -> Timestamp,
        rejoin_after -> Nullable<Timestamp>,
        created_by -> Nullable<BigInt>,
    }
}

diesel::table! {
    draws (id) {
        id -> BigInt,
        kind -> Text,
        seed -> BigInt,
        inputs -> Text,
        result -> Text,
        game_id -> Nullable<BigInt>,
        table_id -> Nullable<BigInt>,
        created_at -> Timestamp,
        created_by -> Nullable<BigInt>,
    }
}

diesel::table! {
    events (seq) {
        seq -> BigInt,
        at -> Timestamp,
        table_id -> Nullable<BigInt>,
        kind -> Text,
        payload -> Text,
    }
}

diesel::table! {
    tablets (id) {
        id -> BigInt,
        table_id -> BigInt,
        label -> Text,
        token_version -> Integer,
        paired_at -> Timestamp,
        paired_by -> Nullable<BigInt>,
        revoked_at -> Nullable<Timestamp>,
        revoked_by -> Nullable<BigInt>,
        last_seen_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    tablet_pairings (code) {
        code -> Text,
        secret_hash -> Text,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        tablet_id -> Nullable<BigInt>,
        collected_at -> Nullable<Timestamp>,
        kiosk_id -> Nullable<BigInt>,
    }
}

diesel::table! {
    /// Tablets paired as desk kiosks (migration 000019).
    kiosks (id) {
        id -> BigInt,
        label -> Text,
        token_version -> Integer,
        paired_at -> Timestamp,
        paired_by -> Nullable<BigInt>,
        revoked_at -> Nullable<Timestamp>,
        revoked_by -> Nullable<BigInt>,
        last_seen_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    buyins (id) {
        id -> BigInt,
        seating_id -> BigInt,
        table_id -> BigInt,
        player_id -> BigInt,
        game_id -> Nullable<BigInt>,
        kind -> Text,
        amount -> BigInt,
        stack_before -> BigInt,
        rule -> Nullable<Text>,
        at -> Timestamp,
        recorded_by -> Nullable<BigInt>,
        arrived_in_hand -> Nullable<Integer>,
        approved_by -> Nullable<BigInt>,
        approved_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    chip_custody (id) {
        id -> BigInt,
        seating_id -> BigInt,
        table_id -> BigInt,
        seat_no -> Integer,
        player_id -> BigInt,
        amount -> BigInt,
        storage -> Text,
        state -> Text,
        counted_by -> BigInt,
        counted_at -> Timestamp,
        confirmed_by -> Nullable<BigInt>,
        confirmed_at -> Nullable<Timestamp>,
        resolved_at -> Nullable<Timestamp>,
        resolved_by -> Nullable<BigInt>,
        note -> Nullable<Text>,
    }
}

diesel::table! {
    service_requests (id) {
        id -> BigInt,
        table_id -> BigInt,
        kind -> Text,
        note -> Text,
        created_at -> Timestamp,
        created_by -> Nullable<BigInt>,
        handled_at -> Nullable<Timestamp>,
        handled_by -> Nullable<BigInt>,
    }
}

diesel::table! {
    hands (id) {
        id -> BigInt,
        table_id -> BigInt,
        game_id -> Nullable<BigInt>,
        number -> Integer,
        button_seat -> Nullable<Integer>,
        at -> Timestamp,
        recorded_by -> Nullable<BigInt>,
        ended_at -> Nullable<Timestamp>,
        pot -> Nullable<BigInt>,
        rake -> Nullable<BigInt>,
        preflop_no_bet -> Bool,
        result_by -> Nullable<BigInt>,
        boards -> Integer,
    }
}

diesel::joinable!(player_photos -> players (player_id));
diesel::joinable!(exclusions -> players (player_id));
diesel::joinable!(card_tables -> games (game_id));
diesel::joinable!(waitlist_entries -> players (player_id));
diesel::joinable!(seatings -> players (player_id));
diesel::table! {
    floor_messages (id) {
        id -> BigInt,
        table_id -> BigInt,
        body -> Text,
        created_at -> Timestamp,
        created_by -> Nullable<BigInt>,
        seen_at -> Nullable<Timestamp>,
        seen_by -> Nullable<BigInt>,
    }
}

diesel::table! {
    outbox (id) {
        id -> BigInt,
        player_id -> Nullable<BigInt>,
        kind -> Text,
        channel -> Text,
        recipient -> Text,
        language -> Text,
        params -> Text,
        subject -> Nullable<Text>,
        body -> Nullable<Text>,
        idem_key -> Text,
        status -> Text,
        attempts -> Integer,
        next_attempt_at -> Timestamp,
        lease_until -> Nullable<Timestamp>,
        claimed_by -> Nullable<Text>,
        last_error -> Nullable<Text>,
        provider_ref -> Nullable<Text>,
        created_at -> Timestamp,
        sent_at -> Nullable<Timestamp>,
        failed_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    outbox_attempts (id) {
        id -> BigInt,
        message_id -> BigInt,
        attempt -> Integer,
        worker -> Text,
        transport -> Text,
        started_at -> Timestamp,
        finished_at -> Nullable<Timestamp>,
        outcome -> Text,
        error -> Nullable<Text>,
        provider_ref -> Nullable<Text>,
    }
}

diesel::table! {
    notify_marks (entry_id, kind) {
        entry_id -> BigInt,
        kind -> Text,
        at -> Timestamp,
    }
}

diesel::joinable!(outbox -> players (player_id));
diesel::joinable!(outbox_attempts -> outbox (message_id));

diesel::joinable!(tablets -> card_tables (table_id));
diesel::joinable!(chip_custody -> players (player_id));
diesel::joinable!(service_requests -> card_tables (table_id));

diesel::table! {
    table_suspensions (id) {
        id -> BigInt,
        table_id -> BigInt,
        from_at -> Timestamp,
        to_at -> Nullable<Timestamp>,
    }
}
diesel::table! {
    cagnotte_sessions (id) {
        id -> BigInt,
        table_id -> BigInt,
        game_id -> BigInt,
        number -> Integer,
        started_at -> Timestamp,
        closed_at -> Nullable<Timestamp>,
        close_reason -> Nullable<Text>,
        closed_by -> Nullable<BigInt>,
        bp -> Integer,
        base -> Text,
        table_max -> Nullable<BigInt>,
        smallest_chip -> BigInt,
        length_min -> Integer,
        late_window_min -> Integer,
    }
}
diesel::table! {
    cagnotte_dues (id) {
        id -> BigInt,
        session_id -> BigInt,
        table_id -> BigInt,
        game_id -> BigInt,
        player_id -> BigInt,
        seating_id -> BigInt,
        seat_no -> Integer,
        amount -> BigInt,
        late -> Bool,
        due_at -> Timestamp,
        state -> Text,
        collected -> Nullable<BigInt>,
        settled_at -> Nullable<Timestamp>,
        settled_by -> Nullable<BigInt>,
        reason -> Nullable<Text>,
    }
}
diesel::table! {
    dealer_shifts (id) {
        id -> BigInt,
        table_id -> BigInt,
        dealer_id -> BigInt,
        started_at -> Timestamp,
        ended_at -> Nullable<Timestamp>,
    }
}
diesel::table! {
    tips (id) {
        id -> BigInt,
        table_id -> BigInt,
        game_id -> Nullable<BigInt>,
        shift_id -> Nullable<BigInt>,
        dealer_id -> Nullable<BigInt>,
        amount -> BigInt,
        at -> Timestamp,
        recorded_by -> Nullable<BigInt>,
    }
}
diesel::table! {
    drop_boxes (id) {
        id -> BigInt,
        table_id -> BigInt,
        game_id -> Nullable<BigInt>,
        shift_id -> Nullable<BigInt>,
        dealer_id -> Nullable<BigInt>,
        amount -> BigInt,
        at -> Timestamp,
        recorded_by -> Nullable<BigInt>,
    }
}
diesel::table! {
    commissions (id) {
        id -> BigInt,
        table_id -> BigInt,
        game_id -> Nullable<BigInt>,
        round -> Integer,
        player_id -> Nullable<BigInt>,
        payout -> BigInt,
        amount -> BigInt,
        at -> Timestamp,
        recorded_by -> Nullable<BigInt>,
    }
}
diesel::joinable!(cagnotte_dues -> cagnotte_sessions (session_id));
diesel::joinable!(cagnotte_dues -> players (player_id));
diesel::joinable!(dealer_shifts -> staff (dealer_id));
diesel::table! {
    dealer_roster (id) {
        id -> BigInt,
        dealer_id -> BigInt,
        clocked_in_at -> Timestamp,
        clocked_out_at -> Nullable<Timestamp>,
    }
}
diesel::table! {
    dealer_breaks (id) {
        id -> BigInt,
        dealer_id -> BigInt,
        started_at -> Timestamp,
        ended_at -> Nullable<Timestamp>,
    }
}
diesel::joinable!(dealer_roster -> staff (dealer_id));
diesel::joinable!(dealer_breaks -> staff (dealer_id));
diesel::joinable!(staff_sessions -> staff (staff_id));
diesel::table! {
    seat_preferences (player_id) {
        player_id -> BigInt,
        seats -> Text,
        avoid_tables -> Text,
        accessible -> Bool,
        wait_for_match -> Bool,
        updated_at -> Timestamp,
        updated_by -> Nullable<BigInt>,
    }
}
diesel::table! {
    accessible_seats (table_id) {
        table_id -> BigInt,
        seats -> Text,
    }
}
diesel::table! {
    pref_passes (entry_id) {
        entry_id -> BigInt,
        passes -> Integer,
        last_at -> Timestamp,
    }
}
diesel::table! {
    limit_changes (id) {
        id -> BigInt,
        table_id -> BigInt,
        game_id -> Nullable<BigInt>,
        kind -> Text,
        state -> Text,
        from_small_blind -> Nullable<BigInt>,
        from_big_blind -> Nullable<BigInt>,
        from_buy_in_min -> Nullable<BigInt>,
        from_buy_in_max -> Nullable<BigInt>,
        to_small_blind -> BigInt,
        to_big_blind -> BigInt,
        to_buy_in_min -> BigInt,
        to_buy_in_max -> Nullable<BigInt>,
        effective_at -> Nullable<Timestamp>,
        approved_at -> Timestamp,
        approved_by -> Nullable<BigInt>,
        announced_at -> Nullable<Timestamp>,
        announced_by -> Nullable<BigInt>,
        applied_at -> Nullable<Timestamp>,
        applied_by -> Nullable<BigInt>,
        applied_hand -> Nullable<Integer>,
        cancelled_at -> Nullable<Timestamp>,
        cancelled_by -> Nullable<BigInt>,
        cancel_reason -> Nullable<Text>,
    }
}

diesel::joinable!(limit_changes -> card_tables (table_id));

diesel::allow_tables_to_appear_in_same_query!(
    settings,
    sequences,
    room,
    staff,
    login_throttle,
    staff_sessions,
    players,
    player_photos,
    exclusions,
    separations,
    games,
    card_tables,
    audit_log,
    waitlist_entries,
    seatings,
    seat_calls,
    seat_holds,
    seat_change_requests,
    draws,
    events,
    must_move_refusals,
    tablets,
    tablet_pairings,
    kiosks,
    buyins,
    chip_custody,
    service_requests,
    hands,
    floor_messages,
    limit_changes,
    outbox,
    outbox_attempts,
    notify_marks,
    table_suspensions,
    cagnotte_sessions,
    cagnotte_dues,
    dealer_shifts,
    dealer_roster,
    dealer_breaks,
    tips,
    drop_boxes,
    commissions,
    join_codes,
    guests,
    guest_entries,
    phone_blocks,
    seat_preferences,
    accessible_seats,
    pref_passes,
    special_buttons,
    special_hands,
    special_contributions,
    rulings,
    ruling_players,
    held_pots,
    ruling_moves,
    ruling_move_lines,
);

// Players join from their phone (migration 000017).

diesel::table! {
    join_codes (id) {
        id -> BigInt,
        token_hash -> Text,
        phone -> Text,
        channel -> Text,
        code_hash -> Text,
        game_ids -> Text,
        guest_name -> Text,
        language -> Text,
        via -> Text,
        address -> Text,
        sent -> Bool,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        attempts -> Integer,
        used_at -> Nullable<Timestamp>,
        outcome -> Nullable<Text>,
        entries -> Integer,
    }
}

diesel::table! {
    guests (id) {
        id -> BigInt,
        full_name -> Text,
        phone -> Text,
        language -> Text,
        created_at -> Timestamp,
        player_id -> Nullable<BigInt>,
        registered_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    guest_entries (id) {
        id -> BigInt,
        guest_id -> BigInt,
        game_id -> BigInt,
        order_key -> BigInt,
        joined_at -> Timestamp,
        via -> Text,
        expires_at -> Timestamp,
        state -> Text,
        ended_at -> Nullable<Timestamp>,
        entry_id -> Nullable<BigInt>,
    }
}

diesel::table! {
    phone_blocks (phone) {
        phone -> Text,
        reason -> Text,
        blocked_at -> Timestamp,
        blocked_by -> Nullable<BigInt>,
    }
}

diesel::joinable!(guest_entries -> guests (guest_id));
diesel::joinable!(guest_entries -> games (game_id));

// BSOP 115, 116: the special buttons Cucurucho and Macaca (migration 000024).

diesel::table! {
    special_buttons (id) {
        id -> BigInt,
        table_id -> BigInt,
        kind -> Text,
        seat_no -> Integer,
        draw_id -> BigInt,
        drawn_at -> Timestamp,
        drawn_by -> Nullable<BigInt>,
        reason -> Nullable<Text>,
        pending -> Bool,
        bank -> BigInt,
        ended_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    special_hands (id) {
        id -> BigInt,
        hand_id -> BigInt,
        table_id -> BigInt,
        game_id -> Nullable<BigInt>,
        kind -> Text,
        button_id -> BigInt,
        button_seat -> Integer,
        dealer_seat -> Nullable<Integer>,
        contribution_bb -> Integer,
        big_blind -> BigInt,
        amount -> BigInt,
        bank_before -> BigInt,
        cap -> Nullable<BigInt>,
        outcome -> Nullable<Text>,
        collected -> Nullable<BigInt>,
        stake -> Nullable<BigInt>,
        bank_after -> Nullable<BigInt>,
        result_at -> Nullable<Timestamp>,
        result_by -> Nullable<BigInt>,
        at -> Timestamp,
        recorded_by -> Nullable<BigInt>,
    }
}

diesel::table! {
    special_contributions (id) {
        id -> BigInt,
        special_hand_id -> BigInt,
        table_id -> BigInt,
        seating_id -> BigInt,
        player_id -> BigInt,
        seat_no -> Integer,
        amount -> BigInt,
        took_part -> Bool,
        marked_at -> Nullable<Timestamp>,
        marked_by -> Nullable<BigInt>,
    }
}

diesel::joinable!(special_contributions -> special_hands (special_hand_id));
diesel::joinable!(special_contributions -> players (player_id));

// BSOP 16-22: the floor's rulings, held pots and the chips a decision moves (migration 000022).

diesel::table! {
    rulings (id) {
        id -> BigInt,
        table_id -> BigInt,
        game_id -> Nullable<BigInt>,
        hand_id -> Nullable<BigInt>,
        hand_number -> Nullable<Integer>,
        seats -> Text,
        note -> Text,
        asked_at -> Timestamp,
        asked_by -> Nullable<BigInt>,
        late_reason -> Nullable<Text>,
        corrects -> Nullable<BigInt>,
        decision -> Nullable<Text>,
        rule_cited -> Nullable<Text>,
        result_stands -> Nullable<Bool>,
        override_reason -> Nullable<Text>,
        decided_at -> Nullable<Timestamp>,
        decided_by -> Nullable<BigInt>,
    }
}

diesel::table! {
    ruling_players (ruling_id, player_id) {
        ruling_id -> BigInt,
        player_id -> BigInt,
        seat_no -> Nullable<Integer>,
        named_at -> Text,
    }
}

diesel::table! {
    held_pots (id) {
        id -> BigInt,
        ruling_id -> BigInt,
        table_id -> BigInt,
        amount -> BigInt,
        seats -> Text,
        storage -> Text,
        state -> Text,
        held_at -> Timestamp,
        held_by -> Nullable<BigInt>,
        released_at -> Nullable<Timestamp>,
        released_by -> Nullable<BigInt>,
    }
}

diesel::table! {
    ruling_moves (id) {
        id -> BigInt,
        ruling_id -> BigInt,
        table_id -> BigInt,
        held_pot_id -> Nullable<BigInt>,
        state -> Text,
        recorded_by -> BigInt,
        recorded_at -> Timestamp,
        confirmed_by -> Nullable<BigInt>,
        confirmed_at -> Nullable<Timestamp>,
        cancelled_by -> Nullable<BigInt>,
        cancelled_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    ruling_move_lines (move_id, line_no) {
        move_id -> BigInt,
        line_no -> Integer,
        kind -> Text,
        from_player_id -> Nullable<BigInt>,
        to_player_id -> BigInt,
        amount -> BigInt,
    }
}

diesel::joinable!(rulings -> card_tables (table_id));
diesel::joinable!(ruling_players -> rulings (ruling_id));
diesel::joinable!(ruling_players -> players (player_id));
diesel::joinable!(held_pots -> rulings (ruling_id));
diesel::joinable!(ruling_move_lines -> ruling_moves (move_id));

diesel::table! {
    /// The answers to requests sent with an idempotency key (migration 000033).
    idempotency_keys (scope, idem_key) {
        scope -> Text,
        idem_key -> Text,
        request_hash -> Text,
        created_at -> Timestamp,
        status -> Nullable<Integer>,
        content_type -> Nullable<Text>,
        location -> Nullable<Text>,
        set_cookie -> Nullable<Text>,
        body -> Nullable<Binary>,
        body_dropped -> Bool,
    }
}
