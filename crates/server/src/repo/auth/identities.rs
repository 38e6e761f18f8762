//! The ways each person signs in (`identities`): the e-mail address, and each OAuth provider
//! account linked to theirs.

use sea_orm::{
    ActiveModelTrait as _, ActiveValue::Set, ColumnTrait as _, ConnectionTrait, DbErr, EntityTrait as _,
    QueryFilter as _, QueryOrder as _,
};
use serde_json::{Map, Value};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::Database;
use crate::entity::ids::UserId;
use crate::{db::committed, entity::identity};

/// A user's identities, oldest first.
///
/// # Errors
///
/// The database's.
pub async fn of_user(db: &impl ConnectionTrait, user_id: UserId) -> Result<Vec<identity::Model>, DbErr> {
    identity::Entity::find()
        .filter(identity::Column::UserId.eq(user_id))
        .order_by_asc(identity::Column::CreatedAt)
        .all(db)
        .await
}

/// The identity `provider_id` at `provider`, if someone linked it.
///
/// # Errors
///
/// The database's.
pub async fn at_provider(
    db: &impl ConnectionTrait,
    provider: &str,
    provider_id: &str,
) -> Result<Option<identity::Model>, DbErr> {
    identity::Entity::find()
        .filter(identity::Column::Provider.eq(provider))
        .filter(identity::Column::ProviderId.eq(provider_id))
        .one(db)
        .await
}

/// Records a sign-in through the identity `id`, with what the provider now says of the person.
///
/// # Errors
///
/// The database's.
pub async fn record_sign_in(
    db: &Database,
    id: Uuid,
    data: Map<String, Value>,
    now: OffsetDateTime,
) -> Result<(), DbErr> {
    let seen = identity::ActiveModel {
        id: Set(id),
        identity_data: Set(Value::Object(data)),
        last_sign_in_at: Set(Some(now)),
        updated_at: Set(now),
        ..Default::default()
    };
    committed(db, async |txn| seen.update(txn).await).await?;
    Ok(())
}

/// Records that the user signs in through `provider` as `provider_id`.
pub(super) async fn add(
    db: &impl ConnectionTrait,
    user_id: UserId,
    email: String,
    provider: &str,
    provider_id: String,
    data: Map<String, Value>,
) -> Result<identity::Model, DbErr> {
    let now = OffsetDateTime::now_utc();
    identity::ActiveModel {
        id: Set(Uuid::new_v4()),
        user_id: Set(user_id),
        provider: Set(provider.to_owned()),
        provider_id: Set(provider_id),
        identity_data: Set(Value::Object(data)),
        email: Set(Some(email)),
        last_sign_in_at: Set(Some(now)),
        created_at: Set(now),
        updated_at: Set(now),
    }
    .insert(db)
    .await
}

/// The new address of the user's e-mail identity, once an address change is complete.
pub(super) async fn set_email_address(
    db: &impl ConnectionTrait,
    user_id: UserId,
    email: String,
) -> Result<(), DbErr> {
    identity::Entity::update_many()
        .col_expr(identity::Column::Email, email.into())
        .filter(identity::Column::UserId.eq(user_id))
        .filter(identity::Column::Provider.eq("email"))
        .exec(db)
        .await?;
    Ok(())
}
