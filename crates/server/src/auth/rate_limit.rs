//! Rate limits for the auth service, counted in the database so that several server instances
//! sharing one PostgreSQL enforce one limit (an in-process limiter such as `governor` would let
//! each instance allow the full amount). One upsert per check, atomic on both databases. Every
//! row says when it may be forgotten (`expires_at`); the background pruning deletes it then.
//!
//! Requests are counted per client network ([`super::extract::Client::network`]: an IPv6
//! client is its /64, since one subscriber holds billions of addresses) and, where a guess
//! targets one account (codes, passwords), per account as well.

use sea_orm::{ConnectionTrait as _, DatabaseBackend, DatabaseConnection, Statement};
use time::OffsetDateTime;

use crate::auth::{
    error::{AuthError, AuthResult},
    extract::Client,
};

/// The window request limits are counted in.
pub const WINDOW_SECONDS: i64 = 5 * 60;

/// Counts one request from `client`'s network to `bucket` (e.g. `token`, `verify`) and refuses
/// it once more than `limit` arrived in the current 5-minute window.
pub async fn per_client(
    db: &DatabaseConnection,
    bucket: &str,
    client: &Client,
    limit: u32,
) -> AuthResult<()> {
    count(db, &format!("{bucket}:ip:{}", client.network()), limit).await
}

/// Counts one request about `account` (a user id or an e-mail address) to `bucket`, whoever
/// sends it, and refuses it once more than `limit` arrived in the current 5-minute window.
pub async fn per_account(db: &DatabaseConnection, bucket: &str, account: &str, limit: u32) -> AuthResult<()> {
    count(db, &format!("{bucket}:account:{account}"), limit).await
}

async fn count(db: &DatabaseConnection, key: &str, limit: u32) -> AuthResult<()> {
    let now = OffsetDateTime::now_utc().unix_timestamp();
    let window = now - now.rem_euclid(WINDOW_SECONDS);
    let sql = match db.get_database_backend() {
        DatabaseBackend::Postgres => {
            "INSERT INTO rate_limits (key, window_start, count, expires_at) VALUES ($1, $2, 1, $3) \
             ON CONFLICT (key) DO UPDATE SET \
               count = CASE WHEN rate_limits.window_start < $2 THEN 1 ELSE rate_limits.count + 1 END, \
               window_start = $2, expires_at = $3 \
             RETURNING count"
        }
        _ => {
            "INSERT INTO rate_limits (key, window_start, count, expires_at) VALUES (?1, ?2, 1, ?3) \
             ON CONFLICT (key) DO UPDATE SET \
               count = CASE WHEN rate_limits.window_start < ?2 THEN 1 ELSE rate_limits.count + 1 END, \
               window_start = ?2, expires_at = ?3 \
             RETURNING count"
        }
    };
    let upsert = Statement::from_sql_and_values(
        db.get_database_backend(),
        sql,
        [key.into(), window.into(), (window + WINDOW_SECONDS).into()],
    );
    let row = crate::db::committed(db, async |txn| txn.query_one_raw(upsert).await)
        .await?
        .ok_or_else(|| AuthError::internal("the rate-limit upsert returned no row"))?;
    let count: i32 = row.try_get("", "count")?;
    if u32::try_from(count).unwrap_or(u32::MAX) > limit {
        return Err(AuthError::too_many_requests("over_request_rate_limit", "Request rate limit reached"));
    }
    Ok(())
}

/// Allows one e-mail of `kind` (`confirmation`, `recovery`, `magiclink`, `email_change`,
/// `invite`...) to `address` per `interval_seconds`, and records it: one clock per kind, as
/// Supabase Auth keeps one timestamp per kind, so a password reset right after a sign-up is not
/// refused. Called whether or not the address has an account, so the answer never tells which.
pub async fn check_email(
    db: &DatabaseConnection,
    kind: &str,
    address: &str,
    interval_seconds: u32,
) -> AuthResult<()> {
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
pub async fn allow_every(db: &DatabaseConnection, key: &str, interval_seconds: u32) -> AuthResult<bool> {
    let now = OffsetDateTime::now_utc().unix_timestamp();
    let earliest_previous = now - i64::from(interval_seconds);
    let sql = match db.get_database_backend() {
        DatabaseBackend::Postgres => {
            "INSERT INTO rate_limits (key, window_start, count, expires_at) VALUES ($1, $2, 1, $4) \
             ON CONFLICT (key) DO UPDATE SET window_start = $2, count = rate_limits.count + 1, expires_at = $4 \
             WHERE rate_limits.window_start <= $3 \
             RETURNING count"
        }
        _ => {
            "INSERT INTO rate_limits (key, window_start, count, expires_at) VALUES (?1, ?2, 1, ?4) \
             ON CONFLICT (key) DO UPDATE SET window_start = ?2, count = rate_limits.count + 1, expires_at = ?4 \
             WHERE rate_limits.window_start <= ?3 \
             RETURNING count"
        }
    };
    let upsert = Statement::from_sql_and_values(
        db.get_database_backend(),
        sql,
        [key.into(), now.into(), earliest_previous.into(), (now + i64::from(interval_seconds)).into()],
    );
    let sent = crate::db::committed(db, async |txn| txn.query_one_raw(upsert).await).await?;
    Ok(sent.is_some())
}
