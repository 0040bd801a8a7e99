## Lobby screen (a TV in the room) and night mode

lobby-clock = The room's time
lobby-called = Called now
lobby-called-table = to table { $table }
lobby-calling-now = the floor is calling the list.
lobby-calling = Seats are free: the floor is calling the list.
lobby-waiting-more = and { $count } more
lobby-page = Page { $page } of { $pages }

theme-light = Light
theme-dark = Dark (night mode)
theme-auto = Follow each device
theme-toggle = Night mode
theme-toggle-hint = Light or dark screen on this device (kept on it)
admin-room-theme = Screens' theme
admin-room-theme-hint = For the dealers' tablets, the floor board and the lobby screen; each device can switch it with its Night mode button. Following the device, the lobby screen is dark.
# PT-2007 24: an interest list with enough players to start a game.
interest-ready = Enough players to start: a table opens soon
