# The JSON API (/api/v1).
api-photo-content-type = Send the photo as the request body with Content-Type image/jpeg or image/png.
api-instant = Write an instant in RFC 3339 form, e.g. 2026-11-21T20:00:00Z.
