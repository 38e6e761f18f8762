//! Accounts (`users`), with the rules every change of one follows: a new account gets its
//! identity, a new password ends the other sessions, and an address proven by an OAuth
//! provider drops a password chosen before anyone proved it.

use crate::db::Database;
use crate::repo::RepoError;
use sea_orm::{
    ActiveModelTrait as _, ActiveValue::Set, ColumnTrait as _, ConnectionTrait, DbErr, EntityTrait as _,
    IntoActiveModel as _, QueryFilter as _, QueryOrder as _, SqlErr,
};
use serde_json::{Map, Value, json};
use time::OffsetDateTime;

use super::{
    flow_states::{self, NewFlowState},
    identities,
    sessions::{self, Ending},
};
use crate::{
    db::{begin_write, committed},
    entity::{flow_state, ids::UserId, user},
};

/// The user `id`.
///
/// # Errors
///
/// The database's.
pub async fn by_id(db: &impl ConnectionTrait, id: UserId) -> Result<Option<user::Model>, DbErr> {
    user::Entity::find_by_id(id).one(db).await
}

/// The user with the address `email` (as [`crate::auth::user::parse_email`] answers it).
///
/// # Errors
///
/// The database's.
pub async fn by_email(db: &impl ConnectionTrait, email: &str) -> Result<Option<user::Model>, DbErr> {
    user::Entity::find().filter(user::Column::Email.eq(email)).one(db).await
}

/// An account to create, with its identity at `provider` (`email`, or an OAuth provider).
#[derive(Debug, Clone)]
pub struct NewUser<'a> {
    pub email: &'a str,
    pub password_hash: Option<String>,
    pub metadata: Map<String, Value>,
    pub provider: &'a str,
    /// The person's id at the provider; for `email`, the new user's own id.
    pub provider_id: Option<String>,
    /// Whether the address is proven already (auto-confirm, or a provider vouched for it).
    pub confirmed: bool,
}

/// Creates an account and its identity, and the flow its confirmation link ends (if any; for
/// the new account, whatever `user_id` it names), in one transaction.
///
/// # Errors
///
/// `user_already_exists` (422) when the address has an account; the database's.
pub async fn create(
    db: &Database,
    new: NewUser<'_>,
    flow: Option<NewFlowState>,
) -> Result<(user::Model, Option<flow_state::Model>), RepoError> {
    let txn = begin_write(db).await?;
    let user = insert(&txn, new).await?;
    let flow = match flow {
        Some(flow) => Some(flow_states::insert(&txn, NewFlowState { user_id: Some(user.id), ..flow }).await?),
        None => None,
    };
    txn.commit().await?;
    Ok((user, flow))
}

async fn insert(db: &impl ConnectionTrait, new: NewUser<'_>) -> Result<user::Model, RepoError> {
    let now = OffsetDateTime::now_utc();
    let id = UserId::new();
    let NewUser { email, password_hash, metadata, provider, provider_id, confirmed } = new;
    let user = user::ActiveModel {
        id: Set(id),
        email: Set(email.to_owned()),
        encrypted_password: Set(password_hash),
        email_confirmed_at: Set(confirmed.then_some(now)),
        last_sign_in_at: Set(None),
        raw_user_meta_data: Set(Value::Object(metadata.clone())),
        raw_app_meta_data: Set(json!({ "provider": provider, "providers": [provider] })),
        confirmation_sent_at: Set(None),
        recovery_sent_at: Set(None),
        email_change: Set(None),
        email_change_sent_at: Set(None),
        default_team_id: Set(None),
        disabled_at: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
    }
    .insert(db)
    .await
    .map_err(|error| match error.sql_err() {
        Some(SqlErr::UniqueConstraintViolation(_)) => {
            RepoError::conflict("user_already_exists", "User already registered")
        }
        _ => RepoError::from(error),
    })?;
    let mut identity_data = metadata;
    identity_data.entry("sub").or_insert_with(|| json!(id));
    identity_data.insert("email".to_owned(), json!(email));
    identity_data.entry("email_verified").or_insert(json!(confirmed));
    identities::add(
        db,
        user.id,
        email.to_owned(),
        provider,
        provider_id.unwrap_or_else(|| id.to_string()),
        identity_data,
    )
    .await?;
    Ok(user)
}

/// The account of someone a provider vouched for at `email`, who has no identity there yet:
/// the account with that address, which gets the identity, else a new confirmed account. Both
/// in one transaction, so two callbacks at once cannot make two accounts.
///
/// # Errors
///
/// `user_already_exists` if another request made the account meanwhile; the database's.
pub async fn link_or_create(
    db: &Database,
    email: &str,
    provider: &str,
    provider_id: &str,
    data: &Map<String, Value>,
    now: OffsetDateTime,
) -> Result<user::Model, RepoError> {
    let txn = begin_write(db).await?;
    let user = if let Some(existing) = by_email(&txn, email).await? {
        link(&txn, existing, provider, provider_id, data, now).await?
    } else {
        let new = NewUser {
            email,
            password_hash: None,
            metadata: data.clone(),
            provider,
            provider_id: Some(provider_id.to_owned()),
            confirmed: true,
        };
        insert(&txn, new).await?
    };
    txn.commit().await?;
    Ok(user)
}

/// Adds the provider identity to an existing account with the same address.
async fn link(
    db: &impl ConnectionTrait,
    existing: user::Model,
    provider: &str,
    provider_id: &str,
    data: &Map<String, Value>,
    now: OffsetDateTime,
) -> Result<user::Model, DbErr> {
    identities::add(db, existing.id, existing.email.clone(), provider, provider_id.to_owned(), data.clone())
        .await?;
    let mut app_metadata = existing.raw_app_meta_data.clone();
    let providers = app_metadata["providers"].as_array().cloned().unwrap_or_default();
    if !providers.iter().any(|known| known == provider) {
        app_metadata["providers"] = json!(providers.into_iter().chain([json!(provider)]).collect::<Vec<_>>());
    }
    let unconfirmed = existing.email_confirmed_at.is_none();
    let mut active: user::ActiveModel = existing.into();
    active.raw_app_meta_data = Set(app_metadata);
    active.updated_at = Set(now);
    if unconfirmed {
        // Nobody proved they own this address until now: whoever signed up with it may not be
        // its owner, so their password goes and the provider's word confirms the address.
        active.encrypted_password = Set(None);
        active.email_confirmed_at = Set(Some(now));
    }
    active.update(db).await
}

/// Replaces the user's `user_metadata`.
///
/// # Errors
///
/// The database's.
pub async fn set_metadata(
    db: &Database,
    user: user::Model,
    metadata: Map<String, Value>,
    now: OffsetDateTime,
) -> Result<user::Model, DbErr> {
    let mut active = user.into_active_model();
    active.raw_user_meta_data = Set(Value::Object(metadata));
    active.updated_at = Set(now);
    committed(db, async |txn| active.update(txn).await).await
}

/// Gives the user a new password (its hash), and ends their sessions as `ending` says: a person
/// changing their own keeps the session that asked, and other devices signed in with the old
/// password are signed out; an operator's reset ends them all.
///
/// # Errors
///
/// The database's.
pub async fn change_password(
    db: &Database,
    user: user::Model,
    password_hash: String,
    ending: Ending,
    now: OffsetDateTime,
) -> Result<user::Model, DbErr> {
    let mut active = user.into_active_model();
    active.encrypted_password = Set(Some(password_hash));
    active.updated_at = Set(now);
    let txn = begin_write(db).await?;
    let user = active.update(&txn).await?;
    sessions::end(&txn, user.id, ending).await?;
    txn.commit().await?;
    Ok(user)
}

/// Every account, oldest first (the operator's `bobbin users list`).
///
/// # Errors
///
/// The database's.
pub async fn all(db: &impl ConnectionTrait) -> Result<Vec<user::Model>, DbErr> {
    user::Entity::find().order_by_asc(user::Column::CreatedAt).order_by_asc(user::Column::Email).all(db).await
}

/// Marks the address as confirmed now, unless it already is; answers the account as it is now.
///
/// # Errors
///
/// The database's.
pub async fn confirm(db: &Database, user: user::Model, now: OffsetDateTime) -> Result<user::Model, DbErr> {
    if user.email_confirmed_at.is_some() {
        return Ok(user);
    }
    let mut active = user.into_active_model();
    active.email_confirmed_at = Set(Some(now));
    active.updated_at = Set(now);
    committed(db, async |txn| active.update(txn).await).await
}

/// Disables the account (`at` is when) and ends all its sessions in the same transaction, or
/// with `None` enables it again.
///
/// # Errors
///
/// The database's.
pub async fn set_disabled(
    db: &Database,
    user: user::Model,
    at: Option<OffsetDateTime>,
    now: OffsetDateTime,
) -> Result<user::Model, DbErr> {
    let mut active = user.into_active_model();
    active.disabled_at = Set(at);
    active.updated_at = Set(now);
    committed(db, async |txn| {
        let user = active.update(txn).await?;
        if at.is_some() {
            sessions::end(txn, user.id, Ending::All).await?;
        }
        Ok::<_, DbErr>(user)
    })
    .await
}

/// Records a repeated sign-up of an unconfirmed account: its password becomes that sign-up's
/// (the one that hears "Email not confirmed" at sign-in until a link is opened), and the
/// confirmation went out now.
///
/// # Errors
///
/// The database's.
pub async fn record_repeated_signup(
    db: &Database,
    user: user::Model,
    password_hash: String,
    now: OffsetDateTime,
) -> Result<user::Model, DbErr> {
    let mut active = user.into_active_model();
    active.encrypted_password = Set(Some(password_hash));
    active.confirmation_sent_at = Set(Some(now));
    committed(db, async |txn| active.update(txn).await).await
}

/// Records that a sign-up confirmation went out now.
///
/// # Errors
///
/// The database's.
pub async fn record_confirmation_sent(
    db: &Database,
    user: user::Model,
    now: OffsetDateTime,
) -> Result<user::Model, DbErr> {
    let mut active = user.into_active_model();
    active.confirmation_sent_at = Set(Some(now));
    committed(db, async |txn| active.update(txn).await).await
}

/// Records that a password-reset link went out now.
///
/// # Errors
///
/// The database's.
pub async fn record_recovery_sent(
    db: &Database,
    user: user::Model,
    now: OffsetDateTime,
) -> Result<user::Model, DbErr> {
    let mut active = user.into_active_model();
    active.recovery_sent_at = Set(Some(now));
    committed(db, async |txn| active.update(txn).await).await
}
