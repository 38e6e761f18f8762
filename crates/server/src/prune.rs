//! Keeping the auth tables bounded: rows that can no longer be used are deleted in the
//! background, a few seconds after start and then every `--prune-interval` (Supabase Auth's cleanup,
//! with the same ages where it has them). Every instance runs it; the deletes are idempotent, so
//! several instances on one PostgreSQL do no harm.
//!
//! | Table | Deleted when |
//! |---|---|
//! | `rate_limits` | its window or interval is over (`expires_at`) |
//! | `flow_states` | a day old (the longest e-mailed link lives 24 hours) |
//! | `one_time_tokens` | a day old: past every kind's lifetime |
//! | `sessions` (and their refresh tokens) | past their lifetime, inactivity timeout or `not_after` |
//! | `refresh_tokens` | revoked more than a day ago (a reuse after that finds nothing to end) |
//! | `mfa_challenges` | a day old (they are answered within 5 minutes) |
//! | `mfa_factors` | never verified, a day old |
//! | `mail_outbox` | a week old (an invite lives 7 days) |
//!
//! It also forgets the converter's per-client counts of clients that have gone quiet.

use std::time::Duration as StdDuration;

use sea_orm::{ColumnTrait as _, DatabaseConnection, EntityTrait as _, QueryFilter as _};
use time::{Duration, OffsetDateTime};

use crate::{
    auth::session::SessionLimits,
    entity::{flow_state, mail_outbox, mfa_challenge, mfa_factor, one_time_token, refresh_token, session},
    state::AppState,
};

/// How long after start it first runs (or after one interval, if that is shorter): soon, but
/// not in the rush of a start.
const FIRST_RUN: StdDuration = StdDuration::from_secs(5);

/// Runs [`prune`] in the background every `interval` for as long as the server runs (never,
/// for a zero interval). A failure is logged and tried again at the next turn.
pub fn spawn(state: AppState, interval: StdDuration) {
    if interval.is_zero() {
        return;
    }
    tokio::spawn(async move {
        tokio::time::sleep(FIRST_RUN.min(interval)).await;
        let mut every = tokio::time::interval(interval);
        loop {
            every.tick().await;
            match prune(&state.db, &state.auth.session_limits, OffsetDateTime::now_utc()).await {
                Ok(0) => {}
                Ok(rows) => tracing::info!(rows, "pruned rows that can no longer be used"),
                Err(error) => tracing::warn!(error = format!("{error:#}"), "pruning old rows failed"),
            }
            state.convert_limit.forget_idle();
        }
    });
}

/// Deletes every row that can no longer be used at `now`; answers how many.
pub async fn prune(
    db: &DatabaseConnection,
    limits: &SessionLimits,
    now: OffsetDateTime,
) -> anyhow::Result<u64> {
    let day_ago = now - Duration::days(1);
    let mut rows = 0;
    rows += rate_limits(db, now).await?;
    rows += flow_state::Entity::delete_many()
        .filter(flow_state::Column::CreatedAt.lt(day_ago))
        .exec(db)
        .await?
        .rows_affected;
    rows += one_time_token::Entity::delete_many()
        .filter(one_time_token::Column::CreatedAt.lt(day_ago))
        .exec(db)
        .await?
        .rows_affected;
    rows += session::Entity::delete_many().filter(limits.ended_by(now)).exec(db).await?.rows_affected;
    rows += refresh_token::Entity::delete_many()
        .filter(refresh_token::Column::Revoked.eq(true))
        .filter(refresh_token::Column::UpdatedAt.lt(day_ago))
        .exec(db)
        .await?
        .rows_affected;
    rows += mfa_challenge::Entity::delete_many()
        .filter(mfa_challenge::Column::CreatedAt.lt(day_ago))
        .exec(db)
        .await?
        .rows_affected;
    rows += mfa_factor::Entity::delete_many()
        .filter(mfa_factor::Column::Status.eq("unverified"))
        .filter(mfa_factor::Column::CreatedAt.lt(day_ago))
        .exec(db)
        .await?
        .rows_affected;
    rows += mail_outbox::Entity::delete_many()
        .filter(mail_outbox::Column::CreatedAt.lt(now - Duration::days(7)))
        .exec(db)
        .await?
        .rows_affected;
    Ok(rows)
}

/// `rate_limits` has no entity (the limiter speaks SQL for its atomic upsert).
async fn rate_limits(db: &DatabaseConnection, now: OffsetDateTime) -> anyhow::Result<u64> {
    use sea_orm::{ConnectionTrait as _, DatabaseBackend, Statement};
    let sql = match db.get_database_backend() {
        DatabaseBackend::Postgres => "DELETE FROM rate_limits WHERE expires_at < $1",
        _ => "DELETE FROM rate_limits WHERE expires_at < ?1",
    };
    let done = db
        .execute_raw(Statement::from_sql_and_values(
            db.get_database_backend(),
            sql,
            [now.unix_timestamp().into()],
        ))
        .await?;
    Ok(done.rows_affected())
}
