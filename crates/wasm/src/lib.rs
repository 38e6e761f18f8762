//! JavaScript bindings for `bobbin-core`. This crate only wraps: each export converts its
//! arguments, calls the core and converts the result; no domain logic lives here.
//!
//! Built by `scripts/build-wasm.sh` with wasm-bindgen's `web` target into `crates/wasm/pkg/`.

use wasm_bindgen::prelude::wasm_bindgen;

/// Runs once when the module is instantiated: a Rust panic then shows its message in the
/// browser console instead of an opaque `unreachable` trap.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// The version of the domain core compiled into this module.
#[wasm_bindgen(js_name = coreVersion)]
pub fn core_version() -> String {
    bobbin_core::VERSION.to_owned()
}
