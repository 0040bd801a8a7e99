# The floor's rulings, held pots and the incident log (BSOP 16-22).

## Asking (the tablet, the floor's board)
ruling-ask = Ask for a ruling
ruling-ask-title = Ask the floor for a ruling
ruling-ask-intro = Call the floor as soon as the error happens (BSOP 18): a ruling must be asked for before the next hand starts, before the table breaks or a player involved moves; otherwise the hand's result stands (BSOP 19).
ruling-new-title = Open a ruling at table { $table }
ruling-hand = Hand
ruling-hand-in-play = Hand #{ $hand } (in play)
ruling-hand-previous = Hand #{ $hand } (the previous one: late, BSOP 19)
ruling-no-hand = No hand dealt yet at this table.
ruling-seats = Seats involved
ruling-no-seats = Nobody is seated.
ruling-note = What happened
ruling-note-hint = A few words, e.g. “pot pushed to seat 3; seat 7 showed the better hand”.
ruling-send = Ask for the ruling
ruling-back = Back to the table
ruling-asked-flash = Ruling #{ $id } asked for: the floor sees it now.

## A ruling
ruling-title = Ruling #{ $id }
ruling-state-open = Waiting for the floor
ruling-state-decided = Decided
ruling-late-short = Late (BSOP 19)
ruling-late-next_hand = Asked after the next hand started (BSOP 19)
ruling-late-table_broken = Asked after the table broke (BSOP 19)
ruling-late-player_moved = Asked after a player involved moved to another table (BSOP 19)
ruling-late-player_left = Asked after a player involved left the table (BSOP 19)
ruling-in-time = Asked in time (BSOP 19)
ruling-hand-no = hand #{ $hand }
ruling-seats-short = seats { $seats }
ruling-table = Table
ruling-game = Game
ruling-players = Players involved
ruling-players-none = No player named.
ruling-asked = Asked
ruling-asked-by = { $time } by { $name }
ruling-decided = Decided
ruling-decision = Decision
ruling-rule = Rule cited
ruling-final = A decision is final (BSOP 16, 17): it is never changed, only corrected by a later ruling that names it.
ruling-result = Hand's result
ruling-result-stands = The hand's result stands (BSOP 19).
ruling-result-overridden = The hand's result does not stand: { $reason }
ruling-result-stands-short = stands
ruling-result-overridden-short = overridden
ruling-corrected-by = Corrected by #{ $id }
ruling-corrects = Corrects #{ $id }
ruling-open-page = Open
ruling-answer = Answer

## Held pot (BSOP 21)
ruling-pot = Pot held aside
ruling-pot-line = { $amount } held since { $time } ({ $storage })
ruling-pot-released-at = released at { $time }
ruling-pot-state-held = Held
ruling-pot-state-released = Released
ruling-hold-title = Hold the pot aside (BSOP 21)
ruling-hold-hint = While the decision is pending (surveillance footage, the manager) the pot, or part of it, may be taken off the table. At most the chips on the table on record: { $amount }.
ruling-hold-amount = Amount held
ruling-hold-storage = Where it is kept
ruling-window = Time limit
ruling-hold-none = No chips are on record at this table yet (the dealer counts the stacks on the tablet), so no pot can be held.
ruling-hold-send = Hold the pot

## The decision form
ruling-decide-title = The decision
ruling-decision-hint = What the floor decided, as it will be read later by the players and a regulator.
ruling-rule-hint = e.g. BSOP 20, TDA 42
ruling-add-players = Name other players involved
ruling-override = Override: the hand's result does not stand (BSOP 16)
ruling-override-reason = Reason for overriding
ruling-release-title = Release of the pot held ({ $amount }) to
ruling-release-hint = The shares must add up to the pot held (BSOP 21).
ruling-reconstruction-title = Reconstruct the pot (BSOP 20)
ruling-reconstruction-hint = Moves an amount from the players named to the right player; their stacks on record change once a second staff member confirms.
ruling-reconstruction-late = This ruling was asked late: no pot can be reconstructed (BSOP 20).
ruling-reconstruction-to = The right player
ruling-reconstruction-none = — none —
ruling-reconstruction-from = Taken from
ruling-stack = stack { $amount }
ruling-decide-send = Record the decision
ruling-correct-title = Correct this decision
ruling-correct-hint = A correction is a new ruling naming #{ $id }; this decision stays as it was, marked as corrected.
ruling-correct-send = Record the correction

## Chips a decision moves (two staff members)
ruling-chips = Chips moved by the decision
ruling-chips-recorded = Waiting for a second staff member
ruling-chips-confirmed = Moved
ruling-chips-cancelled = Refused: not moved
ruling-chips-recorded-by = Recorded by { $name }
ruling-chips-confirmed-by = Confirmed by { $name }
ruling-chips-cancelled-by = Refused by { $name }: the floor corrects the ruling with the right amounts.
ruling-chips-second = A second staff member, not the one who recorded them, confirms the chips.
ruling-line-release = { $amount } from the pot held to { $to }
ruling-line-reconstruction = { $amount } from { $from } to { $to }
ruling-confirm = Confirm (second person)
ruling-refuse = Refuse

## BSOP 22
ruling-earlier-title = Earlier rulings of these players (BSOP 22)
ruling-earlier-hint = A player's history may be used to judge intent.
ruling-earlier-none = No earlier ruling involves them.

## The floor's board and the tablet
ruling-alert = Ruling #{ $id }
ruling-alert-chips = Ruling #{ $id }: chips to confirm by a second staff member
board-rulings = { $count ->
    [one] 1 ruling
   *[other] { $count } rulings
}
ruling-open-at-table = Open a ruling
tablet-rulings = Rulings

## The incident log
ruling-log-title = Incident log
ruling-log-intro = Every ruling of the floor (BSOP 16-22): the table, the hand, who asked, what was decided and by whom. A decision is final; a correction is a later ruling naming it.
ruling-nav = Rulings
ruling-filter-day = Gaming day
ruling-filter-table = Table
ruling-filter-player = Player number
ruling-filter-staff = Staff member
ruling-filter-state = State
ruling-filter-any = Any
ruling-filter-apply = Show
ruling-csv = Download CSV
ruling-none = No ruling matches.
ruling-count = { $count ->
    [one] 1 ruling
   *[other] { $count } rulings
}
ruling-player-title = Rulings

## CSV columns
ruling-col-id = Ruling no.
ruling-col-asked-at = Asked at
ruling-col-table = Table
ruling-col-game = Game
ruling-col-hand = Hand
ruling-col-seats = Seats
ruling-col-players = Players
ruling-col-note = Note
ruling-col-asked-by = Asked by
ruling-col-late = Late (BSOP 19)
ruling-col-state = State
ruling-col-decision = Decision
ruling-col-rule = Rule
ruling-col-result = Hand's result
ruling-col-override-reason = Reason for overriding
ruling-col-decided-at = Decided at
ruling-col-decided-by = Decided by
ruling-col-corrects = Corrects
ruling-col-corrected-by = Corrected by
ruling-col-pot = Pot held
ruling-col-pot-storage = Pot kept at
ruling-col-chips = Chips moved

## Refusals
err-ruling-not-late = BSOP 19: this ruling was asked in time; there is no kept result to override.
err-ruling-override-reason = BSOP 19: give the reason for overriding the hand's result.
err-ruling-pot-positive = BSOP 21: the pot held must be more than zero.
err-ruling-pot-over-table = BSOP 21: the pot held cannot be more than the chips on the table on record ({ $max }).
err-ruling-release-required = BSOP 21: the pot held ({ $amount }) must be released with the decision: give each player's share.
err-ruling-too-many-lines = At most { $max } lines.
err-ruling-share-positive = Each amount must be more than zero.
err-ruling-player-twice = A player is named twice.
err-ruling-release-sum = BSOP 21: the shares must add up exactly to the pot held ({ $amount }).
err-ruling-release-player = BSOP 21: { $player } is neither at this table nor involved in the ruling.
err-ruling-no-pot = No pot is held for this ruling.
err-ruling-reconstruction-late = BSOP 20: { $why ->
    [next_hand] the ruling was asked after the next hand started
    [table_broken] the ruling was asked after the table broke
    [player_moved] the ruling was asked after a player involved moved
   *[other] the ruling was asked after a player involved left
}, so no pot can be reconstructed; the hand's result stands (BSOP 19).
err-ruling-pot-late = BSOP 19: { $why ->
    [next_hand] the ruling was asked after the next hand started
    [table_broken] the ruling was asked after the table broke
    [player_moved] the ruling was asked after a player involved moved
   *[other] the ruling was asked after a player involved left
}: its hand's result stands, so no pot is held aside for it (BSOP 21).
err-ruling-reconstruction-no-to = BSOP 20: choose the right player the amount goes to.
err-ruling-reconstruction-empty = BSOP 20: name the player(s) the amount is taken from.
err-ruling-reconstruction-self = BSOP 20: the right player cannot also give the amount.
err-ruling-over-stack = BSOP 20: more than { $player }'s stack on record ({ $stack }).
err-ruling-over-stack-max = BSOP 20: the right player's stack would exceed { $max }.
err-ruling-not-seated = BSOP 20: { $player } is not seated at this table.
err-ruling-same-staff = The chips a decision moves are confirmed by a second, different staff member.
err-ruling-decision-required = Write the decision out: a ruling is final and is recorded as written (BSOP 17).
err-ruling-storage-required = Say where the pot is kept until it is released (BSOP 21).
err-ruling-seat = Seat { $seat } is not a seat of this table (1 to { $max }).
err-ruling-too-many-seats = At most { $max } seats.
err-ruling-seat-empty = Nobody sits in seat { $seat }.
err-ruling-seat-empty-hand = Nobody sat in seat { $seat } when hand #{ $hand } started.
err-ruling-hand-unknown = This table has no hand #{ $hand }.
err-ruling-player-unknown = There is no player #{ $player }.
err-ruling-too-many-players = At most { $max } players.
err-ruling-decided = Ruling #{ $id } is decided, and a decision is final (BSOP 17): correct it with a new ruling that names it.
err-ruling-correct-open = Ruling #{ $id } is still open: decide it.
err-ruling-corrected = Ruling #{ $id } is already corrected by #{ $by }: correct that one.
err-ruling-corrected-now = Ruling #{ $id } was corrected meanwhile.
err-ruling-move-pending = The chips of ruling #{ $id } wait for a second staff member: confirm or refuse them first.
err-ruling-pot-decided = BSOP 21: a pot is held only while the decision is pending; ruling #{ $id } is decided.
err-ruling-pot-held = A pot is already held for ruling #{ $id }.
err-ruling-no-move = Ruling #{ $id } moves no chips.
err-ruling-move-done = The chips of ruling #{ $id } no longer wait for confirmation.
err-ruling-move-left = { $player } is no longer at the table: correct the ruling.
err-ruling-move-over-stack = { $player } has { $stack } on record now, less than the reconstruction takes: correct the ruling.
err-ruling-move-over-stack-max = { $player }'s stack would exceed { $max }.
err-ruling-filter-day = “{ $value }” is not a date (YYYY-MM-DD).
err-ruling-filter-number = “{ $value }” is not a number.
err-ruling-filter-state = “{ $value }”: choose open or decided.
err-ruling-filter-limit = Between 1 and { $max }.

## Audit trail
action-ruling-ask = Ruling asked for (BSOP 19)
action-ruling-pot_held = Pot held aside (BSOP 21)
action-ruling-decide = Ruling decided (BSOP 17)
action-ruling-correct = Ruling corrected by a later ruling (BSOP 17)
action-ruling-move_confirm = Chips of a ruling moved (second staff member)
action-ruling-move_cancel = Chips of a ruling refused
admin-audit-kind-ruling = Ruling
