//! The keys that sign access tokens (`signing_keys`), their private halves stored as the
//! caller seals them (`Vault::seal`).

use sea_orm::{
    ActiveModelTrait as _, ActiveValue::Set, ConnectionTrait, DbErr, EntityTrait as _, QueryOrder as _,
};
use time::OffsetDateTime;

use crate::db::Database;
use crate::{db::committed, entity::signing_key};

/// Every stored key, oldest first (the oldest signs).
///
/// # Errors
///
/// The database's.
pub async fn all(db: &impl ConnectionTrait) -> Result<Vec<signing_key::Model>, DbErr> {
    signing_key::Entity::find().order_by_asc(signing_key::Column::CreatedAt).all(db).await
}

/// Stores a new key `kid` for `algorithm`.
///
/// # Errors
///
/// The database's.
pub async fn create(
    db: &Database,
    kid: String,
    algorithm: &str,
    sealed_private_key: String,
) -> Result<(), DbErr> {
    let key = signing_key::ActiveModel {
        id: Set(kid),
        algorithm: Set(algorithm.to_owned()),
        private_key: Set(sealed_private_key),
        created_at: Set(OffsetDateTime::now_utc()),
    };
    committed(db, async |txn| signing_key::Entity::insert(key).exec(txn).await).await?;
    Ok(())
}

/// Stores `key`'s private half in a new sealed form.
///
/// # Errors
///
/// The database's.
pub async fn set_private_key(db: &Database, key: signing_key::Model, sealed: String) -> Result<(), DbErr> {
    let mut active: signing_key::ActiveModel = key.into();
    active.private_key = Set(sealed);
    committed(db, async |txn| active.update(txn).await).await?;
    Ok(())
}
