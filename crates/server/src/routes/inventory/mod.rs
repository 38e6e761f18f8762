//! The team inventories: threads, and machines with their maintenance.
//!
//! Every change to a thread or a machine raises its `version` (a full edit, a quantity tap, an
//! import, a maintenance entry logged or removed), and a full edit names the version it was made
//! from: one made before any other change answers `409 edit_conflict` instead of putting the
//! old values back.

pub mod machines;
pub mod threads;

use crate::error::{AppError, FieldError};

/// Checks the version a full edit was made from. Entries start at version 1 and every change
/// raises it by one, from the largest `i32` back to 1 ([`crate::repo::raised_version`]), so a version below 1
/// was never read from the API: refused as the request's mistake rather than passed on as a
/// conflict that reloading would not resolve.
fn edited_version(version: i32) -> Result<i32, AppError> {
    if version < 1 {
        return Err(AppError::Validation(vec![FieldError::new(
            "version",
            "invalid",
            "No entry has this version: send the `version` the entry was read with.",
        )]));
    }
    Ok(version)
}
