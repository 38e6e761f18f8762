#!/usr/bin/env bash
# bench-designs.sh: how fast Bobbin reads design files, against Python's pyembroidery reading the
# same files on this machine, in one run:
#
#   scripts/bench-designs.sh
#   SECONDS_EACH=5 scripts/bench-designs.sh
#
# Both read every sample design of testdata/designs (DST, PES, JEF, EXP, VP3; sources and licences
# in SOURCES.tsv there) from memory, again and again for SECONDS_EACH seconds (2) after one untimed
# pass, three rounds in turn: Bobbin's readers natively (crates/core/examples/bench-designs.rs:
# detect the format, read the records, compute the summary) and pyembroidery's (read each file
# into its pattern, count its stitches). It prints each one's stitches per second, counting the
# stitches Bobbin's summaries give for both (pyembroidery's own count is printed beside it), and
# the ratio of the medians. The target (docs/benchmarks.md, "Design files") is at least 100 times
# pyembroidery's.
#
# Installs pyembroidery into .tools/design-bench-venv the first time, with pip from PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

# pyembroidery 1.5.1 (MIT licence) is the release current on 2026-11-26.
PYEMBROIDERY_VERSION=1.5.1
VENV=.tools/design-bench-venv
python=/usr/bin/python3
[ -x "$python" ] || python=$(command -v python3 || true)
if [ -z "$python" ]; then
  echo "bench-designs.sh needs Python 3 (Debian: apt-get install python3 python3-venv)." >&2
  exit 1
fi
if ! "$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('pyembroidery') != '$PYEMBROIDERY_VERSION')" 2>/dev/null; then
  if ! "$python" -c 'import ensurepip, venv' 2>/dev/null; then
    ensure_debian_packages python3-venv
  fi
  say "Installing pyembroidery $PYEMBROIDERY_VERSION into $VENV"
  rm -rf "$VENV"
  "$python" -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "pyembroidery==$PYEMBROIDERY_VERSION"
fi

cargo build --release --locked -p bobbin-core --example bench-designs
"$VENV/bin/python" scripts/bench-designs.py target/release/examples/bench-designs testdata/designs \
  "${SECONDS_EACH:-2}"
