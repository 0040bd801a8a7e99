dealers-title = Dealers
dealers-pushes = Dealers: next pushes
dealers-pushes-hour = Pushes in the next hour
dealers-working = { $count ->
    [one] 1 dealer in
   *[other] { $count } dealers in
}
dealers-tables-without = { $count ->
    [one] 1 table without a dealer
   *[other] { $count } tables without a dealer
}
dealers-no-push-soon = No push in the next 30 minutes.
dealers-no-push = No push in the next hour.
dealers-none-in = No dealer is clocked in: clock them in below.
dealers-late-by = { $min } min late
dealers-now = Now
dealers-to-break = break until { $time }
dealers-to-free = free
dealers-no-dealer = No dealer
dealers-who-takes = Dealer for table { $table }
dealers-after = { $name } (once relieved)
dealers-push = Push
dealers-pushed = { $dealer } deals at table { $table }.
dealers-pushed-free = { $dealer } deals at table { $table }; { $out } is free.
dealers-pushed-break = { $dealer } deals at table { $table }; { $out } is on a break until { $time }.
dealers-rules-down = Downs of { $min } min
dealers-rules-break = breaks of { $min } min
dealers-rules-after-downs = a break after { $count ->
    [one] 1 down
   *[other] { $count } downs
}
dealers-rules-after-min = a break after { $min } min dealing
dealers-tables = Tables
dealers-no-tables = No table is in play.
dealers-dealer = Dealer
dealers-down-ends = Down ends
dealers-down-up = down is up
dealers-closing = closing
dealers-roster = Roster
dealers-no-dealers = No dealer account yet: an admin adds them under Staff.
dealers-state = Now
dealers-downs = Downs since break
dealers-since = since { $time }
dealers-dealt-min = { $min } min
dealers-break-due = break due
dealers-state-dealing = dealing
dealers-state-on_break = on a break
dealers-state-available = available
dealers-state-off = off
dealers-act-clock-in = Clock in
dealers-act-clock-out = Clock out
dealers-act-break = Break
dealers-act-back = Back
dealers-said-in = { $dealer } is clocked in.
dealers-said-out = { $dealer } is clocked out.
dealers-said-break = { $dealer } is on a break.
dealers-said-back = { $dealer } is back from the break.
err-dealer-outgoing-to = Choose where the relieved dealer goes: a break, or free.
relief-open = Take this table over
relief-next = next: { $dealer } at { $time }
relief-who = Your name
relief-pin = Your PIN
relief-go = Take over now
relief-done = { $dealer } deals at this table now.
relief-out-break = { $dealer }: break until { $time }.
relief-out-table = { $dealer }: next, table { $table } at { $time }.
relief-out-free = { $dealer }: free for the next push.
err-dealer-pin-format = A PIN is 4 to 6 digits.
account-pin-title = Table PIN
account-pin-intro = The PIN you type at a table's tablet to take the table over from the dealer there (4 to 6 digits).
account-pin-label = New PIN
account-pin-save = Save the PIN
account-pin-saved = Your table PIN is saved.
my-night-nav = My night
my-night-title = My night
my-night-now = Now
my-night-downs = { $count ->
    [one] 1 down since the last break
   *[other] { $count } downs since the last break
}
my-night-next-table = Next: table { $table } at { $time }.
my-night-next-break = Relieved at { $time }, then a break until { $until }.
my-night-next-relieved = Relieved at { $time }.
my-night-no-next = No push for you in the next hour.
my-night-said-in = You are clocked in.
my-night-said-out = You are clocked out.
my-night-said-break = You are on a break.
my-night-said-back = You are back from the break.
report-dealers-nav = Dealers
report-dealers-title = Dealers' hours and tips
report-dealers-prev = Before
report-dealers-next = After
report-dealers-intro = Each dealer's downs, hours dealt, the breaks the room's push rules called for against those taken, pushes that came after the down was up, and the tips of each down (PT-2007 5, 9d).
report-dealers-pooled = The room pools tips: each dealer's share is by hours dealt.
report-dealers-hours = Per dealer
report-dealers-csv-downs = CSV of the downs
report-dealers-downs = Every down
report-dealers-late = late
report-dealers-col-dealer = Dealer
report-dealers-col-downs = Downs
report-dealers-col-hours = Hours dealt
report-dealers-col-breaks-due = Breaks due
report-dealers-col-breaks-taken = Breaks taken
report-dealers-col-late = Late pushes
report-dealers-col-tips = Tips
report-dealers-col-share = Pooled share
report-dealers-col-start = Start
report-dealers-col-end = End
report-dealers-col-minutes = Minutes
report-dealers-chart = Dealers on the floor and tables open
report-dealers-chart-desc = Per hour of the clock, on average: the dealers clocked in against the tables with players seated. Where the tables pass the dealers, the room ran short.
report-dealers-chart-axis = On average
report-dealers-on-floor = Dealers on the floor
report-dealers-tables-open = Tables open
report-dealers-gaps = Tables without a dealer while players waited
report-dealers-gaps-intro = Minutes each table had players seated but no dealer, while its game's list had players waiting.
report-dealers-gaps-none = None: every table in play had its dealer while players waited.

action-dealer-clock_in = Dealer clocked in
action-dealer-clock_out = Dealer clocked out
action-dealer-break = Dealer on a break
action-dealer-back = Dealer back from a break
action-dealer-push = Dealer push (a dealer relieved at a table)
action-dealer-relieve = Dealer taken off a table (no dealer there until the next push)
action-dealer-pin_set = Dealer's PIN set
err-dealer-none-here = Table { $table } has no dealer to take off.
dealers-take-off = Take off the table
dealers-take-off-break = To a break
dealers-take-off-available = Free
dealers-relieved-break = { $dealer } is off table { $table } and on a break until { $time }; the table has no dealer until the next push.
dealers-relieved-free = { $dealer } is off table { $table } and free for the next push; the table has no dealer until then.
