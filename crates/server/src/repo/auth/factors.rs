//! Second factors (`mfa_factors`): TOTP secrets, stored as the caller seals them
//! (`Vault::seal`), and the last time step each accepted.

use sea_orm::{
    ActiveModelTrait as _, ActiveValue::Set, ColumnTrait as _, Condition, ConnectionTrait, DbErr,
    EntityTrait as _, QueryFilter as _, QueryOrder as _,
};
use time::OffsetDateTime;
use uuid::Uuid;

use super::challenges;
use crate::db::Database;
use crate::{
    db::{begin_write, committed},
    entity::{
        ids::UserId,
        mfa_factor::{self, FactorStatus},
    },
};

/// A user's factors, oldest first.
///
/// # Errors
///
/// The database's.
pub async fn of_user(db: &impl ConnectionTrait, user_id: UserId) -> Result<Vec<mfa_factor::Model>, DbErr> {
    mfa_factor::Entity::find()
        .filter(mfa_factor::Column::UserId.eq(user_id))
        .order_by_asc(mfa_factor::Column::CreatedAt)
        .all(db)
        .await
}

/// Whether the user has a verified factor.
///
/// # Errors
///
/// The database's.
pub async fn has_verified(db: &impl ConnectionTrait, user_id: UserId) -> Result<bool, DbErr> {
    Ok(mfa_factor::Entity::find()
        .filter(mfa_factor::Column::UserId.eq(user_id))
        .filter(mfa_factor::Column::Status.eq(FactorStatus::Verified))
        .one(db)
        .await?
        .is_some())
}

/// The factor `id`.
///
/// # Errors
///
/// The database's.
pub async fn by_id(db: &impl ConnectionTrait, id: Uuid) -> Result<Option<mfa_factor::Model>, DbErr> {
    mfa_factor::Entity::find_by_id(id).one(db).await
}

/// Every factor, for sealing their secrets at start.
///
/// # Errors
///
/// The database's.
pub async fn all(db: &impl ConnectionTrait) -> Result<Vec<mfa_factor::Model>, DbErr> {
    mfa_factor::Entity::find().all(db).await
}

/// A TOTP factor to store, unverified until its first code.
#[derive(Debug, Clone)]
pub struct NewFactor {
    /// Chosen by the caller: the sealed secret names its row.
    pub id: Uuid,
    pub user_id: UserId,
    pub friendly_name: Option<String>,
    pub sealed_secret: String,
}

/// Stores a new factor.
///
/// # Errors
///
/// The database's.
pub async fn create(db: &Database, new: NewFactor) -> Result<mfa_factor::Model, DbErr> {
    let now = OffsetDateTime::now_utc();
    let factor = mfa_factor::ActiveModel {
        id: Set(new.id),
        user_id: Set(new.user_id),
        friendly_name: Set(new.friendly_name),
        factor_type: Set("totp".to_owned()),
        status: Set(FactorStatus::Unverified),
        secret: Set(new.sealed_secret),
        last_used_step: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
    };
    committed(db, async |txn| factor.insert(txn).await).await
}

/// Stores `factor`'s secret in a new sealed form.
///
/// # Errors
///
/// The database's.
pub async fn set_secret(db: &Database, factor: mfa_factor::Model, sealed: String) -> Result<(), DbErr> {
    let mut active: mfa_factor::ActiveModel = factor.into();
    active.secret = Set(sealed);
    committed(db, async |txn| active.update(txn).await).await?;
    Ok(())
}

/// Records that the factor accepted the code of time `step` in answer to `challenge_id` (which
/// is spent), and marks it verified. Answers `false`, changing nothing on the factor, when it
/// already accepted that step or a later one, even in a request running at the same moment:
/// the same code is never accepted twice.
///
/// # Errors
///
/// The database's.
pub async fn record_step(
    db: &Database,
    factor_id: Uuid,
    challenge_id: Uuid,
    step: i64,
    now: OffsetDateTime,
) -> Result<bool, DbErr> {
    let txn = begin_write(db).await?;
    let updated = mfa_factor::Entity::update_many()
        .col_expr(mfa_factor::Column::LastUsedStep, step.into())
        .col_expr(mfa_factor::Column::Status, FactorStatus::Verified.into())
        .col_expr(mfa_factor::Column::UpdatedAt, now.into())
        .filter(mfa_factor::Column::Id.eq(factor_id))
        .filter(
            Condition::any()
                .add(mfa_factor::Column::LastUsedStep.is_null())
                .add(mfa_factor::Column::LastUsedStep.lt(step)),
        )
        .exec(&txn)
        .await?;
    challenges::delete(&txn, challenge_id).await?;
    txn.commit().await?;
    Ok(updated.rows_affected == 1)
}

/// Deletes the factor `id` (its challenges go with it).
///
/// # Errors
///
/// The database's.
pub async fn delete(db: &impl ConnectionTrait, id: Uuid) -> Result<(), DbErr> {
    mfa_factor::Entity::delete_by_id(id).exec(db).await?;
    Ok(())
}
