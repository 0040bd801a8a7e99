# Table-side rules (dealer tablet): buy-ins, minimum stay, absence, hands.

## Amounts (minor units in the arguments; the web layer formats them)
rules-amount-not-positive = Enter an amount greater than zero.

## Buy-in when sitting down (BSOP 26, 37; PT-2007 28, 78)
rules-buyin-below-min = The minimum buy-in for this game is { $min }.
rules-buyin-above-max = The maximum buy-in for this game is { $max }.
rules-buyin-below-taken-off = Returning to the same game within an hour of leaving, the player must buy in for at least the { $required } taken off the table (BSOP 26).
rules-buyin-same-stack = A player removed for absence comes back within the hour with the same stack: exactly { $required } (BSOP 37).
rules-buyin-average-capital = Joining a game under way, the player enters with the average capital in play at the table: exactly { $required } (PT-2007 28).
rules-buyin-exact = The buy-in must be exactly { $required }.

## Rebuys (PT-2007 79)
rules-rebuy-above-max = A rebuy may not take the stack above the maximum buy-in of { $max }: at most { $allowed } now.
rules-rebuy-stack-at-max = The stack is already at or above the maximum buy-in of { $max }: no rebuy is possible.
rules-chips-not-pending = These chips reached the seat between hands: they play already (BSOP 28).
rules-chips-approved = These chips were already approved for the hand (BSOP 28).
rules-chips-hand-over = Hand { $hand } is over: the chips play from now on anyway (BSOP 28).
tablet-chips-during-hand = Arrived during the hand (BSOP 28)
tablet-chips-next-hand = { $amount } from the next hand (BSOP 28)
tablet-chips-approved = { $amount } approved for this hand
floor-chips-pending = { $alias }: { $amount } in chips asked for before the hand reached the seat during it; they play from the next hand unless you approve them for this one (BSOP 28).
floor-chips-approve = Approve for this hand

## Changing table with the whole stack (BSOP 27)
rules-transfer-first-hour-above-max = The stack ({ $stack }) is above the game's maximum buy-in ({ $max }): no voluntary table change in the first hour in the game, which ends at { $until } (BSOP 27). { $minutes ->
    [one] 1 minute left.
   *[other] { $minutes } minutes left.
}

## Minimum stay for winners (BSOP 38)
rules-min-stay = A player with a winning stack stays at least { $stay } minutes at a { $limit ->
    [high] High Limit
   *[mid] Mid Limit
} table before leaving (BSOP 38). { $minutes ->
    [one] 1 minute left.
   *[other] { $minutes } minutes left.
}

## Absence (BSOP 36)
rules-absence-due-missed-bb = { $count ->
    [one] The player has missed the big blind:
   *[other] The player has missed the big blind { $count } times:
} the chips may be taken off the table and the seat given to someone else (BSOP 36).
rules-absence-due-away = The player has been away for { $minutes } minutes or more: the chips may be taken off the table and the seat given to someone else (BSOP 36).

## Missed blinds on return (BSOP 39, PT-2007 90)
rules-return-post-bb-or-wait = Missed blind: post the big blind now or wait for the big blind. Posted out of position it is not a straddle (BSOP 39).
rules-return-pay-dead-small = Missed small blind: pay it dead this hand; it does not count towards the player's bets (PT-2007 90).
rules-return-pay-dead-big = Missed big blind: pay it dead this hand; it does not count towards the player's bets (PT-2007 90).
rules-return-pay-dead-both = Missed small and big blinds: pay both dead this hand; they do not count towards the player's bets (PT-2007 90).

## Resting and hands without betting (PT-2007 13, 89)
rules-hands-resting = { $hands ->
    [0] Resting: no rest hands left, the player must play the next hand (PT-2007 13).
    [one] Resting: 1 more hand may be rested (PT-2007 13).
   *[other] Resting: { $hands } more hands may be rested (PT-2007 13).
}
rules-hands-post-bb = Five hands without betting: the player must post a big blind next hand, without changing the betting order (PT-2007 89).
rules-hands-leave-rested-too-long = Three hands in a row without playing: the player must leave the table (PT-2007 13).
rules-hands-leave-rested-repeatedly = Resting again without having bet since the last rest: the player must leave the table (PT-2007 13).

# Cagnotte, rake, commission
rules-cagnotte-session-percent = The session percentage must be between { $min } % and { $max } % (PT-2007 7b).
rules-cagnotte-mode-fixed = The cagnotte mode is fixed before the game starts; to change it, start a new game (PT-2007 7).
rules-rake-negative = The pot and the rake cannot be negative.
rules-rake-no-flop-no-drop = No rake on a hand that ended before the flop without a voluntary bet (no flop, no drop: PT-ONL 18).
rules-rake-over-pot = The rake cannot be more than the pot.
rules-rake-over-cap = At most { $max } of rake on this hand: the game's cap per hand (PT-2007 7a).
rules-boards-range = A hand is run on 1 to { $max } boards (BSOP 90).
rules-boards-no-bet = A board is run again only with a player all-in: not on a hand that ended before the flop without a bet (BSOP 90).
rules-boards-rake-missing = A hand run more than once is raked all the same, once, on its whole pot: record the rake (at most { $max }) (BSOP 90).
rules-boards-pot-missing = A hand run more than once is raked on its pot: enter the pot (BSOP 90).
cagnotte-boards = Boards
cagnotte-boards-hint = Run more than once (BSOP 90): raked once on the whole pot.
rules-rake-over-percent = At most { $max } of rake on this hand: { $percent } % of the pot, rounded down to the smallest chip (PT-2007 7a, BSOP 80).

## The seat waits for a must-move player (BSOP 57)
err-seat-waits-for-must-move = This seat waits for { $alias }, the must-move player due for it (table { $table }, seat { $seat }): a player moving from the must-move table moves at once from any position except the small blind or the button (BSOP 57), and { $alias } is { $position ->
    [button] on the button
   *[small_blind] in the small blind
} now, so moves after this hand. The seat cannot go to the list meanwhile.

## Deadlines judged by the clock at the moment of the action (PT-2007 24)
err-table-suspension-over = Table { $table } has been suspended for { $minutes } minutes without the minimum of players back: its game is over (PT-2007 24) and it is closing, so nobody is called, seated or held there.
