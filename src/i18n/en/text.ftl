## Free text: what a field may hold (domain::text).

err-text-control = Contains an invisible control character ({ $char }) that cannot be kept: delete it and type the text again.
err-text-direction = Contains an invisible text-direction character ({ $char }), which can make the text read otherwise than it is written: delete it.
err-text-one-line = Must be on one line (no line breaks or tabs).
err-text-address = The address contains a character that is not allowed (an invisible control or text-direction character).
