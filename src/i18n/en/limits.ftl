# A running table's limits (PT-2007 22, BSOP 34; services::limits).
limits-title = Limits
limits-table = Table { $table }
limits-small-blind = Small blind
limits-big-blind = Big blind
limits-buy-in-min = Minimum buy-in
limits-buy-in-max = Maximum buy-in
limits-buy-in-range = buy-in { $min } – { $max }
limits-buy-in-from = buy-in from { $min }
limits-from-next-hand = from the next hand
limits-from-time = from { $time }
limits-badge = New limits
# The floor's panel on the board.
limits-change = Change limits
limits-effective = When
limits-opt-next-hand = From the next hand
limits-opt-at = From
limits-time = Time (room's clock)
limits-approve = Approve the change
limits-pending = Approved change
limits-cancel = Cancel the change
limits-announced-short = announced at the table
limits-not-announced = not yet announced at the table
limits-done-approved = New limits approved for table { $table }: the dealer announces them, then they apply from the first hand due.
limits-done-applied = New limits in force at table { $table } at once: nobody is seated there, nobody to tell.
limits-done-cancelled = The limit change of table { $table } was cancelled: the table keeps its limits.
# The dealer's tablet.
limits-tablet-title = New limits approved by the floor
limits-announce-hint = Announce them to the players, then confirm.
limits-announce = Announced to the players
limits-announced-at = Announced at { $time }
limits-waits-hand = they apply when the next hand starts
limits-waits-time = they apply from the first hand started after { $time }
# The player's page.
limits-player-notice = New limits at your table
# The admin's game page.
limits-game-pending = Tables of this game in play keep their limits until the change is announced at the table and the next hand starts:
# Reports.
limits-report-title = Hours per limit
limits-col-tables = Tables
limits-col-hours = Hours open
limits-report-note = Each table's open time (while someone sits at it) is split at the moment its limits changed (PT-2007 22).
# Refusals.
limits-err-bb-below-sb = The big blind cannot be below the small blind (PT-2007 22: limits a table can play).
limits-err-max-below-min = The maximum buy-in cannot be below the minimum (BSOP 24).
limits-err-needs-max = This game takes its session percentage of the table maximum (PT-2007 7b): the table must keep a maximum buy-in.
limits-err-chip = The blinds must be made of the game's smallest chip, { $chip } (BSOP 80).
limits-err-past = The time stated has already passed: the players must be told before the change (PT-2007 22).
limits-err-time = Type the time as HH:MM (the room's clock).
limits-err-horizon = That is too far ahead: a change is stated for the session under way, at most { $hours ->
    [one] one hour
   *[other] { $hours } hours
} from now (PT-2007 22).
limits-err-not-in-play = Table { $table } is not in play: a closed table opens at its game's limits (BSOP 34 is about a running table).
limits-err-unchanged = Table { $table } already plays these limits.
limits-err-pending = This table already has a limit change pending (no. { $id }): cancel it first (BSOP 34).
limits-err-not-pending = This limit change is no longer pending ({ $state ->
    [applied] already applied
    [cancelled] cancelled
   *[other] { $state }
}).
limits-err-transfer-other-limit = Table { $table } plays other limits: a transfer goes only to a table of the same game and limit (BSOP 27, 58).
# The audit trail's actions.
action-table-limits_opened = Table opened at its game's limits (PT-2007 22)
action-table-limits_change = Limit change approved (BSOP 34)
action-table-limits_announced = Limit change announced to the players (PT-2007 22)
action-table-limits_applied = New limits in force (PT-2007 22)
action-table-limits_cancelled = Limit change cancelled
