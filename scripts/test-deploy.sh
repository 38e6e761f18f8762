#!/usr/bin/env bash
# test-deploy.sh : the deployment docs/deploy.md describes, tried on this machine (loopback only).
#
# 1. deploy/bobbin.service passes `systemd-analyze verify` (which needs the ExecStart binary to
#    exist: a copy of the unit runs a copy of the release binary in a temporary folder instead of
#    /usr/local/bin/bobbin; nothing else changes) and `systemd-analyze security` rates it at
#    most 2.0 ("OK").
# 2. The release binary runs with deploy/bobbin.env.example's settings, behind real Caddy
#    (Debian's package) running deploy/Caddyfile. Only the addresses differ: the site is
#    https://127.0.0.1:PORT with Caddy's own certificate authority (`tls internal`) instead of a
#    public name, Bobbin and an SMTP server listen on free loopback ports, and Caddy gets global
#    options that keep it inside this test (no admin endpoint, no trust store changes, its
#    files in the temporary folder). Then:
#    - curl, trusting Caddy's authority: /healthz answers over HTTPS, with HSTS;
#    - the auth limit (BOBBIN_AUTH_RATE_LIMIT, lowered to 3) counts each client: 127.0.0.2 is
#      refused after 3 sign-ins, a made-up X-Forwarded-For does not get it more, and 127.0.0.3
#      still has its own 3;
#    - Chromium (end2end/deploy.config.ts): sign-up, the e-mailed link and sign-in through the
#      proxy, and the auth cookie the app writes is Secure.
# Bounded (each wait has a deadline), and every process it starts is stopped when it ends,
# however it ends.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

BIN=${BOBBIN_BIN:-target/release/bobbin}
[ -x "$BIN" ] || { echo "test-deploy: no $BIN (run make build)" >&2; exit 1; }
scripts/ensure-caddy.sh
scripts/ensure-chromium.sh
scripts/ensure-smtp-sink.sh

tmp=$(mktemp -d)
pids=()
cleanup() {
  local status=$?
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "$status" -ne 0 ]; then
    for log in "$tmp"/*.log; do [ -s "$log" ] && { echo "--- $log (last lines)" >&2; tail -n 20 "$log" >&2; }; done
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 143' TERM INT

fail() { echo "test-deploy: FAILED: $*" >&2; exit 1; }

# ---- 1. The unit ---------------------------------------------------------------------------
say "deploy/bobbin.service: systemd-analyze verify and security"
mkdir -p "$tmp/unit"
cp "$BIN" "$tmp/unit/bobbin"
sed "s#/usr/local/bin/bobbin#$tmp/unit/bobbin#" deploy/bobbin.service > "$tmp/unit/bobbin.service"
grep -q "ExecStart=$tmp/unit/bobbin serve" "$tmp/unit/bobbin.service" || fail "the unit's ExecStart is not /usr/local/bin/bobbin serve"
# verify exits 0 on a setting it ignores ("Unknown key", a misspelt value): any word it says fails.
if ! verify=$(systemd-analyze verify --man=no "$tmp/unit/bobbin.service" 2>&1) || [ -n "$verify" ]; then
  fail "systemd-analyze verify: $verify"
fi
# --threshold is in tenths: 20 is an exposure of 2.0.
if ! security=$(systemd-analyze security --offline=true --threshold=20 --no-pager "$tmp/unit/bobbin.service" 2>&1); then
  fail "systemd-analyze security rates the unit above 2.0: $(grep -e '^✗' -e 'Overall' <<< "$security")"
fi
# What docs/deploy.md promises about the unit, and what the other settings rely on.
for line in User=bobbin ProtectSystem=strict ReadWritePaths=/var/lib/bobbin StateDirectory=bobbin NoNewPrivileges=yes \
  PrivateTmp=yes Restart=on-failure KillSignal=SIGTERM EnvironmentFile=/etc/bobbin/bobbin.env \
  LoadCredential=encryption-key:/etc/bobbin/encryption-key 'Environment=BOBBIN_ENCRYPTION_KEY_FILE=%d/encryption-key'; do
  grep -qxF "$line" deploy/bobbin.service || fail "deploy/bobbin.service lacks $line"
done
grace=$(sed -n 's/^BOBBIN_SHUTDOWN_GRACE=//p' deploy/bobbin.env.example)
stop=$(sed -n 's/^TimeoutStopSec=\([0-9]*\)s$/\1/p' deploy/bobbin.service)
[ -n "$grace" ] && [ -n "$stop" ] && [ "$stop" -gt "$grace" ] ||
  fail "TimeoutStopSec ($stop) must be longer than BOBBIN_SHUTDOWN_GRACE ($grace)"

# ---- 2. Behind Caddy -----------------------------------------------------------------------
read -r app_port smtp_port https_port http_port < <(python3 - <<'PY'
import socket
sockets = [socket.socket() for _ in range(4)]
for s in sockets:
    s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in sockets))
PY
)
site="https://127.0.0.1:$https_port"

say "SMTP server on $smtp_port"
# smtp-sink.py stops when its standard input closes: this shell holds the pipe open on fd 9,
# so the server goes when the script does, even if it is killed.
mkfifo "$tmp/sink-input"
scripts/smtp-sink.py "$smtp_port" < "$tmp/sink-input" > "$tmp/mail.jsonl" 2> "$tmp/smtp-sink.log" &
pids+=($!)
exec 9> "$tmp/sink-input"
for _ in $(seq 1 50); do grep -q '^ready$' "$tmp/mail.jsonl" && break; sleep 0.2; done
grep -q '^ready$' "$tmp/mail.jsonl" || fail "the SMTP server did not start within 10 s"

say "Bobbin on 127.0.0.1:$app_port with deploy/bobbin.env.example"
openssl rand -base64 32 > "$tmp/encryption-key"
# The environment file alone, as systemd would give it (env -i), then what differs here.
env -i PATH="$PATH" bash -c '
  set -a
  . deploy/bobbin.env.example
  BOBBIN_BIND=127.0.0.1:'"$app_port"'
  BOBBIN_SITE_URL='"$site"'
  DATABASE_URL=sqlite://'"$tmp"'/data/bobbin.db
  BOBBIN_SMTP_URL=smtp://127.0.0.1:'"$smtp_port"'
  BOBBIN_BACKUP_DIR='"$tmp"'/backups
  BOBBIN_ENCRYPTION_KEY_FILE='"$tmp"'/encryption-key
  BOBBIN_AUTH_RATE_LIMIT=3
  BOBBIN_LOG=warn
  exec "$0" serve' "$(realpath "$BIN")" > "$tmp/bobbin.log" 2>&1 &
pids+=($!)

say "Caddy on $site"
{
  printf '{\n\tadmin off\n\thttp_port %s\n\thttps_port %s\n\tskip_install_trust\n\tstorage file_system %s\n\tauto_https disable_redirects\n}\n' \
    "$http_port" "$https_port" "$tmp/caddy"
  sed -e "s#^bobbin.example {#$site {\n\tbind 127.0.0.1\n\ttls internal#" -e "s#127.0.0.1:3000#127.0.0.1:$app_port#" deploy/Caddyfile
} > "$tmp/Caddyfile"
grep -q "^$site {" "$tmp/Caddyfile" && grep -q "reverse_proxy 127.0.0.1:$app_port" "$tmp/Caddyfile" ||
  fail "deploy/Caddyfile no longer has the site bobbin.example proxied to 127.0.0.1:3000"
HOME="$tmp" XDG_DATA_HOME="$tmp" XDG_CONFIG_HOME="$tmp" caddy run --adapter caddyfile --config "$tmp/Caddyfile" > "$tmp/caddy.log" 2>&1 &
pids+=($!)

ca="$tmp/caddy/pki/authorities/local/root.crt"
# https GET through Caddy, certificate checked against Caddy's own authority.
through_caddy() { curl --silent --show-error --max-time 10 --cacert "$ca" "$@"; }
ready=""
for _ in $(seq 1 100); do
  for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null || fail "a process it started has stopped"; done
  if [ -s "$ca" ] && through_caddy --fail --output /dev/null "$site/healthz" 2>/dev/null; then ready=yes; break; fi
  sleep 0.2
done
[ -n "$ready" ] || fail "no answer from $site/healthz within 20 s"

say "HTTPS through Caddy"
headers=$(through_caddy --dump-header - --output /dev/null "$site/")
grep -qi '^strict-transport-security: max-age=' <<< "$headers" || fail "no HSTS header over https: $headers"
grep -qi '^server:' <<< "$headers" && fail "Caddy names itself: $headers"

say "The auth limit counts each client, behind the proxy"
# A password sign-in for an address nobody has: 400 while the client's limit holds, then 429.
# Each try names a new address, so only the per-client count can refuse it.
sign_in() {
  local from=$1
  shift
  through_caddy --interface "$from" --output /dev/null --write-out '%{http_code}' "$@" \
    -H 'Content-Type: application/json' -H 'apikey: bobbin' \
    --data "{\"email\":\"nobody-$RANDOM$RANDOM@example.com\",\"password\":\"Not-The-Password-1\"}" \
    "$site/auth/v1/token?grant_type=password"
}
expect_status() {
  local want=$1 what=$2 got
  shift 2
  got=$(sign_in "$@")
  [ "$got" = "$want" ] || fail "$what: $got, expected $want"
}
for try in 1 2 3; do expect_status 400 "sign-in $try of 3 from 127.0.0.2" 127.0.0.2; done
expect_status 429 "a fourth sign-in from 127.0.0.2" 127.0.0.2
expect_status 429 "a fourth sign-in from 127.0.0.2 claiming X-Forwarded-For: 203.0.113.9" 127.0.0.2 -H 'X-Forwarded-For: 203.0.113.9'
expect_status 429 "a fourth sign-in from 127.0.0.2 claiming two hops" 127.0.0.2 -H 'X-Forwarded-For: 203.0.113.9, 198.51.100.4'
expect_status 429 "a fourth sign-in from 127.0.0.2 claiming a Forwarded header" 127.0.0.2 -H 'Forwarded: for=203.0.113.9' -H 'X-Real-IP: 203.0.113.9'
expect_status 400 "the first sign-in from 127.0.0.3 (its own limit)" 127.0.0.3

say "Chromium through the proxy: sign-up, e-mailed link, sign-in, Secure cookie"
DEPLOY_URL="$site" DEPLOY_MAIL_LOG="$tmp/mail.jsonl" timeout 90 npx --no-install playwright test --config end2end/deploy.config.ts

say "test-deploy: passed"
