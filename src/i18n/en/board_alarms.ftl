## The floor board's alarm strip, list headers and suggestions (BSOP 36, 44, 55, 58; PT-2007 24)
board-alarms = { $count ->
    [one] 1 alarm
   *[other] { $count } alarms
}
board-alarms-label = Alarms at the tables
board-call-late = { $alias }: call not acknowledged
board-count-waiting = { $alias }: { $amount } counted, waiting for the second count
board-closes-at = suspended, closes at { $time }
board-tile-requests = { $count ->
    [one] 1 request
   *[other] { $count } requests
}
board-tile-count = Count to confirm
board-tile-chips = Chips to approve
board-tile-session-up = Session over
board-tile-closes = Closes { $time }
board-more-tools = More
board-join-choose = Add to which list?
board-game-free = { $count ->
    [0] no free seat
    [one] 1 free seat
   *[other] { $count } free seats
}
board-game-free-title = Free seats at this game's tables in play (nobody seated, called or holding them)
board-suggest-must_move = → table { $table }: must-move
board-suggest-must_move-why = BSOP 55: the main games' free seats go to the must-move table's players, in list order; a new player sits at the must-move table.
board-suggest-main_game = → table { $table }: main game
board-suggest-main_game-why = BSOP 55: the main games have more free seats than the must-move table has players to move; a new player sits at the main game with the fewest players.
board-suggest-neediest = → table { $table }: fewest players
board-suggest-neediest-why = BSOP 58: a new player goes to the table that needs a player most (the fewest players; the older table on a tie).
board-ready = Ready: open a table
board-ready-why = PT-2007 24: enough players are waiting to start this game.
board-ready-open = Open table { $table }
board-ready-none = No closed table of this game: give one this game under Tables.
