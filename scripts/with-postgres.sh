#!/usr/bin/env bash
# with-postgres.sh COMMAND... : runs COMMAND with BOBBIN_TEST_POSTGRES_URL naming a PostgreSQL
# server where the tests may create (and drop) their own databases.
#
# In order: the URL already in BOBBIN_TEST_POSTGRES_URL; else the server at 127.0.0.1:5432 if it
# lets user postgres in; else a private throwaway server in a temporary folder (PostgreSQL is
# installed from Debian first if needed), stopped and deleted when COMMAND ends.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

if [ -n "${BOBBIN_TEST_POSTGRES_URL:-}" ]; then
  exec "$@"
fi

local_url=postgres://postgres@127.0.0.1:5432/postgres
if command -v psql >/dev/null && psql "$local_url" -Atqc 'select 1' >/dev/null 2>&1; then
  say "Testing against PostgreSQL at 127.0.0.1:5432"
  BOBBIN_TEST_POSTGRES_URL=$local_url exec "$@"
fi

ensure_debian_packages postgresql
bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
folder=$(mktemp -d /tmp/bobbin-postgres.XXXXXX)
port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# PostgreSQL refuses to run as root; run it as the postgres user the Debian package created.
as_owner=()
if [ "$(id -u)" -eq 0 ]; then
  chown postgres: "$folder"
  as_owner=(runuser -u postgres --)
fi
stop() {
  "${as_owner[@]}" "$bindir/pg_ctl" -D "$folder/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$folder"
}
trap stop EXIT

say "Starting a throwaway PostgreSQL on 127.0.0.1:$port"
"${as_owner[@]}" "$bindir/initdb" -D "$folder/data" -U postgres --auth=trust -E UTF8 >/dev/null
"${as_owner[@]}" "$bindir/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w \
  -o "-p $port -k $folder -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null

BOBBIN_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:$port/postgres "$@"
