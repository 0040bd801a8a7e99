# The wait every screen shows (PT-2007 8a, BSOP 43): domain::waits, services::waits.
waits-duration = { $hours ->
    [0] { $minutes } min
   *[other] { $minutes ->
        [0] { $hours } h
       *[other] { $hours } h { $minutes } min
    }
}
waits-free-now = A seat is free now
waits-unknown = No estimate yet: too little history at this hour
waits-between-min = { $low }–{ $high } min
waits-between = { $low } – { $high }
waits-up-to = up to { $time }
waits-more-than = more than { $time }
waits-label = Estimated wait
waits-join-label = Joining now
waits-hint = From how often seats of this game opened and players left the list on recent nights at this hour: most nights the real wait falls inside.
