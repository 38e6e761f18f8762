//! Keeping the auth tables bounded: which rows can no longer be used, and deleting them
//! (Supabase Auth's cleanup, with the same ages where it has them). The deletes are idempotent,
//! so several instances on one PostgreSQL may run them at once.
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
//! | `write_keys` | older than [`write_keys::KEPT_FOR`] (a day) |

use sea_orm::{ColumnTrait as _, Condition, DatabaseTransaction, DbErr, EntityTrait as _, QueryFilter as _};
use time::{Duration, OffsetDateTime};

use super::rate_limits;
use crate::db::{Database, committed};
use crate::entity::{
    flow_state, mail_outbox, mfa_challenge,
    mfa_factor::{self, FactorStatus},
    one_time_token, refresh_token, session, write_key,
};
use crate::repo::write_keys;

/// How long sessions may last, as [`crate::auth::session::SessionLimits`] has them: `None`
/// where a limit is off.
#[derive(Debug, Clone, Copy)]
pub struct SessionEnds {
    /// Counted from the sign-in.
    pub lifetime: Option<Duration>,
    /// Counted from the last refresh (or the sign-in).
    pub inactivity: Option<Duration>,
}

/// Deletes every row that can no longer be used at `now`, in one write transaction; answers how
/// many.
///
/// # Errors
///
/// The database's.
pub async fn unusable_rows(db: &Database, sessions: SessionEnds, now: OffsetDateTime) -> Result<u64, DbErr> {
    committed(db, async |txn| deleted(txn, sessions, now).await).await
}

async fn deleted(db: &DatabaseTransaction, sessions: SessionEnds, now: OffsetDateTime) -> Result<u64, DbErr> {
    let day_ago = now - Duration::days(1);
    let mut rows = 0;
    rows += rate_limits::delete_expired(db, now.unix_timestamp()).await?;
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
    rows += session::Entity::delete_many().filter(ended(sessions, now)).exec(db).await?.rows_affected;
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
        .filter(mfa_factor::Column::Status.eq(FactorStatus::Unverified))
        .filter(mfa_factor::Column::CreatedAt.lt(day_ago))
        .exec(db)
        .await?
        .rows_affected;
    rows += write_key::Entity::delete_many()
        .filter(write_key::Column::CreatedAt.lt(now - write_keys::KEPT_FOR))
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

/// The sessions that have ended by themselves at `now`, as a filter: the rule of
/// `SessionLimits::expired`, in SQL.
fn ended(limits: SessionEnds, now: OffsetDateTime) -> Condition {
    let mut ended = Condition::any().add(session::Column::NotAfter.lt(now));
    if let Some(start) = limits.lifetime.and_then(|lifetime| now.checked_sub(lifetime)) {
        ended = ended.add(session::Column::CreatedAt.lt(start));
    }
    if let Some(last) = limits.inactivity.and_then(|inactivity| now.checked_sub(inactivity)) {
        ended = ended.add(session::Column::RefreshedAt.lt(last)).add(
            Condition::all()
                .add(session::Column::RefreshedAt.is_null())
                .add(session::Column::CreatedAt.lt(last)),
        );
    }
    ended
}
