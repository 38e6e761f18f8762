//! Bobbin's domain, free of I/O: the same code runs in the server (natively) and in the browser
//! (as WebAssembly, through `bobbin-wasm`), so a result computed offline in the browser is the
//! result the server would compute.
//!
//! Rules for this crate: no async, no I/O, no web framework and no `wasm-bindgen`; errors are
//! `thiserror` enums; values from outside are parsed into newtypes before use.

/// The version of the core, reported by the server and by the WebAssembly module, so the app can
/// show which build of the domain code it is running.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

pub mod catalogue;
pub mod colour;
pub mod colour_words;
pub mod contact;
pub mod convert;
pub mod design;
pub mod email;
pub mod inventory;
pub mod job;
pub mod pricing;
pub mod quote;
pub mod settings;
mod sheet;
pub mod team;
pub mod text;

#[cfg(test)]
mod tests {
    use super::VERSION;

    #[test]
    fn version_is_the_crate_version_in_semver_form() {
        let parts: Vec<&str> = VERSION.split('.').collect();
        assert_eq!(parts.len(), 3, "{VERSION} is not major.minor.patch");
        assert!(parts.iter().all(|p| p.parse::<u32>().is_ok()), "{VERSION}");
    }
}
