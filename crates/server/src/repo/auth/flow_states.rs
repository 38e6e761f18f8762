//! PKCE and OAuth flows in progress (`flow_states`): made when a flow starts, given an auth
//! code when the e-mailed link or the provider's callback succeeds, and spent by the code
//! exchange. The auth code is stored as its SHA-256 hash.

use sea_orm::{
    ActiveModelTrait as _, ActiveValue::Set, ColumnTrait as _, ConnectionTrait, DbErr, EntityTrait as _,
    QueryFilter as _,
};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::Database;
use crate::{
    auth::secret,
    db::{begin_write, committed},
    entity::{flow_state, ids::UserId},
};

/// A flow to store.
#[derive(Debug, Clone)]
pub struct NewFlowState {
    /// The PKCE code challenge (empty for an implicit OAuth flow) and its method.
    pub code_challenge: String,
    pub code_challenge_method: String,
    pub user_id: Option<UserId>,
    /// `email`, `recovery`, or the OAuth provider.
    pub provider_type: String,
    /// How the flow signs the person in (`email/signup`, `magiclink`, `oauth`...).
    pub authentication_method: String,
    pub redirect_to: Option<String>,
}

/// Stores a new flow.
///
/// # Errors
///
/// The database's.
pub async fn create(db: &Database, new: NewFlowState) -> Result<flow_state::Model, DbErr> {
    committed(db, async |txn| insert(txn, new).await).await
}

/// Stores a new flow, inside a transaction of the caller's.
pub(super) async fn insert(db: &impl ConnectionTrait, new: NewFlowState) -> Result<flow_state::Model, DbErr> {
    flow_state::ActiveModel {
        id: Set(Uuid::new_v4()),
        user_id: Set(new.user_id),
        code_challenge: Set(new.code_challenge),
        code_challenge_method: Set(new.code_challenge_method),
        provider_type: Set(new.provider_type),
        authentication_method: Set(new.authentication_method),
        redirect_to: Set(new.redirect_to),
        auth_code_hash: Set(None),
        auth_code_issued_at: Set(None),
        created_at: Set(OffsetDateTime::now_utc()),
    }
    .insert(db)
    .await
}

/// The flow `id`.
///
/// # Errors
///
/// The database's.
pub async fn by_id(db: &impl ConnectionTrait, id: Uuid) -> Result<Option<flow_state::Model>, DbErr> {
    flow_state::Entity::find_by_id(id).one(db).await
}

/// The OAuth flow `id`, while it has no auth code yet (a callback can finish it only once).
///
/// # Errors
///
/// The database's.
pub async fn unfinished_oauth(
    db: &impl ConnectionTrait,
    id: Uuid,
) -> Result<Option<flow_state::Model>, DbErr> {
    flow_state::Entity::find_by_id(id)
        .filter(flow_state::Column::AuthenticationMethod.eq("oauth"))
        .filter(flow_state::Column::AuthCodeHash.is_null())
        .one(db)
        .await
}

/// Gives `flow` its auth code for `user_id` (after the link or callback succeeded); answers the
/// code.
///
/// # Errors
///
/// The database's.
pub async fn issue_auth_code(
    db: &Database,
    flow: flow_state::Model,
    user_id: UserId,
) -> Result<String, DbErr> {
    let code = Uuid::new_v4().to_string();
    let mut active: flow_state::ActiveModel = flow.into();
    active.user_id = Set(Some(user_id));
    active.auth_code_hash = Set(Some(secret::sha256_hex(&code)));
    active.auth_code_issued_at = Set(Some(OffsetDateTime::now_utc()));
    committed(db, async |txn| active.update(txn).await).await?;
    Ok(code)
}

/// Spends the auth code `code`: answers its flow, which is deleted, or `None` when no flow has
/// that code (or a concurrent exchange spent it first). Whatever the caller finds wrong with
/// the flow afterwards, the code cannot be used again.
///
/// # Errors
///
/// The database's.
pub async fn take_by_auth_code(db: &Database, code: &str) -> Result<Option<flow_state::Model>, DbErr> {
    let txn = begin_write(db).await?;
    let Some(flow) = flow_state::Entity::find()
        .filter(flow_state::Column::AuthCodeHash.eq(secret::sha256_hex(code)))
        .one(&txn)
        .await?
    else {
        return Ok(None);
    };
    let deleted = flow_state::Entity::delete_by_id(flow.id).exec(&txn).await?;
    txn.commit().await?;
    Ok((deleted.rows_affected == 1).then_some(flow))
}

/// Deletes the flow `id` (ended, failed or expired).
///
/// # Errors
///
/// The database's.
pub async fn delete(db: &impl ConnectionTrait, id: Uuid) -> Result<(), DbErr> {
    flow_state::Entity::delete_by_id(id).exec(db).await?;
    Ok(())
}
