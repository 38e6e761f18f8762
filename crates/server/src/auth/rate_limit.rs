//! Rate limits for the auth service, counted in the database so that several server instances
//! sharing one PostgreSQL enforce one limit (an in-process limiter such as `governor` would let
//! each instance allow the full amount): one atomic upsert per check
//! ([`crate::repo::auth::rate_limits`]). Every count says when it may be forgotten; the
//! background pruning deletes it then.
//!
//! Requests are counted per client network ([`super::extract::Client::network`]: an IPv6
//! client is its /64, since one subscriber holds billions of addresses) and, where a guess
//! targets one account (codes, passwords), per account as well.

use time::OffsetDateTime;

use crate::db::Database;
use crate::{
    auth::{
        error::{AuthError, AuthResult},
        extract::Client,
    },
    repo::auth::rate_limits,
};

/// The window request limits are counted in.
pub const WINDOW_SECONDS: i64 = 5 * 60;

/// Counts one request from `client`'s network to `bucket` (e.g. `token`, `verify`) and refuses
/// it once more than `limit` arrived in the current 5-minute window.
pub async fn per_client(db: &Database, bucket: &str, client: &Client, limit: u32) -> AuthResult<()> {
    count(db, &format!("{bucket}:ip:{}", client.network()), limit).await
}

/// Counts one request about `account` (a user id or an e-mail address) to `bucket`, whoever
/// sends it, and refuses it once more than `limit` arrived in the current 5-minute window.
pub async fn per_account(db: &Database, bucket: &str, account: &str, limit: u32) -> AuthResult<()> {
    count(db, &format!("{bucket}:account:{account}"), limit).await
}

async fn count(db: &Database, key: &str, limit: u32) -> AuthResult<()> {
    let now = OffsetDateTime::now_utc().unix_timestamp();
    let window = now - now.rem_euclid(WINDOW_SECONDS);
    let count = rate_limits::count_in_window(db, key, window, window + WINDOW_SECONDS)
        .await?
        .ok_or_else(|| AuthError::internal("the rate-limit upsert returned no row"))?;
    if u32::try_from(count).unwrap_or(u32::MAX) > limit {
        return Err(AuthError::too_many_requests("over_request_rate_limit", "Request rate limit reached"));
    }
    Ok(())
}

/// Allows one e-mail of `kind` (`confirmation`, `recovery`, `magiclink`, `email_change`,
/// `invite`...) to `address` per `interval_seconds`, and records it: one clock per kind, as
/// Supabase Auth keeps one timestamp per kind, so a password reset right after a sign-up is not
/// refused. Called whether or not the address has an account, so the answer never tells which.
pub async fn check_email(db: &Database, kind: &str, address: &str, interval_seconds: u32) -> AuthResult<()> {
    if !allow_every(db, &format!("email:{kind}:{address}"), interval_seconds).await? {
        return Err(AuthError::too_many_requests(
            "over_email_send_rate_limit",
            format!("For security purposes, you can only request this after {interval_seconds} seconds."),
        ));
    }
    Ok(())
}

/// Whether the event `key` may happen now, at most once per `interval_seconds`; if so it is
/// recorded.
pub async fn allow_every(db: &Database, key: &str, interval_seconds: u32) -> AuthResult<bool> {
    Ok(take_turn(db, key, interval_seconds).await?.is_some())
}

/// [`allow_every`], answering the turn taken (`None`: not due yet), which the caller gives back
/// if what it was taken for did not happen.
pub async fn take_turn(db: &Database, key: &str, interval_seconds: u32) -> AuthResult<Option<Turn>> {
    let now = OffsetDateTime::now_utc().unix_timestamp();
    let earliest_previous = now - i64::from(interval_seconds);
    let expires_at = now + i64::from(interval_seconds);
    let taken = rate_limits::record_if_due(db, key, now, earliest_previous, expires_at).await?;
    Ok(taken.then(|| Turn { key: key.to_owned(), at: now }))
}

/// A turn of [`take_turn`]'s, recorded in the database.
#[derive(Debug)]
#[must_use = "a turn is spent unless given back"]
pub struct Turn {
    key: String,
    at: i64,
}

impl Turn {
    /// Forgets the turn, so the next one is due at once (the turn before it, if any, was at
    /// least an interval earlier, so it holds nothing back either). A turn another request has
    /// taken since is kept.
    pub async fn give_back(self, db: &Database) -> AuthResult<()> {
        rate_limits::forget(db, &self.key, self.at).await?;
        Ok(())
    }
}
