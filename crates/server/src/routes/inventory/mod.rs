//! The team inventories: threads, and machines with their maintenance.
//!
//! Every change to a thread or a machine raises its `version` (a full edit, a quantity tap, an
//! import, a maintenance entry logged or removed), and a full edit names the version it was made
//! from: one made before any other change answers `409 edit_conflict` instead of putting the
//! old values back.

pub mod machines;
pub mod thread_cache;
pub mod threads;

use sea_orm::{
    ColumnTrait,
    prelude::Expr,
    sea_query::{ExprTrait as _, SimpleExpr},
};

use crate::error::{AppError, FieldError};

/// Checks the version a full edit was made from. Entries start at version 1 and every change
/// raises it by one, from the largest `i32` back to 1 ([`raised_version`]), so a version below 1
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

/// `column` raised by one, computed by the database in the change's own `UPDATE`, so changes
/// made at once each count (a version read first and written back could be written twice).
///
/// After the largest `i32` comes 1: versions are `i32` in the schema and the API, `version + 1`
/// there overflows (an error on PostgreSQL, a value no `i32` holds on SQLite: a 500 either way),
/// and refusing the change would lock the entry for good. Versions are only compared for
/// equality, so wrapping is safe unless an edit waits 2^31 changes, which at a change a second is
/// 68 years. The rejected alternative, a 64-bit column, is a migration of both databases and of
/// every client's type for a limit no shop reaches.
fn raised_version(column: impl ColumnTrait + Copy) -> SimpleExpr {
    Expr::case(Expr::col(column).gte(i32::MAX), 1).finally(Expr::col(column).add(1)).into()
}

/// What a full edit answers when its `UPDATE ... WHERE version = ?` changed no row: someone
/// changed the entry after the editor opened it, so the edit is refused rather than written over
/// theirs (optimistic concurrency; quantity taps are relative and never conflict). `what` is
/// "thread" or "machine".
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
