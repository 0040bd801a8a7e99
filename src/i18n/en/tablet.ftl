# The dealer tablet: pairing, seat map, calls, actions.

tablet-pair-title = Pair this tablet
tablet-pair-intro = Ask a floor manager to pair this tablet with its table. They enter this code under Floor → Tablets.
tablet-pair-code = Pairing code
tablet-pair-valid-until = The code is valid until { $time }.
tablet-pair-waiting = Waiting for the floor… this page moves on by itself.
tablet-table = Table { $number }
tablet-sign-out = Sign out
tablet-no-game = No game at this table
tablet-calls = Seat calls
tablet-seat = Seat { $seat }
tablet-call-source-list = from the waiting list
tablet-call-source-must_move = must-move
tablet-call-source-seat_change = seat change
tablet-ack = Acknowledge
tablet-arrived = Player arrived: seat
tablet-since = since { $time }
tablet-free = free
floor-call-acked = Acknowledged
floor-call-acked-hint = The dealer acknowledged the call on the table's tablet.
floor-call-escalated = Not acknowledged
floor-call-escalated-hint = The table has not acknowledged this call in time: check with the dealer.
floor-tablets = Tablets
tablets-title = Dealer tablets
tablets-pair = Pair a tablet
tablets-pair-help = Open /tablet on the tablet: it shows a six-character code. Enter it here with the table.
tablets-code = Code shown on the tablet
tablets-table = Table
tablets-label = Name
tablets-pair-action = Pair
tablets-paired = Tablet “{ $label }” paired.
tablets-paired-list = Paired tablets
tablets-none = No tablet is paired.
tablets-paired-at = Paired
tablets-last-seen = Last seen
tablets-revoke = Revoke
err-pairing-code-format = The code has { $len } letters and digits.
err-pairing-code-unknown = No tablet shows this code. Check the code on the tablet.
err-pairing-code-used = This code has already been used. Reload the tablet for a new one.
err-pairing-code-expired = This code has expired. Reload the tablet for a new one.
err-pairing-expired = The pairing code expired; a new one is shown.
err-tablet-revoked = This tablet has been revoked.
err-tablet-not-paired = This device is not a paired tablet. Open /tablet to pair it.

## Table tools
tablet-hands-today = { $count ->
    [one] 1 hand in the last 24 h
   *[other] { $count } hands in the last 24 h
}
tablet-new-hand = New hand
tablet-service-floor = Call the floor
tablet-service-chips = Chips
tablet-service-decision = Decision
tablet-service-sent = sent
tablet-buyin-required = Buy-in required:
tablet-buyin-exactly = exactly { $amount }
tablet-buyin-at-least = at least { $amount }
tablet-buyin-amount = Buy-in amount
tablet-seat-with-buyin = Seat with this buy-in

## Seats
tablet-bought-in = bought in { $amount }
tablet-away = Away
tablet-removal-due = Due for chip removal
tablet-removal-counting = Removal being counted
tablet-missed-blind-button = Missed-blind button
tablet-missed-blind-short = Missed blind
tablet-absence-button = Absence button
tablet-absence-short = Absent
tablet-resting = Resting
tablet-no-bet = No bet this hand
tablet-rebuy-needed = Rebuy needed
tablet-rebuy-needed-help = The stack is below the table minimum: the player must rebuy to keep playing (PT-2007 79).
tablet-protected = Button / small blind
tablet-sat-at = Seated at
tablet-stack = Stack
tablet-total-bought-in = Total bought in
tablet-min-stay-until = Winner: may leave at

## Seat actions
tablet-presence = At the table
tablet-mark-away = Player away
tablet-back = Player back
tablet-away-since = Away since { $time }
tablet-removal-in = chips removable in
tablet-missed-small = Missed small blind
tablet-missed-big = Missed big blind
tablet-missed-counts = Small blinds missed: { $sb }
tablet-missed-counts-bb = big blinds missed: { $bb }
tablet-blinds-settled = Missed blinds settled
tablet-extend = Extend the absence
tablet-extend-minutes = Minutes
tablet-extend-reason = Reason
tablet-hand = This hand
tablet-hand-help = Mark a player resting, or who has not bet in this hand, before tapping “New hand”.
tablet-buyin = Buy-in
tablet-rebuy = Rebuy
tablet-stack-now = Stack now
tablet-amount = Amount
tablet-stack-counted = Stack counted
tablet-count = Save the count
tablet-cash-out = Leave the table
tablet-cash-out-action = Cash out
tablet-override-reason = Override reason (floor)
tablet-change-table = Change table with the stack
tablet-change-table-action = Change table
tablet-cave-lost = The player has lost their whole stack (PT-2007 26)

## Chip removal (BSOP 36)
tablet-removal-help = Count the chips, say where they are kept, then a second staff member counts again and confirms.
tablet-removal-amount = Amount counted
tablet-removal-storage = Kept at (box, rack, cage)
tablet-removal-start = Take the chips off
tablet-removal-confirm = Second count
tablet-removal-counted = First count: { $amount }
tablet-removal-storage-was = kept at { $storage }
tablet-removal-second-help = A different staff member counts the chips and signs here (or a floor manager confirms on the floor's custody page).
tablet-second-username = Second staff: username
tablet-second-password = Password
tablet-removal-confirm-action = Confirm and free the seat
tablet-removal-cancel = Cancel the count

## Custody (floor)
custody-title = Chips in custody
custody-intro = Chips taken off the tables for absence (BSOP 36), counted by two staff members, until the player reclaims them or the cashier settles them.
custody-none = No chips in custody.
custody-when = Counted
custody-player = Player
custody-amount = Amount
custody-storage = Kept at
custody-state = State
custody-state-counting = Waiting for the second count
custody-state-held = In custody
custody-state-reclaimed = Reclaimed
custody-state-settled = Settled
custody-state-cancelled = Cancelled
custody-recount = Amount
custody-confirm = Confirm count
custody-reclaimed = Reclaimed by the player
custody-settled = Settled
custody-note = Note

## Refusals
err-amount-negative = The amount cannot be negative.
err-buyin-required = Enter the buy-in amount.
err-already-away = The player is already marked away.
err-not-away = The player is not marked away.
err-still-away = The player is still away: mark them back first.
err-override-floor-only = Only a floor manager can override the minimum stay.
err-extend-floor-only = Only a floor manager can extend an absence.
err-removal-not-due = The chips may not be removed yet (BSOP 36): { $minutes ->
    [one] 1 minute left.
   *[other] { $minutes } minutes left.
}
err-removal-pending = A count of these chips is already waiting for confirmation.
err-custody-not-counting = This count is no longer waiting for confirmation.
err-custody-same-staff = The second count must be made by a different staff member.
err-custody-amount-differs = The counts differ ({ $first } and { $second }): count again.
err-custody-not-held = These chips are no longer in custody.
err-custody-how = Choose reclaimed or settled.
err-table-not-running = The table is not in play.
err-service-kind = Choose floor or chips (a decision is asked for as a ruling).
err-blind-kind = Choose the small or the big blind.

## Floor dashboard alerts
floor-alerts = Alerts from the tables
floor-alert-table = Table { $table }
floor-service-handled = Handled
floor-removal-due-time = away too long: the chips may be taken off (BSOP 36).
floor-removal-due-blinds = missed the big blind twice: the chips may be taken off (BSOP 36).
tablet-move-due-table = Moves now to table { $table }
tablet-must-move-table = Must-move table

## Audit trail: table-side actions
action-seat-call_ack = Seat call acknowledged at the table
action-seat-call_escalated = Seat call not acknowledged in time (escalated)
action-tablet-pair = Tablet paired with a table
action-tablet-revoke = Tablet revoked
action-seat-buyin = Buy-in
action-seat-rebuy = Rebuy (PT-2007 79)
action-seat-count = Stack counted
action-seat-cash_out = Cashed out
action-seat-min_stay_override = Minimum stay overridden by the floor (BSOP 38)
action-seat-transfer_stack = Changed table with the stack (BSOP 27)
action-seat-chips_approved = Chips approved for the hand in play (BSOP 28)
action-table-macaca_closed = The table closed with chips of the Macaca to settle (BSOP 116)
action-seat-away = Marked away (BSOP 36)
action-seat-back = Back at the table
action-seat-missed_blind = Missed a blind (BSOP 36)
action-seat-blinds_settled = Missed blinds settled (BSOP 39, PT-2007 90)
action-seat-absence_extended = Absence extended by the floor (BSOP 36)
action-seat-removal_due = Due for chip removal (BSOP 36)
action-seat-hand_flags = Resting / no bet marked
action-custody-count = Chips counted for removal (first count)
action-custody-held = Chips put in custody (second count)
action-custody-cancelled = Removal count cancelled
action-custody-reclaimed = Chips reclaimed from custody
action-custody-settled = Chips in custody settled
action-table-hand = New hand
action-service-request = Request to the floor
action-service-handled = Request handled

# Messages from the floor to a table's tablet
messages-title = Messages to the tables
messages-help = A message stays on the table's tablet until the dealer taps "Seen". You see here who saw it and when.
messages-no-tablet = No table has a paired tablet yet: pair one above to send it messages.
messages-body = Message
messages-send = Send to the tablet
messages-sent = Message sent to table { $table }.
messages-sent-at = Sent
messages-from = From
messages-seen = Seen
messages-not-seen = Not seen yet
messages-from-floor = From the floor
messages-mark-seen = Seen
err-message-no-tablet = Table { $table } has no paired tablet: nobody would see the message. Pair a tablet with it first.
action-message-sent = Message to a table
action-message-seen = Message seen by the dealer
tablet-sign-out-confirm = Tap again to sign out
tablet-live-stale = This seat changed while you were typing: what you typed is kept.
tablet-live-reload = Show the latest
tablet-pair-qr-alt = QR code: opens the floor's pairing form with this code
tablet-pair-qr-help = Or scan this with a floor manager's phone: it opens the pairing form with the code filled in.

## Cagnotte at the table
err-hand-none-to-record = No hand has been dealt at this table yet: there is no pot or rake to record.
rules-rake-session-game = This game's cagnotte is taken per session: no rake is taken from the pot (PT-2007 7).
rules-cagnotte-over-due = At most { $max }: that is what this player owes for the session (PT-2007 7b).
err-session-closed = This session has already been closed.
err-session-none = No cagnotte session is open at this table.
err-session-hour-not-up = The hour of play is not up yet: the session cannot be closed (PT-2007 7b).
err-due-settled = This amount has already been collected or exempted.
err-due-player-left = The player is no longer seated at this table: the percentage cannot be taken from their chips. Not collected — the floor may exempt it, with a reason.
err-reason-required = Give a reason.
err-shift-none = No dealer shift is open at this table.
err-commission-not-thirteen = A commission on the payout is taken only in the 13-card game (MO-13 11).
err-player-not-seated-here = This player is not seated at this table.
action-cagnotte-session_start = Cagnotte session started
action-cagnotte-session_close = Cagnotte session closed
action-cagnotte-due = Cagnotte due
action-cagnotte-due_cave = Cagnotte due set from the buy-in
action-cagnotte-collected = Cagnotte collected
action-cagnotte-exempt = Cagnotte exempted
action-cagnotte-rake = Pot and rake recorded
action-cagnotte-tip = Tip recorded
action-cagnotte-drop = Drop box recorded
action-cagnotte-commission = Commission recorded
action-shift-start = Dealer shift started
action-shift-end = Dealer shift ended
cagnotte-title = Cagnotte
cagnotte-session = Cagnotte session { $number }
cagnotte-session-since = since { $time }
cagnotte-hour-up = Hour up: the next hand over closes the session
cagnotte-hour-up-at = hour up at { $time }
cagnotte-paused = Suspended: the hour is paused
cagnotte-to-collect = To collect: { $amount }
cagnotte-late = late seat
cagnotte-collect = Collect
cagnotte-state-due = Due
cagnotte-state-collected = Collected
cagnotte-state-exempt = Exempt
cagnotte-pot = Pot
cagnotte-rake = Rake
cagnotte-no-flop = No flop, no bet
cagnotte-seat-due = Owes { $amount }
shift-title = Dealer shift
shift-tip-amount = Tips
shift-record-tip = Record tips
shift-payout = Winner's payout
shift-record-commission = Record 2 % commission
shift-drop-amount = Drop box total
shift-drop-and-end = Record drop box and end shift
shift-end = End my shift
floor-cagnotte-title = Cagnotte
floor-cagnotte-intro = Each table's cagnotte session (PT-2007 7b: one hour of play plus the hand in progress; players seated up to 30 minutes after the start also owe), what is still due, and exemptions with a reason.
floor-cagnotte-open-dues = Still to collect
floor-cagnotte-no-dues = Nothing is waiting to be collected.
floor-cagnotte-sessions = Open sessions
floor-cagnotte-no-sessions = No table has a cagnotte session open.
floor-cagnotte-table = Table
floor-cagnotte-table-n = Table { $table }
floor-cagnotte-seat = Seat
floor-cagnotte-player = Player
floor-cagnotte-amount = Amount
floor-cagnotte-due-at = Due since
floor-cagnotte-state = State
floor-cagnotte-reason = Reason for the exemption
floor-cagnotte-exempt = Exempt
floor-cagnotte-close = Close the session
floor-session-up = The cagnotte session's hour of play is up: the next hand over closes it, or close it yourself (PT-2007 7b).
floor-dues-late = { $count ->
    [one] One session due has waited more than 15 minutes to be collected.
   *[other] { $count } session dues have waited more than 15 minutes to be collected.
}
err-hand-below-minimum = No hand may be dealt: a game may neither start nor continue with fewer than { $min } players (PT-2007 24), and { $seated } { $seated ->
    [one] is
   *[other] are
} seated.
# registration
tablet-button = Button
tablet-small-blind = Small blind
# kiosk
kiosks-title = Desk kiosks
kiosks-help = A tablet at the desk where walk-ins join the waiting lists by themselves (their phone, the lists, a code sent to the phone). Pair it with its code above, choosing “Desk kiosk” instead of a table.
kiosks-none = No desk kiosk is paired.
kiosks-pair-choice = Desk kiosk (no table)
action-kiosk-pair = Tablet paired as the desk kiosk
action-kiosk-revoke = Desk kiosk revoked
err-kiosk-not-paired = This device is not a paired desk kiosk. A floor manager pairs it under Floor → Tablets (open /tablet on it for the code).
err-kiosk-revoked = This desk kiosk has been revoked.
err-pairing-kiosk = This code was paired as a desk kiosk: open /tablet in the kiosk's browser.
err-kiosk-pref-expired = This screen has expired. Touch “Done” and start again.
kiosk-title = Join a waiting list
kiosk-language = Language
kiosk-cancel = Cancel
kiosk-start-title = Join a waiting list
kiosk-start-lead = Type your phone number, then choose your lists: a code sent to your phone confirms the number is yours.
kiosk-next = Next
kiosk-private = Nothing you type stays on this screen: it clears itself after a short while, or when you touch “Done”.
kiosk-on-lists = { $count ->
    [one] You are on the list
   *[other] You are on the lists
}
kiosk-place = place { $place }
kiosk-pref-open = Seat preference (optional)
kiosk-pref-saved = Your seat preference is saved
kiosk-done = Done
