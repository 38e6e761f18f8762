#!/usr/bin/env bash
# Fuzzes each design-file reader in bobbin-core (fuzz/, one cargo-fuzz target per format) for a
# bounded time, seeded from the sample designs in testdata/designs and the crafted files in
# fuzz/seeds (many blocks, long repeated thread names, at and past the readers' caps; written by
# `cargo run -p bobbin-core --example crafted-designs -- fuzz/seeds`). Stops by itself: each
# target runs FUZZ_SECONDS (default 15), so the whole script takes a few minutes with the build.
# Fails if any target finds an input that panics, hangs (over FUZZ_TIMEOUT seconds for one input)
# or allocates past FUZZ_RSS_MB; libFuzzer leaves the input in fuzz/artifacts/<target>/.
#
# Needs a nightly toolchain (libFuzzer's sanitizer flags); installs cargo-fuzz if missing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

FUZZ_SECONDS=${FUZZ_SECONDS:-15}
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-10}
FUZZ_RSS_MB=${FUZZ_RSS_MB:-1024}
DESIGNS=${DESIGNS_DIR:-testdata/designs}
TARGETS=(dst pes jef exp vp3)

if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  echo "The design fuzzers need a nightly Rust toolchain (rustup toolchain install nightly)." >&2
  exit 1
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  say "Installing cargo-fuzz"
  cargo +nightly install cargo-fuzz --locked
fi
if [ ! -d "$DESIGNS" ]; then
  echo "No sample designs at $DESIGNS to seed the fuzzers from (set DESIGNS_DIR)." >&2
  exit 1
fi

say "Building the design fuzz targets"
(cd fuzz && cargo +nightly fuzz build)

failed=()
for target in "${TARGETS[@]}"; do
  corpus=fuzz/corpus/$target
  mkdir -p "$corpus"
  # Seed with the samples of this format (any case of extension); the corpus keeps growing
  # between runs, as libFuzzer adds the inputs that reach new code.
  find "$DESIGNS" -maxdepth 1 -type f -iname "*.$target" -exec cp -n {} "$corpus/" \;
  if [ -d "fuzz/seeds/$target" ]; then
    cp -n fuzz/seeds/"$target"/* "$corpus/"
  fi
  say "Fuzzing the $target reader for ${FUZZ_SECONDS}s"
  if ! (cd fuzz && cargo +nightly fuzz run "$target" "corpus/$target" -- \
        -max_total_time="$FUZZ_SECONDS" -timeout="$FUZZ_TIMEOUT" -rss_limit_mb="$FUZZ_RSS_MB" \
        -print_final_stats=1 2>&1 | tail -n 40); then
    failed+=("$target")
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "Design fuzzing found crashes in: ${failed[*]} (inputs in fuzz/artifacts/)." >&2
  exit 1
fi
say "Design fuzzing: no crash in ${TARGETS[*]} (${FUZZ_SECONDS}s each)"
