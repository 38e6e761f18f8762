#!/usr/bin/env bash
# serve.sh ENV PORT [postgres] : runs a copy of the release binary, alone in a fresh folder (so it
# can only serve what is embedded in it), with its default SQLite database under that folder's
# ./data, or with `postgres` on a fresh database of the PostgreSQL server that
# BOBBIN_TEST_POSTGRES_URL names (scripts/with-postgres.sh, which `make test-e2e` runs under).
# Playwright starts one per environment (playwright.config.ts) and stops it after the tests.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
environment=$1
port=$2
database=()
if [ "${3:-}" = postgres ]; then
  name="bobbin_e2e_$port"
  psql "$BOBBIN_TEST_POSTGRES_URL" -qc "DROP DATABASE IF EXISTS $name WITH (FORCE)" -c "CREATE DATABASE $name" >/dev/null
  database=(--database-url "${BOBBIN_TEST_POSTGRES_URL%/*}/$name")
fi
folder="$here/.tmp/$environment-$port"
rm -rf "$folder"
mkdir -p "$folder"
cp "$here/../target/release/bobbin" "$folder/bobbin"
cd "$folder"
# Every test signs in from 127.0.0.1, so the per-address rate limit is raised here; the Rust
# tests check the limit itself.
# The contact page's messages go to an address of the tests (kept in the outbox: no SMTP here).
BOBBIN_LOG=${BOBBIN_LOG:-warn} BOBBIN_AUTH_RATE_LIMIT=100000 BOBBIN_CONTACT_EMAIL=help@bobbin.test exec env -u DATABASE_URL -u BOBBIN_SMTP_URL \
  ./bobbin serve --bind "127.0.0.1:$port" --env "$environment" --site-url "http://127.0.0.1:$port" "${database[@]}"
