# A API JSON (/api/v1).
api-photo-content-type = Envie a fotografia no corpo do pedido com Content-Type image/jpeg ou image/png.
api-instant = Indique um instante no formato RFC 3339, por exemplo 2026-11-21T20:00:00Z.
