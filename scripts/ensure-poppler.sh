#!/usr/bin/env bash
# ensure-poppler.sh : installs Debian's poppler-utils (pdftotext, pdfinfo, pdftoppm), with which
# the tests read the quote PDFs the server makes: their text, their pages, their pictures.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
command -v pdftoppm >/dev/null && command -v pdftotext >/dev/null || ensure_debian_packages poppler-utils
