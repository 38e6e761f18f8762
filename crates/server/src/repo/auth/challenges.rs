//! Challenges of second factors (`mfa_challenges`): each code is answered to one, once.

use sea_orm::{
    ActiveModelTrait as _, ActiveValue::Set, ColumnTrait as _, ConnectionTrait, DbErr, EntityTrait as _,
    QueryFilter as _,
};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::Database;
use crate::{db::begin_write, entity::mfa_challenge};

/// A new challenge of `factor_id` from the client at `ip`. Earlier challenges of the factor
/// are of no further use, and are deleted.
///
/// # Errors
///
/// The database's.
pub async fn replace(
    db: &Database,
    factor_id: Uuid,
    ip: Option<String>,
    now: OffsetDateTime,
) -> Result<mfa_challenge::Model, DbErr> {
    let txn = begin_write(db).await?;
    mfa_challenge::Entity::delete_many()
        .filter(mfa_challenge::Column::FactorId.eq(factor_id))
        .exec(&txn)
        .await?;
    let challenge = mfa_challenge::ActiveModel {
        id: Set(Uuid::new_v4()),
        factor_id: Set(factor_id),
        ip: Set(ip),
        created_at: Set(now),
        verified_at: Set(None),
    }
    .insert(&txn)
    .await?;
    txn.commit().await?;
    Ok(challenge)
}

/// The challenge `id`.
///
/// # Errors
///
/// The database's.
pub async fn by_id(db: &impl ConnectionTrait, id: Uuid) -> Result<Option<mfa_challenge::Model>, DbErr> {
    mfa_challenge::Entity::find_by_id(id).one(db).await
}

/// Deletes the challenge `id` (answered or expired).
///
/// # Errors
///
/// The database's.
pub async fn delete(db: &impl ConnectionTrait, id: Uuid) -> Result<(), DbErr> {
    mfa_challenge::Entity::delete_by_id(id).exec(db).await?;
    Ok(())
}
