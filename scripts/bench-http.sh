#!/usr/bin/env bash
# bench-http.sh: how close Bobbin's API comes to what axum itself answers, on this machine, in
# one run. After `make dist`:
#
#   scripts/bench-http.sh            SQLite, then PostgreSQL
#   SECONDS_EACH=10 scripts/bench-http.sh
#   COMPARE=/tmp/bobbin-before ENDPOINTS=teams scripts/bench-http.sh
#                                    target/dist/bobbin against another build, loads interleaved
#
# It builds the reference (crates/server/examples/bare_axum.rs: one JSON handler, the same axum,
# tokio and compiler settings: Cargo.toml's `dist` profile, as the server ships), then
# scripts/bench-http.mjs loads it and each endpoint of the shipped server with wrk (64 connections, 2 threads, SECONDS_EACH seconds each, loopback only)
# and prints each endpoint's requests per second as a share of the reference's, with p50 and p99.
# PostgreSQL is the one scripts/with-postgres.sh finds or starts; the benchmark makes its own
# database there and drops it. Installs wrk from Debian's packages when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

command -v wrk >/dev/null || ensure_debian_packages wrk
[ -x target/dist/bobbin ] || { echo "bench-http.sh: run make dist first" >&2; exit 1; }
cargo build --profile dist --locked -p bobbin-server --example bare_axum
exec scripts/with-postgres.sh node scripts/bench-http.mjs "$@"
