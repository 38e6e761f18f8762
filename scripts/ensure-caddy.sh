#!/usr/bin/env bash
# Makes sure Debian's Caddy is installed for scripts/test-deploy.sh, which runs the release binary
# behind it as docs/deploy.md does.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

command -v caddy >/dev/null || ensure_debian_packages caddy
