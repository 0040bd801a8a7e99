#!/usr/bin/env bash
# The API contract gate: a schema-driven fuzzer (Schemathesis) against the real
# server with an admin token and a bounded number of examples. Fails on any server error,
# any response that does not match the OpenAPI document (status, headers, content type,
# body schema), a refused request the document says is valid for a reason the document could
# state (hooks.py), or an accepted request the document says is invalid.
#
#   bash tests/api_fuzz/run.sh sqlite
#   CARDROOM_TEST_PG=postgres://postgres@127.0.0.1:5432/postgres bash tests/api_fuzz/run.sh postgres
#
# Uses the debug binary `cargo build --bins` made (target/debug/cardroom, or
# $CARGO_TARGET_DIR). Schemathesis is installed, pinned, into a virtualenv beside it from the
# Python package index (once per target dir).
#
# Knobs: API_FUZZ_EXAMPLES (per operation, default 25), API_FUZZ_SEED (default 1: the gate
# is reproducible; any number explores other cases, `random` a new one each run — the seed is
# printed), API_FUZZ_KEEP=1 (keep the server's directory and log).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

backend=${1:?usage: run.sh sqlite|postgres}
SCHEMATHESIS_VERSION=4.32.5
target=${CARGO_TARGET_DIR:-target}
bin="$target/debug/cardroom"
[[ -x "$bin" ]] || { echo "api_fuzz: $bin is missing (cargo build --bins)" >&2; exit 2; }

log() { printf '==> api fuzz (%s): %s\n' "$backend" "$*" >&2; }

# 1. Schemathesis, pinned, in a virtualenv of its own.
venv="$target/api-fuzz-venv"
if ! "$venv/bin/st" --version 2>/dev/null | grep -q "$SCHEMATHESIS_VERSION"; then
    log "installing schemathesis $SCHEMATHESIS_VERSION into $venv"
    rm -rf "$venv"
    if ! python3 -m venv "$venv" >/dev/null 2>&1; then
        # Debian keeps venv apart.
        if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
            py=$(python3 -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv "python$py-venv" >/dev/null 2>&1 \
                || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
        fi
        rm -rf "$venv"
        python3 -m venv "$venv"
    fi
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

# 2. The server, on a free port, with the demo room.
work=$(mktemp -d "${TMPDIR:-/tmp}/cardroom-fuzz.XXXXXX")
server_pid=""
pg_db=""
cleanup() {
    local rc=$?
    if [[ -n "$server_pid" ]]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    if [[ -n "$pg_db" ]]; then
        psql -q "$CARDROOM_TEST_PG" -c "DROP DATABASE IF EXISTS $pg_db WITH (FORCE)" >/dev/null 2>&1 || true
    fi
    if [[ "${API_FUZZ_KEEP:-0}" == 1 || $rc -ne 0 ]]; then
        echo "api_fuzz: the server's directory and log are kept in $work" >&2
    else
        rm -rf "$work"
    fi
    exit "$rc"
}
trap cleanup EXIT

case "$backend" in
    sqlite) db_url="sqlite://$work/fuzz.db" ;;
    postgres)
        : "${CARDROOM_TEST_PG:?set CARDROOM_TEST_PG to a PostgreSQL URL (tests/run.sh does)}"
        pg_db="cardroom_fuzz_$$"
        psql -q "$CARDROOM_TEST_PG" -c "CREATE DATABASE $pg_db" >/dev/null
        db_url="${CARDROOM_TEST_PG%/*}/$pg_db"
        ;;
    *) echo "api_fuzz: backend is sqlite or postgres" >&2; exit 2 ;;
esac

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
password="fuzz-admin-$$-$RANDOM$RANDOM"
env CARDROOM_DATABASE_URL="$db_url" CARDROOM_BIND="127.0.0.1:$port" \
    CARDROOM_ADMIN_PASSWORD="$password" CARDROOM_AUDIT_DIR="$work/audit" \
    CARDROOM_NOTIFY_SINK="$work/messages.log" CARDROOM_LOG_FORMAT=json \
    "$bin" --demo serve >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 150); do
    curl -sf "$base/healthz" >/dev/null 2>&1 && break
    kill -0 "$server_pid" 2>/dev/null || { tail -n 30 "$work/server.log" >&2; echo "api_fuzz: the server did not start" >&2; exit 1; }
    sleep 0.2
done
curl -sf "$base/healthz" >/dev/null || { tail -n 30 "$work/server.log" >&2; echo "api_fuzz: the server did not answer" >&2; exit 1; }

token=$(curl -sf -X POST "$base/api/v1/auth/login" -H 'content-type: application/json' \
    -d "{\"username\":\"admin\",\"password\":\"$password\"}" \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')

# 3. The fuzzer. Signing out (`/auth/logout`) would end its own token: the session tests
# cover it (tests/http/sessions.rs); hooks.py keeps it off its own account and session.
seed=${API_FUZZ_SEED:-1}
[[ "$seed" == random ]] && seed=$(python3 -c 'import random; print(random.getrandbits(64))')
examples=${API_FUZZ_EXAMPLES:-25}
log "$examples examples per operation, seed $seed, server $base ($db_url)"
here="$PWD/tests/api_fuzz"
st_bin="$PWD/$venv/bin/st"
[[ "$venv" == /* ]] && st_bin="$venv/bin/st"
set +e
# From the work directory: Schemathesis keeps a cache (`.schemathesis/`) where it runs.
(cd "$work" && FUZZ_TOKEN="$token" SCHEMATHESIS_HOOKS=hooks PYTHONPATH="$here" \
    "$st_bin" --config-file "$here/schemathesis.toml" --no-color run "$base/api/openapi.json" \
    -H "Authorization: Bearer $token" \
    --checks all --exclude-checks ignored_auth \
    --exclude-path /api/v1/auth/logout \
    --max-examples "$examples" --seed "$seed" --generation-database none \
    --workers 1 --request-timeout 30 \
    >"$work/schemathesis.txt" 2>&1)
rc=$?
set -e
sed -n '/= SUMMARY =/,$p' "$work/schemathesis.txt" >&2
if ((rc != 0)); then
    # The failures themselves (each with a curl line to reproduce).
    sed -n '/= FAILURES =/,/= SUMMARY =/p' "$work/schemathesis.txt" | head -n 400 >&2
    sed -n '/= ERRORS =/,/= FAILURES =/p' "$work/schemathesis.txt" | head -n 100 >&2
fi
# The server's own errors (actix-http logs the fuzzer's malformed requests, e.g. a NUL byte
# in a header, at ERROR before answering 400: those are not the server failing).
errors='"level":"ERROR".*"target":"cardroom|panicked'
if grep -Eq "$errors" "$work/server.log"; then
    echo "api_fuzz: the server logged errors:" >&2
    grep -E "$errors" "$work/server.log" | head -n 20 >&2
    rc=1
fi
exit "$rc"
