//! The data layer: every query of the product API and of the auth service (`auth/`), and the
//! mapping between rows and the core's types. Handlers call these functions; none of them
//! builds a query or opens a transaction.
//!
//! A rule every write must follow lives in the write functions here, where no handler can
//! forget it: a change to a thread or a machine raises its `version` ([`raised_version`]). The
//! database itself gives a team's thread revision (which the [`thread_cache`] copies are checked
//! against) a new value in the transaction of every change to its threads (triggers).
//!
//! Imports run one way: `routes` -> `extract` -> `repo` -> `entity`, with the core below all. A
//! function here answers [`RepoError`], in the data's own terms; the API's edge says what it
//! means to the caller.

pub mod account;
pub mod auth;
pub mod invites;
pub mod jobs;
pub mod machines;
pub mod members;
pub mod migrations;
pub mod quotes;
pub mod settings;
pub mod stock;
pub mod storage;
pub mod teams;
pub mod thread_cache;
pub mod threads;
pub mod users;
pub mod write_keys;

use rand::{Rng as _, distr::Alphanumeric};

use sea_orm::{
    ColumnTrait, DbErr,
    prelude::Expr,
    sea_query::{ExprTrait as _, SimpleExpr},
};

/// Why a repo function did not do what it was asked, in the data's own terms: the API's edge
/// (`crate::extract`) says what each means to the caller. The repo layer knows nothing of HTTP.
#[derive(Debug, thiserror::Error)]
pub enum RepoError {
    /// The database's own error (an outage among them: `crate::db::Outage`).
    #[error(transparent)]
    Database(#[from] DbErr),
    /// What was named is not there, or not the team's.
    #[error("{0}")]
    NotFound(String),
    /// A change the rules refuse, with a stable code.
    #[error("{message}")]
    Refused { code: &'static str, message: String },
    /// A change that clashes with what is stored now (someone changed it meanwhile, a name
    /// already taken), with a stable code.
    #[error("{message}")]
    Conflict { code: &'static str, message: String },
    /// A number too large for its column, in the field named.
    #[error("`{field}` is too large to store")]
    TooLarge { field: String },
    /// A stored row that cannot be read, or a write that went missing: a bug, or a hand edit of
    /// the database.
    #[error(transparent)]
    Broken(#[from] anyhow::Error),
}

impl RepoError {
    pub fn refused(code: &'static str, message: impl Into<String>) -> Self {
        Self::Refused { code, message: message.into() }
    }

    pub fn conflict(code: &'static str, message: impl Into<String>) -> Self {
        Self::Conflict { code, message: message.into() }
    }
}

// `2027-01-06`: how answers and requests write a day (`#[serde(with = "iso_date")]`).
time::serde::format_description!(pub iso_date, Date, "[year]-[month]-[day]");

/// A new public id: 16 letters and digits (about 95 bits), not guessable and URL-safe.
pub fn new_public_id() -> String {
    rand::rng().sample_iter(Alphanumeric).take(16).map(char::from).collect()
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
pub fn raised_version(column: impl ColumnTrait + Copy) -> SimpleExpr {
    Expr::case(Expr::col(column).gte(i32::MAX), 1).finally(Expr::col(column).add(1)).into()
}

/// A whole number as its database column holds it, or a validation error naming `field`: a
/// number is stored as given or refused, never clipped to the column's largest value.
pub fn stored_as<T: Copy + TryInto<U>, U>(field: &str, value: T) -> Result<U, RepoError> {
    value.try_into().map_err(|_| RepoError::TooLarge { field: field.to_owned() })
}

/// What a full edit answers when its `UPDATE ... WHERE version = ?` changed no row: someone
/// changed the entry after the editor opened it, so the edit is refused rather than written over
/// theirs (optimistic concurrency; quantity taps are relative and never conflict). `what` is
/// "thread" or "machine".
pub fn unless_changed_meanwhile(rows_affected: u64, what: &str) -> Result<(), RepoError> {
    if rows_affected == 0 {
        return Err(changed_meanwhile(what));
    }
    Ok(())
}

/// The refusal of [`unless_changed_meanwhile`], for an edit that found its entry changed.
pub fn changed_meanwhile(what: &str) -> RepoError {
    RepoError::conflict(
        "edit_conflict",
        format!(
            "Someone changed this {what} after you opened it. Reload it to see their change, then edit again."
        ),
    )
}
