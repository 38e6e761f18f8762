#!/usr/bin/env bash
# serve.sh ENV PORT : runs a copy of the release binary, alone in a fresh folder (so it can only
# serve what is embedded in it), with its default SQLite database under that folder's ./data.
# Playwright starts one per environment (playwright.config.ts) and stops it after the tests.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
environment=$1
port=$2
folder="$here/.tmp/$environment-$port"
rm -rf "$folder"
mkdir -p "$folder"
cp "$here/../target/release/bobbin" "$folder/bobbin"
cd "$folder"
BOBBIN_LOG=${BOBBIN_LOG:-warn} exec env -u DATABASE_URL ./bobbin serve --bind "127.0.0.1:$port" --env "$environment"
