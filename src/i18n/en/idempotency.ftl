# Idempotency keys: a request sent again with the same key is answered once.
err-idem-key-invalid = The Idempotency-Key header must be 1 to 200 visible ASCII characters (no control characters, no accents).
err-idem-key-mismatch = This Idempotency-Key was already used, in the last 24 hours, for this operation with a different body. Use a new key for a new request.
err-idem-form-mismatch = This form was already sent, with other values (Idempotency-Key). Reload the page to send it again.
err-idem-busy = This request (Idempotency-Key) is still being processed. Retry in a moment to get its answer.
err-idem-lost = This request (Idempotency-Key) was already applied, but its answer was lost. Do not send it again: check its outcome instead.
err-idem-too-large = This request (Idempotency-Key) was already applied; its answer was too large to keep. Do not send it again: check its outcome instead.
