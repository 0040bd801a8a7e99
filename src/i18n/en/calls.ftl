# A seat call on the dealer's tablet: first on the screen, a chime, a vibration, the screen awake.
call-alert-sound = Chime and vibration
call-alert-vibrate = Vibration only
call-alert-off = Neither (the call only shows first)
admin-room-call-alert = Seat calls on the tablets
admin-room-call-alert-hint = How a new seat call is announced on the dealers' tablets, where the device allows it. The call is always shown first on the table screen, and the screen stays awake while a call is open; each tablet can mute itself for 10 minutes.
calls-sound-arm = Tap to enable sound
calls-sound-arm-hint = The browser plays sound only after a first tap on the page
calls-mute = Mute 10 min
calls-mute-hint = No chime nor vibration on this tablet for 10 minutes
calls-muted = Muted
calls-muted-hint = Tap to turn the sound back on now
calls-banner = { $count ->
    [one] A seat call is open
   *[other] { $count } seat calls are open
}
calls-banner-back = Back to the table
