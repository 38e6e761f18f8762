//! The counts behind the auth service's rate limits (`rate_limits`), kept in the database so
//! that several server instances sharing one PostgreSQL enforce one limit. Each check is one
//! upsert, atomic on both databases. Every row says when it may be forgotten (`expires_at`).
//!
//! The table has no entity: the atomic upserts need SQL that sea-orm's query builder does not
//! write (a conditional update with `RETURNING`), so this module speaks SQL, in each engine's
//! placeholder style.

use sea_orm::{ConnectionTrait, DatabaseBackend, DbErr, Statement};

use crate::db::Database;
use crate::db::committed;

/// Counts one event for `key` in the window that started at `window_start` (Unix seconds),
/// which may be forgotten at `expires_at`, and answers how many the window has now (the count
/// starts again at 1 in a new window). `None` if the database answered no row.
///
/// # Errors
///
/// The database's.
pub async fn count_in_window(
    db: &Database,
    key: &str,
    window_start: i64,
    expires_at: i64,
) -> Result<Option<i32>, DbErr> {
    let backend = db.get_database_backend();
    let sql = match backend {
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
    let upsert =
        Statement::from_sql_and_values(backend, sql, [key.into(), window_start.into(), expires_at.into()]);
    let row = committed(db, async |txn| txn.query_one_raw(upsert).await).await?;
    row.map(|row| row.try_get("", "count")).transpose()
}

/// Records the event `key` at `now` (Unix seconds) unless it happened after `earliest_previous`;
/// answers whether it was recorded. The record may be forgotten at `expires_at`.
///
/// # Errors
///
/// The database's.
pub async fn record_if_due(
    db: &Database,
    key: &str,
    now: i64,
    earliest_previous: i64,
    expires_at: i64,
) -> Result<bool, DbErr> {
    let backend = db.get_database_backend();
    let sql = match backend {
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
        backend,
        sql,
        [key.into(), now.into(), earliest_previous.into(), expires_at.into()],
    );
    let recorded = committed(db, async |txn| txn.query_one_raw(upsert).await).await?;
    Ok(recorded.is_some())
}

/// Deletes the event `key` recorded at `at` (Unix seconds) by [`record_if_due`], unless another
/// has been recorded since.
///
/// # Errors
///
/// The database's.
pub async fn forget(db: &Database, key: &str, at: i64) -> Result<(), DbErr> {
    let backend = db.get_database_backend();
    let sql = match backend {
        DatabaseBackend::Postgres => "DELETE FROM rate_limits WHERE key = $1 AND window_start = $2",
        _ => "DELETE FROM rate_limits WHERE key = ?1 AND window_start = ?2",
    };
    let delete = Statement::from_sql_and_values(backend, sql, [key.into(), at.into()]);
    committed(db, async |txn| txn.execute_raw(delete).await).await?;
    Ok(())
}

/// Deletes the counts that may be forgotten at `now` (Unix seconds); answers how many.
///
/// # Errors
///
/// The database's.
pub async fn delete_expired(db: &impl ConnectionTrait, now: i64) -> Result<u64, DbErr> {
    let backend = db.get_database_backend();
    let sql = match backend {
        DatabaseBackend::Postgres => "DELETE FROM rate_limits WHERE expires_at < $1",
        _ => "DELETE FROM rate_limits WHERE expires_at < ?1",
    };
    let done = db.execute_raw(Statement::from_sql_and_values(backend, sql, [now.into()])).await?;
    Ok(done.rows_affected())
}
