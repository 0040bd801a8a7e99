# Messages to players (SMS and e-mail) and the floor's messages page.
# SMS texts are kept to one segment where they can be (160 GSM-7 characters, or 70 when a
# character outside GSM-7 is used); the sender name tells the room.

notify-added-sms = You are number { $position } on the { $game } list. Your place, live: { $link }
notify-added-subject = You are on the { $game } list
notify-next-sms = You are next on the { $game } list. Please stay close to the floor.
notify-next-subject = You are next: { $game }
notify-nearly-next-sms = You are number { $position } on the { $game } list: your seat is coming soon. Please stay nearby.
notify-nearly-next-subject = Your seat is coming soon: { $game }
notify-seat-ready-sms = Your seat is ready: table { $table }, seat { $seat } ({ $game }). Please be there by { $time }. Answer: { $link }
notify-seat-ready-subject = Your seat is ready: table { $table }, seat { $seat }
notify-call-expired-sms = The seat at table { $table } went to the next player. { $outcome ->
    [bottom] You are back at the bottom of the { $game } list.
   *[removed] You were taken off the { $game } list.
}
notify-call-expired-subject = Seat call expired: table { $table }
notify-removed-sms = You were taken off the { $game } list.
notify-removed-subject = Taken off the { $game } list
notify-must-move-sms = Must-move: please move now to table { $table }, seat { $seat } ({ $game }), by { $time }.
notify-must-move-subject = Please move to table { $table }, seat { $seat }
notify-custody-sms = Your chips from table { $table } are in custody: { $amount } ({ $storage }). Reclaim them at the floor desk.
notify-custody-subject = Your chips are in custody
notify-email-link = Your place in line, live: { $link }
notify-email-footer = — { $room }

outbox-title = Messages to players
outbox-intro = Every SMS and e-mail to players: waiting, being sent, sent or failed, with each attempt. Failed messages can be sent again.
outbox-none = No messages.
outbox-filter-player = Player
outbox-filter-status = Status
outbox-filter-all = All
outbox-filter = Filter
outbox-created = Created
outbox-player = Player
outbox-kind = Message
outbox-channel = Channel
outbox-recipient = To
outbox-status = Status
outbox-attempts = Attempts
outbox-text = Text
outbox-not-written = (written at the first attempt)
outbox-retry = Retry now
outbox-retried = The message will be sent again.
outbox-failed-alert = { $count ->
    [one] 1 message to a player failed.
   *[other] { $count } messages to players failed.
}
outbox-see = See messages
outbox-attempt-line = Attempt { $n }: { $outcome }
outbox-status-pending = waiting
outbox-status-sending = being sent
outbox-status-sent = sent
outbox-status-failed = failed
outbox-outcome-started = started
outbox-outcome-sent = sent
outbox-outcome-error = error
outbox-outcome-interrupted = interrupted (worker stopped)
outbox-channel-sms = SMS
outbox-channel-email = e-mail
outbox-kind-added = added to a list
outbox-kind-next = next in line
outbox-kind-nearly_next = nearly next
outbox-kind-seat_ready = seat ready
outbox-kind-call_expired = call expired
outbox-kind-removed = removed from a list
outbox-kind-must_move = must-move due
outbox-kind-custody = chips in custody
outbox-next-try = next try { $time }
err-message-not-failed = Only a failed message can be sent again.
err-message-status = The status must be pending, sending, sent or failed.

notify-link-sms = Your place in line at { $room }, live: { $link }
notify-link-subject = Your link to follow your place in line
outbox-kind-link = link sent again

# join
notify-join-code-sms = { $code } is your code to join the lists at { $room }. It lasts { $minutes } min.
notify-join-code-subject = Your code: { $code }
outbox-kind-join_code = join code
