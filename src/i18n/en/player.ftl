# The player's own page (/p/{token}): every key starts with plink- (no collision with
# the other catalogs: a duplicate key stops the start).

plink-title = Your place in line
plink-hello = Hello, { $alias }
plink-private = This page is yours alone: do not share the link.
plink-live = Updates by itself
plink-lists = Your waiting lists
plink-no-lists = You are not on any waiting list.
plink-position = Your place
plink-ahead = { $ahead ->
    [0] Nobody ahead of you
    [one] 1 player ahead of you
   *[other] { $ahead } players ahead of you
}
plink-of = { $of ->
    [one] 1 player on this list
   *[other] { $of } players on this list
}
plink-call-in = Check in at the desk by { $time } to keep your place.
plink-lapsed = Your call-in lapsed: please check in at the desk.
plink-called = Your seat is ready!
plink-called-where = Table { $table }, seat { $seat }
plink-respond-by = Respond by { $time }
plink-time-left = Time left
plink-on-my-way = On my way
plink-more-time = Need more time
plink-more-time-hint = Adds { $minutes } min, once.
plink-leave = Leave this list
plink-leave-confirm = Yes, take me off this list
plink-answer-on_my_way = The floor knows you are on your way.
plink-answer-more_time = The floor gave you more time.
plink-extended = You already had your extra time for this call.
plink-seated = You are playing
plink-seated-at = Table { $table }, seat { $seat }
plink-move-must_move = Please move now: your seat in the main game is ready
plink-move-seat_change = The seat you asked for is free: please move now
plink-move-list = Your seat is ready!
plink-move-by = Be there by { $time }
plink-seated-since = since { $time }
plink-today = Today
plink-today-hint = Since the gaming day began at { $time }
plink-today-none = Nothing played today yet.
plink-col-game = Game
plink-col-time = Time played
plink-col-in = Bought in
plink-col-out = Taken off
plink-total = Total
plink-expired-title = This link has expired
plink-expired-text = Links last until the end of the gaming day. Ask the floor for a new one.
plink-revoked-title = This link is no longer valid
plink-revoked-text = The floor has replaced it. Use the latest link you received, or ask at the desk.
plink-forged-title = Link not recognised
plink-forged-text = Check that you opened the whole link from your message, or ask at the desk.
plink-rate-title = Too many requests
plink-rate-text = Please wait a minute and try again.
plink-error-title = That could not be done
plink-back = Back to my page
plink-err-extended-once = You can ask for more time only once per call.
plink-floor-answer-on_my_way = On my way
plink-floor-answer-more_time = Needs more time
plink-floor-answer-hint = The player's answer from their link
action-seat-call_answer = Answered a seat call (own link)
action-list-leave = Left a waiting list (own link)
plink-seat-free-now = A seat is free now: the floor will call you shortly. Please stay close.

# join
join-title = Join a waiting list
join-intro = Choose up to { $max } lists and give your phone number: we send you a code to confirm it.
join-pick = Lists (up to { $max })
join-no-games = No list is open right now: ask at the desk.
join-waiting = { $count ->
    [one] 1 waiting
   *[other] { $count } waiting
}
join-interest = { $count ->
    [one] Interest list: 1 player
   *[other] Interest list: { $count } players
}
join-phone = Phone number
join-phone-hint = Without a country code, +{ $code } is added.
join-phone-hint-none = With its country code, e.g. +351 912 345 678.
join-name = Your name
join-name-hint = As on your ID. If you are not registered here yet, the desk registers you with it.
join-send-code = Send me a code
join-private = Your number is used only to confirm it is yours and to tell you when your seat is ready.
join-code-title = Enter your code
join-code-sent = If this number can receive messages, a 6-digit code is on its way to { $phone } (by SMS, or by e-mail if that is how the room reaches you). It lasts 10 minutes.
join-code-lists = Lists
join-code = Code
join-confirm = Confirm
join-no-code = No code? Start again
join-start-again = Start again
join-done-title = Thank you
join-see-desk-title = Thank you
join-see-desk = Please come to the desk to complete your request.
join-guest-title = Your place is kept
join-guest-places = You are not registered here yet. Your place on each list:
join-guest-place = place { $place }
join-guest-register = Come to the desk with a valid photo ID within { $minutes } minutes to register (18 or over): you are called only once registered, and your place is kept until then.
join-already = Already on
join-skipped = Not added (the list closed, or the desk must see you first)
join-here-title = Check in
join-here-stale = This code has changed: scan the one on the desk's screen again.
join-here-no_link = Scan the desk's code with the phone you joined the list from (the same browser), or ask the desk to check you in.

# seat preferences
plink-pref-title = Seat preference
plink-pref-hint = Your place on the list stays the same. When you are called, you are offered a free seat that fits, if the table has one.
plink-pref-seats = Seats I would rather have (e.g. 1, 2)
plink-pref-avoid = Tables I would rather avoid (numbers)
plink-pref-accessible = I need an accessible seat
plink-pref-wait = Keep my place and wait for a seat that fits (the room limits how many seats may go by)
plink-pref-save = Save my preference

# An interest list with players on it
join-needed = { $needed } more to start a game
