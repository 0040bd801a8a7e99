## The floor board's alarm strip, list headers and suggestions (BSOP 36, 44, 55, 58; PT-2007 24)
board2-alarms = { $count ->
    [one] 1 alarm
   *[other] { $count } alarms
}
board2-alarms-label = Alarms at the tables
board2-call-late = { $alias }: call not acknowledged
board2-count-waiting = { $alias }: { $amount } counted, waiting for the second count
board2-closes-at = suspended, closes at { $time }
board2-tile-requests = { $count ->
    [one] 1 request
   *[other] { $count } requests
}
board2-tile-count = Count to confirm
board2-tile-chips = Chips to approve
board2-tile-session-up = Session over
board2-tile-closes = Closes { $time }
board2-more-tools = More
board2-join-choose = Add to which list?
board2-game-free = { $count ->
    [0] no free seat
    [one] 1 free seat
   *[other] { $count } free seats
}
board2-game-free-title = Free seats at this game's tables in play (nobody seated, called or holding them)
board2-suggest-must_move = → table { $table }: must-move
board2-suggest-must_move-why = BSOP 55: the main games' free seats go to the must-move table's players, in list order; a new player sits at the must-move table.
board2-suggest-main_game = → table { $table }: main game
board2-suggest-main_game-why = BSOP 55: the main games have more free seats than the must-move table has players to move; a new player sits at the main game with the fewest players.
board2-suggest-neediest = → table { $table }: fewest players
board2-suggest-neediest-why = BSOP 58: a new player goes to the table that needs a player most (the fewest players; the older table on a tie).
board2-ready = Ready: open a table
board2-ready-why = PT-2007 24: enough players are waiting to start this game.
board2-ready-open = Open table { $table }
board2-ready-none = No closed table of this game: give one this game under Tables.
