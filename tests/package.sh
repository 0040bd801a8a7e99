#!/usr/bin/env bash
# The Debian package, built and installed on this machine: `cargo deb` builds it,
# `dpkg -i` installs it, and the installed binary — as the `cardroom` system user, with the
# packaged /etc/cardroom/cardroom.toml, from /var/lib/cardroom — starts, answers /healthz,
# stops cleanly on SIGTERM, and the package is purged again (its test database removed).
#
# Needs root (dpkg). Called by tests/run.sh; prints "package: 1 passed, 0 failed" or fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
log() { printf '==> package: %s\n' "$*" >&2; }
fail() { printf 'package: FAILED: %s\n' "$*" >&2; echo "package: 0 passed, 1 failed"; exit 1; }

[[ $(id -u) -eq 0 ]] || { echo "package: skipped (dpkg needs root)"; exit 0; }
if [[ -e /var/lib/cardroom && ! -e /var/lib/cardroom/.cardroom-package-test ]] && dpkg -s cardroom >/dev/null 2>&1; then
    fail "a real cardroom installation is on this machine; not touching it"
fi

if ! command -v cargo-deb >/dev/null 2>&1; then
    log "installing cargo-deb"
    cargo install cargo-deb --locked --quiet
fi
log "building the package (release build)"
cargo deb --locked >/dev/null || fail "cargo deb"
deb=$(ls -t "${CARGO_TARGET_DIR:-target}"/debian/cardroom_*.deb | head -n 1)
log "installing $deb"
DEBIAN_FRONTEND=noninteractive dpkg -i "$deb" >/dev/null || fail "dpkg -i"
cleanup() {
    [[ -n "${pid:-}" ]] && kill -KILL "$pid" 2>/dev/null || true
    DEBIAN_FRONTEND=noninteractive dpkg --purge cardroom >/dev/null 2>&1 || true
    rm -rf /var/lib/cardroom
}
trap cleanup EXIT
touch /var/lib/cardroom/.cardroom-package-test

[[ -x /usr/bin/cardroom ]] || fail "/usr/bin/cardroom missing"
getent passwd cardroom >/dev/null || fail "no cardroom system user"
[[ $(stat -c '%U:%G %a' /etc/cardroom/cardroom.toml) == "root:cardroom 640" ]] || fail "/etc/cardroom/cardroom.toml: $(stat -c '%U:%G %a' /etc/cardroom/cardroom.toml)"
[[ $(stat -c '%U %a' /var/lib/cardroom) == "cardroom 750" ]] || fail "/var/lib/cardroom: $(stat -c '%U %a' /var/lib/cardroom)"
unit=$(ls /lib/systemd/system/cardroom.service /usr/lib/systemd/system/cardroom.service 2>/dev/null | head -n 1)
[[ -n "$unit" ]] || fail "no systemd unit installed"
grep -q '^ProtectSystem=strict' "$unit" && grep -q '^NoNewPrivileges=yes' "$unit" && grep -q '^User=cardroom' "$unit" || fail "the unit lacks its hardening"
if command -v systemd-analyze >/dev/null 2>&1; then
    out=$(systemd-analyze verify "$unit" 2>&1) || fail "systemd-analyze verify: $out"
fi
/usr/bin/cardroom config --example | cmp -s - /etc/cardroom/cardroom.toml || fail "the packaged settings are not the example"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
log "starting the installed binary as user cardroom on 127.0.0.1:$port"
(cd /var/lib/cardroom && exec setpriv --reuid=cardroom --regid=cardroom --init-groups env -i PATH=/usr/bin:/bin CARDROOM_CONFIG=/etc/cardroom/cardroom.toml \
    CARDROOM_BIND="127.0.0.1:$port" CARDROOM_ADMIN_PASSWORD=package-test-password RUST_LOG=warn /usr/bin/cardroom serve) \
    >/tmp/cardroom-package-test.log 2>&1 &
pid=$!
healthy=0
probe() {
    # In a subshell: a refused connection must not end this script.
    ( exec 3<>"/dev/tcp/127.0.0.1/$port" && printf 'GET /healthz HTTP/1.0\r\nHost: localhost\r\n\r\n' >&3 && head -n 1 <&3 ) 2>/dev/null || true
}
for _ in $(seq 1 100); do
    if [[ "$(probe)" == *" 200 "* ]]; then healthy=1; break; fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
done
((healthy)) || { cat /tmp/cardroom-package-test.log >&2; fail "the installed server did not answer /healthz with 200"; }
[[ -f /var/lib/cardroom/cardroom.db ]] || fail "the database is not in /var/lib/cardroom"
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
pid=""
((rc == 0)) || { cat /tmp/cardroom-package-test.log >&2; fail "exit status $rc after SIGTERM"; }
log "installed, served, stopped cleanly"
echo "package: 1 passed, 0 failed"
