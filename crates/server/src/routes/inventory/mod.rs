//! The team inventories: threads, and machines with their maintenance.

pub mod machines;
pub mod thread_cache;
pub mod threads;

use crate::error::AppError;

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
