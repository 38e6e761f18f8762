//! The team inventories: threads, and machines with their maintenance.

pub mod machines;
pub mod thread_cache;
pub mod threads;

use crate::error::{AppError, FieldError};

/// The version a full edit made from `version` writes. Entries start at version 1 and each edit
/// adds one, so a version below 1 was never read from the API, and the largest `i32` has no
/// successor (`version + 1` overflowed: a panic, answered 500). Both are refused as the
/// request's mistake rather than passed on as a conflict that reloading would not resolve.
fn next_version(version: i32) -> Result<i32, AppError> {
    version.checked_add(1).filter(|_| version >= 1).ok_or_else(|| {
        AppError::Validation(vec![FieldError::new(
            "version",
            "invalid",
            "No entry has this version: send the `version` the entry was read with.",
        )])
    })
}

/// What a full edit answers when its `UPDATE ... WHERE version = ?` changed no row: someone saved
/// the entry after the editor opened it, so the edit is refused rather than written over theirs
/// (optimistic concurrency; quantity taps are relative and never conflict). `what` is "thread" or
/// "machine".
fn unless_changed_meanwhile(rows_affected: u64, what: &str) -> Result<(), AppError> {
    if rows_affected == 0 {
        return Err(AppError::conflict(
            "edit_conflict",
            format!(
                "Someone changed this {what} after you opened it. Reload it to see their change, then edit again."
            ),
        ));
    }
    Ok(())
}
