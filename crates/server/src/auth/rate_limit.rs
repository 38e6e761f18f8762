//! Rate limits for the auth service, counted in the database so that several server instances
//! sharing one PostgreSQL enforce one limit (an in-process limiter such as `governor` would let
//! each instance allow the full amount). One upsert per check, atomic on both databases.

use sea_orm::{ConnectionTrait as _, DatabaseBackend, DatabaseConnection, Statement};
use time::OffsetDateTime;

use crate::auth::error::{AuthError, AuthResult};

/// The window request limits are counted in.
pub const WINDOW_SECONDS: i64 = 5 * 60;

/// Counts one request from `client` to `bucket` (e.g. `token`, `verify`) and refuses it once
/// more than `limit` arrived in the current 5-minute window.
pub async fn check_requests(
    db: &DatabaseConnection,
    bucket: &str,
    client: &str,
    limit: u32,
) -> AuthResult<()> {
    let now = OffsetDateTime::now_utc().unix_timestamp();
    let window = now - now.rem_euclid(WINDOW_SECONDS);
    let key = format!("{bucket}:ip:{client}");
    let sql = match db.get_database_backend() {
        DatabaseBackend::Postgres => {
            "INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, 1) \
             ON CONFLICT (key) DO UPDATE SET \
               count = CASE WHEN rate_limits.window_start < $2 THEN 1 ELSE rate_limits.count + 1 END, \
               window_start = $2 \
             RETURNING count"
        }
        _ => {
            "INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, 1) \
             ON CONFLICT (key) DO UPDATE SET \
               count = CASE WHEN rate_limits.window_start < ?2 THEN 1 ELSE rate_limits.count + 1 END, \
               window_start = ?2 \
             RETURNING count"
        }
    };
    let row = db
        .query_one_raw(Statement::from_sql_and_values(
            db.get_database_backend(),
            sql,
            [key.into(), window.into()],
        ))
        .await?
        .ok_or_else(|| AuthError::internal("the rate-limit upsert returned no row"))?;
    let count: i32 = row.try_get("", "count")?;
    if u32::try_from(count).unwrap_or(u32::MAX) > limit {
        return Err(AuthError::too_many_requests("over_request_rate_limit", "Request rate limit reached"));
    }
    Ok(())
}

/// Allows one e-mail to `address` per `interval_seconds`, and records it. Called whether or not
/// the address has an account, so the answer never tells which.
pub async fn check_email(db: &DatabaseConnection, address: &str, interval_seconds: u32) -> AuthResult<()> {
    let now = OffsetDateTime::now_utc().unix_timestamp();
    let key = format!("email:{address}");
    let earliest_previous = now - i64::from(interval_seconds);
    let sql = match db.get_database_backend() {
        DatabaseBackend::Postgres => {
            "INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, 1) \
             ON CONFLICT (key) DO UPDATE SET window_start = $2, count = rate_limits.count + 1 \
             WHERE rate_limits.window_start <= $3 \
             RETURNING count"
        }
        _ => {
            "INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, 1) \
             ON CONFLICT (key) DO UPDATE SET window_start = ?2, count = rate_limits.count + 1 \
             WHERE rate_limits.window_start <= ?3 \
             RETURNING count"
        }
    };
    let sent = db
        .query_one_raw(Statement::from_sql_and_values(
            db.get_database_backend(),
            sql,
            [key.into(), now.into(), earliest_previous.into()],
        ))
        .await?;
    if sent.is_none() {
        return Err(AuthError::too_many_requests(
            "over_email_send_rate_limit",
            format!("For security purposes, you can only request this after {interval_seconds} seconds."),
        ));
    }
    Ok(())
}
