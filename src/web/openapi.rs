//! OpenAPI 3 description of `/api/v1`, served at `/api/openapi.json`.
