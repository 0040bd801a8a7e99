-- A dealer deals at one table at a time. A dealer left with several open shifts keeps the
-- latest; each earlier one ends when the dealer's next shift began.
UPDATE dealer_shifts SET ended_at = (
    SELECT MIN(later.started_at) FROM dealer_shifts later
    WHERE later.dealer_id = dealer_shifts.dealer_id AND later.id > dealer_shifts.id
)
WHERE ended_at IS NULL AND EXISTS (
    SELECT 1 FROM dealer_shifts later
    WHERE later.dealer_id = dealer_shifts.dealer_id
      AND later.id > dealer_shifts.id
      AND later.ended_at IS NULL
);
CREATE UNIQUE INDEX dealer_shifts_one_table ON dealer_shifts (dealer_id) WHERE ended_at IS NULL;
