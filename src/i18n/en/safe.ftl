# Seat-ending actions asked twice, the cash-out receipt, the reports' spreadsheet files.

safe-cash-out-confirm-title = Cash out { $alias }?
safe-cash-out-confirm-help = Nothing has changed yet. Confirm to free the seat and call the next player.
safe-cash-out-confirm-action = Confirm cash-out
safe-cash-out-keep = Keep the player seated
safe-receipt-title = { $alias } cashed out
safe-receipt-close = Close the receipt
safe-receipt-stack = Stack taken off
safe-receipt-bought-in = Bought in
safe-receipt-time = Time played
safe-receipt-result = Result
safe-receipts-title = Cash-outs
safe-receipts-none = No cash-out recorded.
safe-receipt-col-when = When
safe-receipt-col-table = Table · seat
safe-leave-confirm = { $alias } is about to leave seat { $seat } at table { $table }: nothing has changed yet.
safe-leave-confirm-action = Confirm: leaves the table
safe-removal-confirm = Tap again to take the chips off
