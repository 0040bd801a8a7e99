#!/usr/bin/env bash
# The test command: `bash tests/run.sh` (CI runs it through .ci/run).
#
#   1. installs what is missing (Chromium, chromedriver, PostgreSQL, build libraries,
#      cargo-nextest, aiosmtpd for the e-mail tests), idempotently;
#   2. starts a throwaway PostgreSQL cluster on 127.0.0.1 (removed on exit);
#   3. checks formatting, clippy (benches included) and licences (cargo deny, deny.toml),
#      builds once, then runs
#        run 1: every test (unit, HTTP on temporary SQLite, real browser) with
#               CARDROOM_REQUIRE_BROWSER=1;
#        run 2: the HTTP suite (tests/http.rs) again on PostgreSQL (with the outage
#               tests, which stop and restart clusters of their own);
#        run 3: the Debian package built, installed and run (tests/package.sh);
#        run 4: the API contract fuzz (Schemathesis, tests/api_fuzz/run.sh) against the
#               server on SQLite and on PostgreSQL;
#   4. exits non-zero if any run failed.
#
# Environment: PG_PORT (first port to try, default 55432); anything cargo/nextest reads.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'tests/run.sh: %s\n' "$*" >&2; exit 1; }

# Nothing here reads stdin (CI has none).
exec </dev/null

# ---------------------------------------------------------------------------------------
# 1. Tools
# ---------------------------------------------------------------------------------------
if ! command -v cargo >/dev/null 2>&1 && [[ -f "$HOME/.cargo/env" ]]; then
    # shellcheck disable=SC1091
    source "$HOME/.cargo/env"
fi
command -v cargo >/dev/null 2>&1 || die "cargo is not installed (see https://rustup.rs)"

find_pg_bin() {
    local d best=""
    # Debian/Ubuntu keep the server binaries out of PATH; take the newest version.
    for d in /usr/lib/postgresql/*/bin; do
        if [[ -x "$d/pg_ctl" && -x "$d/initdb" ]]; then
            best=$(printf '%s\n%s\n' "$best" "$d" | sed '/^$/d' | sort -V | tail -n 1)
        fi
    done
    if [[ -n "$best" ]]; then
        printf '%s\n' "$best"
        return 0
    fi
    if command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then
        dirname "$(command -v pg_ctl)"
        return 0
    fi
    return 1
}

have_chromedriver() { [[ -x /usr/bin/chromedriver ]] || command -v chromedriver >/dev/null 2>&1; }
have_chromium() {
    [[ -x /usr/bin/chromium ]] || command -v chromium >/dev/null 2>&1 \
        || command -v chromium-browser >/dev/null 2>&1 || command -v google-chrome >/dev/null 2>&1
}
have_pc() { command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "$1" 2>/dev/null; }

missing=()
have_chromium || missing+=(chromium)
have_chromedriver || missing+=(chromium-driver)
find_pg_bin >/dev/null || missing+=(postgresql)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
have_pc libpq || missing+=(libpq-dev)          # diesel's PostgreSQL backend links libpq
have_pc openssl || missing+=(libssl-dev)       # fantoccini (native-tls) links OpenSSL
command -v cc >/dev/null 2>&1 || missing+=(gcc libc6-dev)

if ((${#missing[@]} > 0)); then
    log "missing: ${missing[*]}"
    if [[ $(id -u) -ne 0 ]]; then
        die "these are missing and installing them needs root: ${missing[*]}
  run as root, or: sudo apt-get install chromium chromium-driver postgresql libpq-dev libsqlite3-dev libssl-dev pkg-config"
    fi
    command -v apt-get >/dev/null 2>&1 || die "no apt-get on this machine; install by hand: ${missing[*]}"
    log "installing system packages (apt-get)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        chromium chromium-driver postgresql libpq-dev libsqlite3-dev libssl-dev pkg-config \
        "${missing[@]}" >/dev/null
fi
have_chromedriver || die "chromedriver is still missing after installation"
PG_BIN=$(find_pg_bin) || die "PostgreSQL server binaries (pg_ctl, initdb) are still missing after installation"

if ! cargo nextest --version >/dev/null 2>&1; then
    log "installing cargo-nextest"
    cargo install cargo-nextest --locked --quiet
fi

# The licence gate (deny.toml). Compiled from source once per machine: ~6 min on 2 cores.
if ! cargo deny --version >/dev/null 2>&1; then
    log "installing cargo-deny (once; compiles for a few minutes)"
    cargo install cargo-deny --locked --quiet
fi

# The e-mail tests (tests/http/notify.rs) start a real SMTP server: aiosmtpd, from PyPI
# (or Debian's python3-aiosmtpd where pip may not install into the system Python).
if ! python3 -c 'import aiosmtpd' >/dev/null 2>&1; then
    log "installing aiosmtpd (SMTP server for the e-mail tests)"
    command -v python3 >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-pip >/dev/null; } \
        || die "python3 is missing (needed by the e-mail tests)"
    python3 -m pip install --quiet aiosmtpd >/dev/null 2>&1 \
        || python3 -m pip install --quiet --break-system-packages aiosmtpd >/dev/null 2>&1 \
        || { command -v apt-get >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-aiosmtpd >/dev/null; } \
        || true
    python3 -c 'import aiosmtpd' >/dev/null 2>&1 || die "could not install aiosmtpd (python3 -m pip install aiosmtpd)"
fi

# ---------------------------------------------------------------------------------------
# 2. Throwaway PostgreSQL on loopback
# ---------------------------------------------------------------------------------------
PG_DIR=""
PG_STARTED=0
as_pg() {
    # initdb and postgres refuse to run as root; the postgres user may not be allowed into
    # the repository, so work from the cluster's directory.
    if [[ $(id -u) -eq 0 ]]; then
        (cd "$PG_DIR" && runuser -u postgres -- "$@")
    else
        (cd "$PG_DIR" && "$@")
    fi
}

cleanup() {
    local rc=$?
    if ((PG_STARTED)); then
        as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    if [[ -n "$PG_DIR" && -d "$PG_DIR" ]]; then
        rm -rf -- "$PG_DIR"
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

port_in_use() {
    # Something already accepting connections on 127.0.0.1:$1.
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

if [[ $(id -u) -eq 0 ]]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
    # Somewhere the postgres user can reach (root's TMPDIR might not be).
    PG_DIR=$(mktemp -d /tmp/cardroom-pg.XXXXXX)
    chown postgres: "$PG_DIR"
else
    PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/cardroom-pg.XXXXXX")
fi
chmod 700 "$PG_DIR"

log "initialising a throwaway PostgreSQL cluster in $PG_DIR ($PG_BIN)"
as_pg "$PG_BIN/initdb" -D "$PG_DIR/data" -A trust -U postgres --no-sync -E UTF8 --locale=C \
    >"$PG_DIR/initdb.log" 2>&1 || { cat "$PG_DIR/initdb.log" >&2; die "initdb failed"; }

PG_PORT=${PG_PORT:-55432}
for attempt in $(seq 1 20); do
    while port_in_use "$PG_PORT"; do PG_PORT=$((PG_PORT + 1)); done
    if as_pg "$PG_BIN/pg_ctl" -w -t 60 -D "$PG_DIR/data" -l "$PG_DIR/postgres.log" \
        -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
        start >/dev/null 2>&1; then
        PG_STARTED=1
        break
    fi
    # Port taken between the check and the start (another run?): try the next one.
    log "PostgreSQL did not start on port $PG_PORT (attempt $attempt); trying another port"
    as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
    PG_PORT=$((PG_PORT + 1))
done
if ((!PG_STARTED)); then
    cat "$PG_DIR/postgres.log" >&2 || true
    die "could not start PostgreSQL"
fi
export CARDROOM_TEST_PG="postgres://postgres@127.0.0.1:$PG_PORT/postgres"
# Tests and benchmarks that need a cluster of their own (to stop and restart it) use these.
export CARDROOM_TEST_PG_BIN="$PG_BIN"
log "PostgreSQL ready: $CARDROOM_TEST_PG"

# ---------------------------------------------------------------------------------------
# 3. Build once, then the two runs
# ---------------------------------------------------------------------------------------
log "gates: cargo fmt --check; cargo clippy --all-targets (benches included) -D warnings; licences"
cargo fmt --check >/dev/null || { cargo fmt --check | head -n 40; die "the code is not formatted: run cargo fmt"; }
cargo clippy --all-targets --locked --quiet -- -D warnings || die "clippy found problems (cargo clippy --all-targets -- -D warnings)"
# Licences: every crate of every platform (cargo fetch brings the manifests cargo-deny reads;
# the check itself runs offline and fetches no advisory database).
log "gate: cargo deny --offline check licenses (deny.toml)"
cargo fetch --locked --quiet
cargo deny --offline --locked check licenses 2>&1 | tail -n 40 \
    || die "a dependency's licence is not in deny.toml's allow-list (cargo deny check licenses)"

# Disk: the debug target is ~3-5 GB, the package's release build ~1 GB more, and the
# PostgreSQL run makes (and drops) one database per test. Shown before and after, so that a
# run that fails on a full disk says so.
disk() { df -h --output=avail,target "${CARGO_TARGET_DIR:-.}" /tmp 2>/dev/null | sed 's/^/    /' >&2 || true; }
log "free disk before the build:"
disk

log "building (cargo build --tests --bins)"
cargo build --tests --bins
log "free disk after the build:"
disk

log "run 1: all tests on SQLite, with the real browser"
set +e
env -u CARDROOM_TEST_DB CARDROOM_REQUIRE_BROWSER=1 cargo nextest run --no-fail-fast
run1=$?
set -e

log "run 2: the HTTP suite on PostgreSQL"
set +e
CARDROOM_TEST_DB=postgres cargo nextest run --no-fail-fast --test http
run2=$?
set -e

log "run 3: the Debian package, built and installed (tests/package.sh)"
set +e
bash tests/package.sh
run3=$?
set -e

log "run 4: the API contract fuzz (tests/api_fuzz/run.sh) on SQLite and PostgreSQL"
set +e
bash tests/api_fuzz/run.sh sqlite
run4=$?
bash tests/api_fuzz/run.sh postgres
run4pg=$?
((run4 == 0)) && run4=$run4pg
set -e

log "free disk at the end:"
disk

verdict() { if (($1 == 0)); then echo "passed"; else echo "FAILED (exit $1)"; fi; }
echo
echo "run 1 (SQLite + unit + browser): $(verdict "$run1")"
echo "run 2 (HTTP suite on PostgreSQL): $(verdict "$run2")"
echo "run 3 (Debian package): $(verdict "$run3")"
echo "run 4 (API contract fuzz, SQLite and PostgreSQL): $(verdict "$run4")"

if ((run1 != 0 || run2 != 0 || run3 != 0 || run4 != 0)); then
    exit 1
fi
