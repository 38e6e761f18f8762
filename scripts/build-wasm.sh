#!/usr/bin/env bash
# Builds crates/wasm to WebAssembly and generates its JavaScript glue and TypeScript types into
# crates/wasm/pkg/ (wasm-bindgen, web target), then shrinks it with wasm-opt. Two modules, one per
# feature of the crate (crates/wasm/src/lib.rs): `bobbin_wasm` (the converter, which every page's
# footer and the widget load) and `bobbin_pricing` (the pricing calculator's).
#
# Where rustup has the wasm32-unknown-unknown target (a developer laptop, say) the ordinary cargo
# build is used. Where it has not and cannot download it (these Debian machines), Debian's rustc-web
# with the standard library's source (rust-web-src) builds std for wasm32 itself (`-Z build-std`,
# allowed by RUSTC_BOOTSTRAP). The two routes write to separate target folders, so they never
# invalidate each other's (or the native build's) artefacts.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

TARGET=wasm32-unknown-unknown
PROFILE=wasm-release
OUT=crates/wasm/pkg

# build FEATURE: the crate with that one feature, into $TARGET_DIR.
if rustup target list --installed 2>/dev/null | grep -qx "$TARGET"; then
  say "Building the WebAssembly core (rustup's $TARGET target)"
  TARGET_DIR=target/wasm-rustup
  build() {
    cargo build --profile "$PROFILE" --target "$TARGET" --target-dir "$TARGET_DIR" -p bobbin-wasm \
      --no-default-features --features "$1"
  }
else
  ensure_debian_packages rustc-web cargo-web rust-web-src lld-22
  say "Building the WebAssembly core (Debian rustc-web, std built from source)"
  TARGET_DIR=target/wasm-debian
  # RUSTC points away from the rustup proxy, which would ask for rust-src it cannot download.
  # lld-22 provides wasm-ld-22; some machines also have /usr/bin/rust-lld linked to it.
  linker=/usr/bin/wasm-ld-22
  [ -x /usr/bin/rust-lld ] && linker=/usr/bin/rust-lld
  # With std built here, a panic can abort at once, without formatting a message (wasm32 has no
  # stderr to write it to): the panic machinery and the text of every panic location stay out of
  # the modules, which are the smaller for it. The rustup route above keeps the ordinary abort.
  build() {
    RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=$linker \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort" \
      /usr/bin/cargo build --profile "$PROFILE" --target "$TARGET" --target-dir "$TARGET_DIR" \
        -Z build-std=std,panic_abort -p bobbin-wasm --no-default-features --features "$1"
  }
fi
WASM="$TARGET_DIR/$TARGET/$PROFILE/bobbin_wasm.wasm"

# The CLI must be exactly the version of the wasm-bindgen crate in Cargo.lock.
version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
# Installed once per user and version, outside the checkout, so a second clone (or CI's fresh one)
# does not compile it again.
tools="${XDG_CACHE_HOME:-$HOME/.cache}/bobbin/wasm-bindgen-cli-$version"
bindgen=""
for candidate in "$(command -v wasm-bindgen || true)" "$tools/bin/wasm-bindgen"; do
  if [ -x "$candidate" ] && [ "$("$candidate" --version)" = "wasm-bindgen $version" ]; then
    bindgen=$candidate
    break
  fi
done
if [ -z "$bindgen" ]; then
  say "Installing wasm-bindgen-cli $version into $tools (2 to 4 minutes, once)"
  # No --locked: the crate mirror sometimes lacks the newest patch release a lock file names.
  cargo install --quiet wasm-bindgen-cli --version "$version" --root "$tools"
  bindgen=$tools/bin/wasm-bindgen
fi

rm -rf "$OUT.tmp"
# wasm-opt from the npm package binaryen (pinned in package.json; `npm ci` installs it). Debian's
# binaryen 108 is too old: it breaks the reference-types table the module now uses.
wasm_opt=node_modules/.bin/wasm-opt
[ -x "$wasm_opt" ] || echo "$wasm_opt not found (run npm ci): the WebAssembly modules are not size-optimised." >&2
# Each feature is built in turn into the same file, which wasm-bindgen reads before the next.
for module in converter:bobbin_wasm pricing:bobbin_pricing; do
  feature=${module%%:*} name=${module#*:}
  build "$feature"
  "$bindgen" --target web --out-dir "$OUT.tmp" --out-name "$name" "$WASM"
  if [ -x "$wasm_opt" ]; then
    # The features Rust enables for wasm32 by default, named because wasm-opt does not detect them.
    "$wasm_opt" -Oz --converge --strip-debug --strip-producers --enable-bulk-memory \
      --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
      --enable-reference-types --enable-multivalue \
      -o "$OUT.tmp/${name}_bg.wasm" "$OUT.tmp/${name}_bg.wasm"
  fi
done

# The thread catalogue in its compact form: the app fetches it only on pages that need it, and the
# widget inlines it, so the module every page loads stays small.
cargo run --quiet --release -p bobbin-core --example export-catalogue -- "$OUT.tmp/threads.bin"

# Replace the package in one step, so a failed build never leaves half a package behind.
rm -rf "$OUT"
mv "$OUT.tmp" "$OUT"
say "WebAssembly core: $(wc -c < "$OUT/bobbin_wasm_bg.wasm") bytes, pricing: $(wc -c < "$OUT/bobbin_pricing_bg.wasm") bytes, catalogue: $(wc -c < "$OUT/threads.bin") bytes, in $OUT/"
