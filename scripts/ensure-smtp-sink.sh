#!/usr/bin/env bash
# ensure-smtp-sink.sh : installs what scripts/smtp-sink.py needs (Debian's python3-aiosmtpd), the
# real SMTP server the Rust tests send Bobbin's e-mail through.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
/usr/bin/python3 -c 'import aiosmtpd' 2>/dev/null || ensure_debian_packages python3-aiosmtpd
