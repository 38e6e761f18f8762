//! How thread codes compare. Charts write the same code in different ways ("0015", "15", "p046"
//! next to "P046"), so lookups and duplicate checks use a normalised key while the code is still
//! shown as its maker prints it.
//!
//! Shared with `build.rs`, which checks the data files with it.

/// The longest code accepted, in bytes; real codes are at most a dozen characters.
pub const MAX_CODE_LEN: usize = 32;

/// The comparison key of a code: surrounding space removed, upper case, leading zeros dropped
/// ("0015" and "15" are the same thread; "0000" becomes "0"). `None` for an empty code.
pub fn code_key(code: &str) -> Option<String> {
    let upper = code.trim().to_uppercase();
    if upper.is_empty() {
        return None;
    }
    let without_zeros = upper.trim_start_matches('0');
    Some(if without_zeros.is_empty() { "0".to_owned() } else { without_zeros.to_owned() })
}

/// Whether a code as written in a data file or typed by a person is acceptable: not empty, not too
/// long, and free of control characters.
pub fn code_is_valid(code: &str) -> bool {
    let code = code.trim();
    !code.is_empty() && code.len() <= MAX_CODE_LEN && !code.chars().any(char::is_control)
}
