#!/usr/bin/env bash
# Fuzzes the product API: every operation of /api/v2/openapi.json, DELETE included, signed in and
# pointed at records that exist, with property-based requests generated from the document itself
# (schemathesis). Fails on any 5xx answer, any status the document does not list for the
# operation, any body or content type that does not match the documented one, and any
# operation that answers without a valid session as if it had one.
#
# Starts the release binary (BIN, default target/release/bobbin; `make test` builds it) on a free
# loopback port with a fresh SQLite database in a temporary folder, makes the records with
# scripts/api-fuzz-fixtures.mjs, runs for API_FUZZ_SECONDS (default 100) and stops the server
# whatever happens. Settings are in scripts/api-fuzz.toml. API_FUZZ_SEED picks other examples
# (default 1, so a failure found once is found again).
#
# Installs schemathesis into ~/.cache/bobbin/ the first time, with pip from PyPI; needs
# Python 3 with `venv` (Debian's python3-venv, installed if missing) and Node.js.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
source scripts/lib.sh

# Pinned: schemathesis changes its checks, its configuration keys and how it generates data
# between minor versions, so an unpinned install could fail (or pass) `make test` for reasons that
# have nothing to do with Bobbin. 4.32.5 is the release these settings were written against; its
# own dependencies are pinned in scripts/api-fuzz-constraints.txt for the same reason (they are
# what pip chose for it on 2026-11-25). Raise them together, then check a run.
SCHEMATHESIS_VERSION=4.32.5
# Once per user and version, outside the checkout, so a second clone does not install it again.
VENV="${XDG_CACHE_HOME:-$HOME/.cache}/bobbin/api-fuzz-venv-$SCHEMATHESIS_VERSION"
BIN=${BIN:-target/release/bobbin}
API_FUZZ_SECONDS=${API_FUZZ_SECONDS:-100}
API_FUZZ_SEED=${API_FUZZ_SEED:-1}

if [ ! -x "$BIN" ]; then
  echo "No server binary at $BIN: build it first (make build)." >&2
  exit 1
fi

# The interpreter the virtual environment is made from: Debian's own where there is one (its
# python3-venv is what ensure_debian_packages can install), or else the python3 on PATH.
python=/usr/bin/python3
[ -x "$python" ] || python=$(command -v python3 || true)
if [ -z "$python" ]; then
  echo "The API fuzzer needs Python 3 (Debian: apt-get install python3 python3-venv)." >&2
  exit 1
fi
if [ "$("$VENV/bin/schemathesis" --version 2>/dev/null)" != "schemathesis, version $SCHEMATHESIS_VERSION" ]; then
  if ! "$python" -c 'import ensurepip, venv' 2>/dev/null; then
    ensure_debian_packages python3-venv
  fi
  say "Installing schemathesis $SCHEMATHESIS_VERSION into $VENV"
  rm -rf "$VENV"
  "$python" -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check \
    -c scripts/api-fuzz-constraints.txt "schemathesis==$SCHEMATHESIS_VERSION"
fi

work=$(mktemp -d)
server_pid=""
stop() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap stop EXIT
trap 'exit 130' INT TERM

say "Starting the server on a fresh SQLite database"
# Port 0: the system picks a free port and the server logs the address it bound. The auth
# and converter limits are raised out of the way: the fuzzer is one client sending thousands
# of requests, and 429 is not what it is here to find.
: >"$work/server.log" # before the server's shell opens it, so the loop below can read it at once
BOBBIN_AUTH_RATE_LIMIT=1000000 BOBBIN_CONVERT_RATE_LIMIT=1000000 BOBBIN_LOG=info \
  "$BIN" serve --bind 127.0.0.1:0 --env development --autoconfirm --jwt-expiry 7200 \
  --database-url "sqlite://$work/bobbin.db" >>"$work/server.log" 2>&1 &
server_pid=$!
address=""
for _ in $(seq 100); do
  address=$(sed -n 's/.*listening address=\([0-9.:]*\).*/\1/p' "$work/server.log" | head -n 1)
  [ -n "$address" ] && break
  if ! kill -0 "$server_pid" 2>/dev/null; then
    cat "$work/server.log" >&2
    echo "The server stopped before it listened." >&2
    exit 1
  fi
  sleep 0.1
done
if [ -z "$address" ]; then
  cat "$work/server.log" >&2
  echo "The server did not say where it listens within 10 seconds." >&2
  exit 1
fi
base="http://$address"

say "Making the records the fuzzer works on"
node scripts/api-fuzz-fixtures.mjs "$base" >"$work/fixtures.env"
set -a
# shellcheck source=/dev/null
source "$work/fixtures.env"
FUZZ_BASE_URL=$base
set +a

say "Fuzzing every operation of $base/api/v2/openapi.json for ${API_FUZZ_SECONDS}s"
status=0
# Reports and schemathesis's cache go to the temporary folder, not the repository. One worker
# (the default): with two, Python 3.11's parser, which the generator calls from both threads,
# failed the run with "AST constructor recursion depth mismatch".
(cd "$work" && "$VENV/bin/schemathesis" --config-file "$root/scripts/api-fuzz.toml" run \
  "$base/api/v2/openapi.json" --max-time "$API_FUZZ_SECONDS" --seed "$API_FUZZ_SEED") ||
  status=$?

if grep -q 'panicked' "$work/server.log"; then
  echo "The server panicked while fuzzed:" >&2
  grep -m 5 -A3 'panicked' "$work/server.log" >&2 || true
  status=1
fi
if [ "$status" -ne 0 ]; then
  echo "API fuzzing failed (seed $API_FUZZ_SEED). What the server logged as errors:" >&2
  grep -m 20 ' ERROR ' "$work/server.log" >&2 || echo "(nothing)" >&2
  exit "$status"
fi
say "API fuzzing: every answer was documented and none was a 5xx (${API_FUZZ_SECONDS}s, seed $API_FUZZ_SEED)"
