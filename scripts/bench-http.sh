#!/usr/bin/env bash
# bench-http.sh: the API's speed on this machine, in one run: each endpoint alone with wrk, as a
# share of what axum itself answers, and a shop's realistic mix of calls (docs/benchmarks.md,
# "API speed"). After `make dist`:
#
#   scripts/bench-http.sh                 both, SQLite then PostgreSQL (about 3 minutes for the
#                                         endpoints; the shop's setup and phases take longer)
#   MODE=endpoints scripts/bench-http.sh  the single endpoints only (SECONDS_EACH, THREADS, ENDPOINTS)
#   MODE=mix scripts/bench-http.sh        the shop only (TEAMS, PEOPLE, MIN_THREADS, MAX_THREADS,
#                                         MIX_SECONDS, REFRESH_RATE, CONCURRENCY)
#   MODE=mix BEFORE=/tmp/bobbin-before/target/dist/bobbin scripts/bench-http.sh
#                                         the shop on this build and on the build before issue 47's
#                                         data layer, in the same run
#   MODE=mix TEAMS=20 MIX_SECONDS=10 scripts/bench-http.sh
#                                         a quick run at a tenth of the scale
#   COMPARE=/tmp/bobbin-before ENDPOINTS=teams scripts/bench-http.sh
#                                         target/dist/bobbin against another build on single
#                                         endpoints, loads interleaved
#
# BOBBIN_BINARY measures another build than target/dist/bobbin; BARE_AXUM names the reference
# server, otherwise built here (crates/server/examples/bare_axum.rs: one JSON handler, the same
# axum, tokio and compiler settings: Cargo.toml's `dist` profile, as the server ships). To measure
# the release build: BOBBIN_BINARY=target/release/bobbin BARE_AXUM=target/release/examples/bare_axum.
# scripts/bench-http.mjs does the measuring; its header says how. PostgreSQL is the one
# scripts/with-postgres.sh finds or starts; the benchmark makes its own databases there and drops
# them. Installs wrk from Debian's packages when it is missing. Loopback only.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

binary=${BOBBIN_BINARY:-target/dist/bobbin}
[ -x "$binary" ] || { echo "bench-http.sh: $binary is missing: run make dist first (or set BOBBIN_BINARY)" >&2; exit 1; }
if [ "${MODE:-all}" != mix ]; then
  command -v wrk >/dev/null || ensure_debian_packages wrk
fi
if [ -z "${BARE_AXUM:-}" ]; then
  cargo build --profile dist --locked -p bobbin-server --example bare_axum
  export BARE_AXUM=target/dist/examples/bare_axum
fi
if [ "${MODE:-all}" != endpoints ] && [ ! -f crates/wasm/pkg/bobbin_pricing.js ]; then
  # The shop prices its quotes with the WebAssembly core, as the calculator does.
  scripts/build-wasm.sh
fi
BOBBIN_BINARY=$binary exec scripts/with-postgres.sh node scripts/bench-http.mjs "$@"
