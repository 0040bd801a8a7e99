# The special buttons Cucurucho and Macaca (BSOP 115, 116): game settings, draws, the tablet,
# the floor, the report.

buttons-cucurucho = Cucurucho
buttons-macaca = Macaca
buttons-title = Special buttons

## Refusals
err-buttons-contribution = { $rule }: each player's fixed contribution is { $min } to { $max } big blinds (not { $value }).
err-buttons-macaca-cap = { $rule }: the Macaca's all-in is capped at { $min } to { $max } big blinds (not { $value }).
err-buttons-banked = { $rule }: a banked game has no blinds and no dealer button, so it cannot run a special button.
err-buttons-table-state = { $rule }: a special button is drawn at an open or running table; table { $table } is not.
err-buttons-off = { $rule }: the game “{ $game }” does not run this button. Turn it on in the game's settings first.
err-buttons-reason = { $rule }: the button is already on a seat. Say why it is drawn again.
err-buttons-needs-players = { $rule }: the starting seat is drawn among the players seated; at least two are needed.
err-buttons-macaca-result-first = BSOP 116: hand { $hand } is the Macaca's. Record her result (won or lost) before the next hand.
err-buttons-hand-over = This special hand is over: it can no longer be changed.
err-buttons-not-macaca = This special hand is not a Macaca hand.
err-buttons-collected-required = BSOP 116: the Macaca won: enter what she collected from the pot.
err-buttons-lost-collects = BSOP 116: the Macaca lost: she collects nothing.
draw-no-seats = No seat to draw among.

## The draw's record
draw-kind-special_button = Special button (BSOP 115, 116)
draw-special-outcome-cucurucho = The Cucurucho starts on seat { $seat }:
draw-special-outcome-macaca = The Macaca starts on seat { $seat }:
draw-gets-cucurucho = Cucurucho: seat { $seat }
draw-gets-macaca = Macaca: seat { $seat }

## The audit trail
action-table-special_draw = Special button drawn (BSOP 115, 116)
action-table-special_hand = Special hand (BSOP 115, 116)
action-table-special_contribution = Seat marked in or out of a special hand
action-table-macaca_result = The Macaca's result (BSOP 116)

## The game's settings
buttons-admin-legend = Special buttons (BSOP 115, 116)
buttons-admin-hint = Extra buttons whose starting seat is drawn at each table; when the dealer button reaches one, that hand is its special game and every player puts a fixed amount. Off unless ticked.
buttons-admin-contribution = Fixed contribution ({ $rule }), in big blinds
buttons-admin-contribution-hint = 3 to 5 big blinds per player.
buttons-admin-cucurucho-bb = Cucurucho contribution (big blinds)
buttons-admin-macaca-bb = Macaca contribution (big blinds)
buttons-admin-macaca-cap = The Macaca's all-in cap (BSOP 116), in big blinds
buttons-admin-macaca-cap-hint = Usually 20. What she holds over it waits for her next hand. 10 to 50.

## The tablet
buttons-hand-title = Hand { $number }:
buttons-hand-cucurucho = Cucurucho!
buttons-hand-macaca = Macaca!
buttons-each-pot = Every player puts { $amount } in the pot.
buttons-each-macaca = Every player puts { $amount } for the Macaca.
buttons-in-bb = { $count } big blinds
buttons-macaca-own-chips = The Macaca plays the { $amount } she kept: nobody puts anything this time.
buttons-not-in = not in this hand
buttons-mark-out = Not in
buttons-mark-in = Takes part
buttons-players = { $count ->
    [one] 1 player takes part
   *[other] { $count } players take part
}
buttons-total = { $amount } in all
buttons-macaca-all-in = The Macaca is all in for { $amount }.
buttons-macaca-aside = { $amount } wait aside for her next hand.
buttons-macaca-won = The Macaca won
buttons-macaca-lost = The Macaca lost
buttons-macaca-collected = What she collected (if she won)
buttons-macaca-collected-was = She collected { $amount }.
buttons-macaca-keeps = She keeps { $amount } for her next hand.
buttons-macaca-before-next = Record the Macaca's result before the next hand.
buttons-on-seat = on seat { $seat }
buttons-not-drawn = not drawn yet
buttons-contribution = { $amount } per player
buttons-next-hand = its hand is next
buttons-macaca-bank = The Macaca holds { $amount }
buttons-redraw-reason = Why draw again?
buttons-redraw = Draw again
buttons-draw = Draw its seat

## The floor
buttons-floor-draw = Draw the { $button }
buttons-floor-reason = Reason (to draw again)

## The report
report-col-cucurucho-hands = Cucurucho hands
report-col-cucurucho-contributions = Cucurucho contributions
report-col-macaca-hands = Macaca hands
report-col-macaca-contributions = Macaca contributions
report-special = Special hands (BSOP 115, 116)
report-special-note = Hands played as a special game and the players' fixed contributions, per table (contributions of seats marked out are not counted).
