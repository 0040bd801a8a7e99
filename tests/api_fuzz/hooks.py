"""Schemathesis hooks for the API fuzz run (tests/api_fuzz/run.sh).

- The fuzzer signs in as an admin; it must not end its own session on the way (that is
  tested in tests/http/sessions.rs): a request naming its own staff account or session
  goes to an id that does not exist instead (`before_call`).
- One more check, `schema_expressible_refusal`: a request the document says is valid may
  still be refused for the room's state (a dealer that does not exist, a table already
  seated, a wrong current password: 404/409/422), but never for something the document
  could have said itself: a body or query that cannot be read (400) or a 422 whose field
  reason is a shape the schema expresses (required, range, choice, length, type).
"""

import base64
import json
import os

import schemathesis

_TOKEN = os.environ["FUZZ_TOKEN"]
_CLAIMS = json.loads(base64.urlsafe_b64decode(_TOKEN.split(".")[1] + "=="))
OWN_STAFF_ID = str(_CLAIMS["sub"])
OWN_SESSION_ID = str(_CLAIMS["sid"])

# Field reasons (`fields[].code`) that a JSON Schema can state: a request valid against the
# document must never get them.
SCHEMA_REASONS = {
    "required",
    "range",
    "choice",
    "too_long",
    "limit",
    "number",
    "field_type",
}


# Operations whose `id` may name the fuzzer's own account or session.
_OWN = {
    "/api/v1/staff/{id}": OWN_STAFF_ID,
    "/api/v1/staff/{id}/sessions/end": OWN_STAFF_ID,
    "/api/v1/me/sessions/{id}": OWN_SESSION_ID,
}


@schemathesis.hook
def before_call(context, case, kwargs):
    """Every phase (generated, coverage, stateful) goes through here: a request that would
    end the fuzzer's own session is sent to an id that does not exist instead."""
    params = case.path_parameters or {}
    # Random ids almost never name a row, and every such request stops at 404: most
    # generated ids are folded onto the demo room's (1 to 40), so the handlers' own logic is
    # reached too; some stay as drawn, for the 404 path.
    for name in ("id", "seat"):
        value = params.get(name)
        if isinstance(value, int) and not isinstance(value, bool) and value > 40 and value % 5 != 0:
            params[name] = value % 40 + 1
    own = _OWN.get(case.operation.path)
    if own is not None and str(params.get("id")) == own:
        params["id"] = "0"


@schemathesis.check
def schema_expressible_refusal(ctx, response, case):
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return None
    if response.status_code == 400:
        raise AssertionError(
            f"A request valid against the document was refused as unreadable (400): {response.text[:300]}"
        )
    if response.status_code == 422:
        try:
            fields = response.json()["error"].get("fields", [])
        except Exception:  # noqa: BLE001 - a 422 without our body is itself a failure
            raise AssertionError(f"422 without an error body: {response.text[:300]}")
        bad = [f for f in fields if f.get("code") in SCHEMA_REASONS]
        if bad:
            raise AssertionError(
                "A request valid against the document was refused for a reason the schema "
                f"could state: {json.dumps(bad, ensure_ascii=False)[:400]}"
            )
    return None
