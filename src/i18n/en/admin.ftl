# Admin pages: room and rule profile, games, tables, staff, audit trail.

## Shared

admin-saved = Saved.
admin-status = Status
admin-active = Active
admin-inactive = Inactive
admin-history = History
admin-range = Allowed: { $min } to { $max }.
admin-range-minutes = Allowed: { $min } to { $max } minutes.
admin-range-minutes-fixed = Fixed: { $value } minutes.
admin-range-percent = Allowed: { $min } % to { $max } %.

## Room

admin-room-title = Room and rules
admin-room-general = Room
admin-room-name = Room name
admin-room-timezone = Time zone
admin-room-timezone-hint = An IANA time zone, e.g. Europe/Lisbon. Dates and times are shown and typed in it.
admin-room-currency = Currency
admin-room-currency-hint = Amounts are kept in cents; changing the currency does not convert them.
admin-room-language = Default language
admin-room-language-hint = Used wherever nobody has chosen a language.

## Rule profile

admin-profile-kind = Rule profile
admin-profile-kind-hint = Where the rule texts disagree, the profile decides. To follow another profile, or to go back to a profile's defaults, see first which house rules would change:
admin-profile-title = House rules
admin-profile-intro = Every number the floor works with. Each setting cites the rule it comes from and only takes the values that rule allows.
admin-profile-switch-title = Switch the rule profile
admin-profile-switch-hint = Choose a profile to see which house rules differ from its defaults; you then confirm, rule by rule, which defaults to apply. Choosing the profile the room follows shows what going back to its defaults would change. The room's name, time zone, currency and language stay as they are.
admin-profile-switch-show = Show what would change
admin-profile-switch-page-title = Switch to { $profile }
admin-profile-switch-intro = The room follows the { $from } profile. These house rules differ from the defaults of { $to }: each one ticked takes the new default, each one unticked keeps its value. The profile becomes { $to } either way.
admin-profile-switch-reset-intro = These house rules differ from the defaults of { $to }: each one ticked goes back to its default, each one unticked keeps its value.
admin-profile-switch-none = No house rule differs from the defaults of { $to }: switching changes only the profile's name.
admin-profile-switch-none-same = Every house rule has the default of { $to }: there is nothing to change.
admin-profile-switch-setting = House rule
admin-profile-switch-now = Now
admin-profile-switch-default = Default of { $profile }
admin-profile-switch-apply = Apply
admin-profile-switch-untick = Untick a rule to keep the room's value.
admin-profile-switch-submit = Switch to { $profile }
admin-profile-switch-reset-submit = Apply the ticked defaults
admin-profile-minutes = { $n } min
admin-profile-yes = Yes
admin-profile-no = No
profile-pt-casino = Portuguese casino (PT-2007)
profile-bsop = BSOP (Brazil)

admin-profile-group-running = Running a game
admin-profile-note-running = PT-2007 24: a game with fewer players than the minimum is suspended, and closes if it does not get back to the minimum in time (PT-ONL 7 runs with 2).
admin-profile-group-absence = Absence and return
admin-profile-note-absence = BSOP 36: an absent player's chips may be removed after the absence limit or the missed big blinds. BSOP 26, 37: the return window. PT-2007 90 and BSOP 39: missed blinds.
admin-profile-group-stay = Minimum stay
admin-profile-note-stay = BSOP 38: a winning player stays at least 1 hour at a Mid Limit table and 2 hours at a High Limit table.
admin-profile-group-cagnotte = Cagnotte (house percentage)
admin-profile-note-cagnotte = PT-2007 7: the house takes its percentage per hand (7a, up to 5 %) or per session (7b, 5 % to 20 % per hour of play). PT-ONL 18: no flop, no drop. PT-2007 28: joining a session game.
admin-profile-group-calls = Waiting list and seat calls
admin-profile-note-calls = How long a called player has to answer, what happens when they do not, how long telephone entries last and when the floor is alerted.
admin-profile-group-dealers = Dealers: downs and breaks
admin-profile-note-dealers = How long a dealer deals at one table before the next push, and when a break is due. The rule must give every dealer a break within a 12-hour night.

admin-profile-min-players-to-run = Minimum players to run a game
admin-profile-min-players-to-run-hint = PT-2007 24: with fewer players the game is suspended.
admin-profile-suspension-grace-min = Suspension grace period (minutes)
admin-profile-suspension-grace-min-hint = PT-2007 24: a suspended game closes if it is not back to the minimum within this time.
admin-profile-absence-limit-min = Absence limit (minutes)
admin-profile-absence-limit-min-hint = BSOP 36: an absent player's chips may be removed after this time.
admin-profile-missed-bb-before-removal = Missed big blinds before removal
admin-profile-missed-bb-before-removal-hint = BSOP 36: or once the player has missed this many big blinds.
admin-profile-return-window-min = Return window (minutes)
admin-profile-return-window-min-hint = BSOP 26, 37: a player who leaves and comes back within this time counts as returning.
admin-profile-missed-blinds-dead = Missed blinds are paid dead on return
admin-profile-missed-blinds-dead-hint = PT-2007 90. Unticked, BSOP 39 applies: post the missed blinds or wait for the big blind.
admin-profile-min-stay-mid-min = Minimum stay at Mid Limit (minutes)
admin-profile-min-stay-mid-min-hint = BSOP 38: a winner at a Mid Limit table stays at least this long.
admin-profile-min-stay-high-min = Minimum stay at High Limit (minutes)
admin-profile-min-stay-high-min-hint = BSOP 38: a winner at a High Limit table stays at least this long; never less than at Mid Limit.
admin-profile-cagnotte-mode = Default cagnotte mode for new games
admin-profile-cagnotte-mode-hint = PT-2007 7: per hand (7a) or per session (7b).
admin-profile-rake-percent-bp = Cagnotte per hand (%)
admin-profile-rake-percent-bp-hint = PT-2007 7a: at most 5 % of each pot.
admin-profile-session-percent-bp = Cagnotte per session (%)
admin-profile-session-percent-bp-hint = PT-2007 7b: 5 % to 20 % per session.
admin-profile-session-length-min = Session length (minutes)
admin-profile-session-length-min-hint = PT-2007 7b: one hour of play, plus the hand in progress.
admin-profile-late-seat-window-min = Late seating window (minutes)
admin-profile-late-seat-window-min-hint = PT-2007 7b: players seated up to this long after a session starts also pay for it.
admin-profile-no-flop-no-drop = No flop, no drop
admin-profile-no-flop-no-drop-hint = PT-ONL 18: no cagnotte on a hand that ends before the flop without a voluntary bet.
admin-profile-join-at-average-stack = Join games under way at the average stack
admin-profile-join-at-average-stack-hint = PT-2007 28: a player taking a seat in a game under way buys in for the table's average capital.
admin-profile-join-at-average-session-only = Average stack only in session games
admin-profile-join-at-average-session-only-hint = PT-2007 28 names no mode: leave this off to apply it to every game under way; on, continuous games use their own buy-in range.
admin-profile-seat-call-response-min = Time to answer a seat call (minutes)
admin-profile-seat-call-response-min-hint = How long a called player has to come to the table.
admin-profile-call-expiry = When a seat call expires
admin-profile-call-expiry-hint = What happens to a called player who does not answer in time.
admin-profile-call-in-expiry-min = Telephone entries last (minutes)
admin-profile-call-in-expiry-min-hint = A call-in list entry is dropped if the player has not checked in within this time.
admin-profile-seat-call-ack-escalation-min = Alert on unacknowledged calls after (minutes)
admin-profile-seat-call-ack-escalation-min-hint = A seat call nobody has acknowledged is flagged on the floor dashboard after this time.

cagnotte-per_hand = Per hand
cagnotte-per_session = Per session
call-expiry-bottom = Move to the bottom of the list
call-expiry-remove = Remove from the list

## Games

admin-games-title = Games
admin-games-none = No games yet. Create the first one below.
admin-game-new = New game
admin-game-create = Create game
admin-game-edit = Edit game
admin-game-name = Name
admin-game-variant = Variant
admin-game-blinds = Blinds
admin-game-small-blind = Small blind
admin-game-big-blind = Big blind
admin-game-blinds-hint = In whole units, e.g. 2.50. Banked games (Q Poker, 13 cards) have no blinds: leave both empty.
admin-game-limit = Limit class
admin-game-limit-hint = BSOP 38: sets a winner's minimum stay.
admin-game-buy-in = Buy-in
admin-game-buy-in-min = Minimum buy-in
admin-game-buy-in-max = Maximum buy-in
admin-game-buy-in-max-hint = Optional: empty means no maximum (BSOP 27).
admin-game-no-max = no maximum
admin-game-seats = Seats
admin-game-seats-hint = Optional: empty uses the variant's default (PT-2007 6, BSOP 92, MO-QP 2, MO-13 3):
admin-game-cagnotte = Cagnotte
admin-game-cagnotte-mode = Cagnotte mode
admin-game-cagnotte-percent = Cagnotte (%)
admin-game-cagnotte-hint = Optional; PT-2007 7: per hand up to 5 %, per session 5 % to 20 %.
admin-game-cagnotte-default = Room default: { $mode }, { $hand } % per hand, { $session } % per session.
admin-game-profile-default = Room default
admin-game-active-hint = An inactive game is kept, but no longer offered.

variant-holdem_nl = Hold'em No Limit
variant-holdem_pl = Hold'em Pot Limit
variant-holdem_limit = Hold'em Limit
variant-plo = Pot Limit Omaha
variant-omaha = Omaha
variant-short_deck_holdem = Short Deck Hold'em
variant-short_deck_plo = Short Deck PLO
variant-synthetic = Synthetic poker
variant-q_poker = Q Poker
variant-thirteen_cards = 13 cards
limit-low = Low Limit
limit-mid = Mid Limit
limit-high = High Limit

## Tables

admin-tables-title = Tables
admin-tables-none = No tables yet. Create the first one below.
admin-table-new = New table
admin-table-create = Create table
admin-table-title = Table { $number }
admin-table-number = Number
admin-table-number-hint = 1 to 999, unique in the room.
admin-table-seats = Seats
admin-table-seats-hint = Optional: empty uses the game's seats (10 without a game). PT-2007 6: at most 11.
admin-table-game = Game
admin-table-no-game = No game
admin-table-mode = Mode
admin-table-mode-hint = PT-2007 74: a table runs continuously or in sessions.
admin-table-state = State
admin-table-active = Active
admin-table-inactive = Inactive
admin-table-active-hint = An inactive table is kept, but not used for seating.
mode-continuous = Continuous
mode-session = In sessions
table-state-closed = Closed
table-state-open = Open
table-state-suspended = Suspended

## Staff

admin-staff-title = Staff
admin-staff-new = New staff member
admin-staff-create = Create account
admin-staff-display-name = Display name
admin-staff-role = Role
admin-staff-role-hint = Admin: settings, staff and audit. Floor: player registry and floor. Dealer: the table tablet. Cashier: looks players up.
admin-staff-created = Created
admin-staff-updated = Last changed
admin-staff-username-hint = Lower-case letters, digits, dot, dash and underscore; up to 32. It cannot be changed later.
admin-staff-username-fixed = A username never changes.
admin-staff-initial-password = Initial password
admin-staff-password-hint = At least 10 characters. Hand it to the person, who should change it after signing in.
admin-staff-password = Password
admin-staff-new-password = New password
admin-staff-new-password-hint = Leave empty to keep the current one. Setting a new one signs the person out everywhere.
admin-staff-active-hint = An inactive account cannot sign in; its open sessions end at once.
admin-staff-is-me = This is your own account: you cannot take away your admin role or deactivate yourself.

## Audit trail

admin-audit-title = Audit trail
admin-audit-action = Action
admin-audit-action-hint = An action or its beginning, e.g. player. or game.update
admin-audit-actor-hint = username
admin-audit-subject = Subject
admin-audit-subject-kind = Subject type
admin-audit-subject-id = Subject number
admin-audit-kind-any = Any
admin-audit-kind-player = Player
admin-audit-kind-staff = Staff member
admin-audit-kind-game = Game
admin-audit-kind-table = Table
admin-audit-kind-room = Room
admin-audit-dates-hint = Dates in the room's time zone ({ $zone }).
admin-audit-to-hint = Includes the whole day.
admin-audit-page-size = Records per page
admin-audit-page-size-hint = 1 to 200 (default 50).
admin-audit-clear = Clear filters
admin-audit-bad-filter = Some filters are not valid:
admin-audit-fix-filter = Correct the filters above to see the records.
admin-audit-none = No records match.
admin-audit-seq = No.
admin-audit-change = Change
admin-audit-show = Before → after
admin-audit-before = Before:
admin-audit-after = After:
admin-audit-hash = Hash
admin-audit-pages = Pages
admin-audit-newest = ← Newest
admin-audit-older = Older
admin-audit-verify = Verify the chain
admin-audit-verify-intro = Recomputes every record's hash, checks that each record links to the one before it, and checks the signed checkpoints kept outside the database: cutting records off the end, deleting, inserting or rewriting records (even with every hash recomputed) shows here.
admin-audit-verify-ok = Chain intact: { $count ->
    [one] 1 record verified.
   *[other] { $count } records verified.
}
admin-audit-verify-broken = The chain is broken at record { $seq }.
admin-audit-verify-broken-unknown = The chain is broken.
admin-audit-verify-checked = { $count ->
    [one] 1 record before it verified.
   *[other] { $count } records before it verified.
}
admin-audit-verify-show = Show the records around it
admin-audit-broken-tampered = The record's content does not match its hash: it was changed after it was written.
admin-audit-broken-unlinked = The record does not link to the record before it.
admin-audit-broken-gap = Records are missing before this one.

## Field messages of these pages

admin-err-percent-range = Must be between { $min } % and { $max } %.

## Messages to players
action-message-retry = Message to a player sent again (retry now)
action-message-failed = Message to a player failed (no more attempts)
action-player-links_revoked = Player's links revoked

## Cagnotte settings
admin-game-cagnotte-base = Session percentage of
admin-game-cagnotte-base-hint = PT-2007 7b: the table maximum or the player's buy-in, by variant.
admin-game-rake-cap = Rake cap per hand
admin-game-rake-cap-hint = Optional; PT-2007 7a. Empty: only the percentage limits the rake.
table-policy-must_move = Must-move
table-policy-balanced = Balanced
admin-game-table-policy = Extra tables
admin-game-table-policy-hint = BSOP 55: the newest table is a must-move table that feeds the main games in list order; BSOP 58: balanced, new players go to the table that needs one most. A change applies when a table of the game next opens or breaks.
board-policy-pending = { $policy } from the next table opened or broken
admin-game-smallest-chip = Smallest chip
admin-game-colour = Colour on the floor board
admin-game-colour-hint = Each game's tables and list carry this colour on the floor.
admin-game-smallest-chip-hint = Optional; BSOP 80: what the house takes is rounded down to it. Empty: from the blinds.
admin-game-cagnotte-base-auto = The table maximum if the game has one, else the player's buy-in
nav-backups = Backups
admin-backups = Backups
admin-backups-now = Back up now
admin-backups-intro = The server copies the database while the room plays, checks each copy (integrity and the whole audit trail) and only then keeps it. Restore one with `cardroom restore FILE`, with the server stopped.
admin-backups-where = In { $dir }
admin-backups-every = every { $minutes } minutes
admin-backups-keep = the newest { $count } kept
admin-backups-none-yet = No backup yet: the first is made one interval after the start, or now with the button.
admin-backups-file = File
admin-backups-taken = Taken at
admin-backups-size = Size
admin-backups-check = Check
admin-backups-checked = Integrity and audit trail verified
admin-backups-failed = The last backup failed ({ $time }):
admin-backups-off = Scheduled backups are off. Set CARDROOM_BACKUP_DIR (and CARDROOM_BACKUP_EVERY_MIN, CARDROOM_BACKUP_KEEP) to turn them on; `cardroom backup` makes one at any time.
admin-backups-postgres = The database is PostgreSQL: back it up with PostgreSQL's own tools (pg_dump, WAL archiving). `cardroom backup` prints a ready command.
backup-alert = The last backup of the room's database failed ({ $time }). Until one succeeds, a disk failure could lose tonight's records.
admin-staff-sessions-open = { $count ->
    [0] No session or API token of this person is open.
    [one] 1 session or API token of this person is open.
   *[other] { $count } sessions or API tokens of this person are open.
}
admin-staff-sessions-end = End all their sessions and API tokens
admin-audit-broken-truncated = A record a signed checkpoint vouched for is gone: the trail was cut short or records were deleted.
admin-audit-broken-rewritten = A record a signed checkpoint vouched for has changed (it, or a record before it, was rewritten and the chain recomputed).
admin-audit-broken-checkpoint_forged = A line of the checkpoint file does not carry a valid signature: the file was edited (the number above is the line).
admin-audit-broken-checkpoints_reordered = The checkpoint file goes backwards: it was cut and written again (the number above is the line).
admin-audit-broken-checkpoints_missing = The checkpoint file is missing: nothing outside the database vouches for the records.
admin-audit-verify-sealed = Signed checkpoints vouch for every record up to { $seq }.
admin-audit-verify-checkpoints = { $count ->
    [one] 1 checkpoint checked
   *[other] { $count } checkpoints checked
}
admin-audit-verify-limits = Not detectable: changes to the records of the last minute (not yet in a checkpoint), and changes by someone holding the signing key, the checkpoint file and the database together. Keep a copy of the checkpoint file elsewhere.

# join
admin-profile-remote-max-lists = Lists a player may join from their phone
admin-profile-remote-max-lists-hint = How many waiting lists one player may join at once from the join page (the lobby's QR code).

# seat preferences
admin-profile-pref-max-passes = Seats a player may let go by while waiting for a preferred seat
admin-profile-pref-max-passes-hint = A listed player who asked to wait for a seat that fits their preference keeps their place while this many seats go to others; then they are called like anyone. 0: preferences never hold a seat back.
admin-profile-push-down-min = Down (minutes at one table)
admin-profile-push-down-min-hint = From 10 to 90 minutes. When it is up, the next dealer relieves the table.
admin-profile-push-break-min = Break (minutes)
admin-profile-push-break-min-hint = From 5 to 60 minutes.
admin-profile-push-break-after-downs = Break after this many downs
admin-profile-push-break-after-downs-hint = 0 to 24; 0: only the time rule below.
admin-profile-push-break-after-min = Break after this long dealing (minutes)
admin-profile-push-break-after-min-hint = 0 to 720; 0: only the downs rule above. When both are set, the first one reached gives the break.
admin-profile-tips-pooled = Tips pooled
admin-profile-tips-pooled-hint = PT-2007 5, 9d: the tips of every down are shared among the dealers by hours dealt (the dealers' report shows each one's share). Unticked: each down keeps its own tips box.
admin-table-accessible-seats = Seats kept for accessibility needs (BSOP 45)
admin-table-accessible-seats-hint = Seat numbers, e.g. 1, 10. A player who needs an accessible seat is offered one of these.
