#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed for the Playwright tests (Playwright cannot download
# its own browsers on these machines; end2end/playwright.config.ts points at /usr/bin/chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then
  exit 0
fi
ensure_debian_packages chromium
