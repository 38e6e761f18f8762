//! Sessions and the tokens that carry them: a session row per sign-in, an access token (a
//! short-lived JWT naming the session) and a refresh token that rotates on every use.
//!
//! Rotation and reuse, as in Supabase Auth: using a refresh token revokes it and issues its
//! child. A revoked token used again within [`REUSE_INTERVAL`] of its revocation (two tabs
//! refreshing at once, or a retry after a lost answer) gets a fresh sibling in the same session;
//! used later, it is taken as a stolen token and the whole session (its token family) is ended.
//!
//! Sessions also end by themselves: [`SessionLimits`] bounds their lifetime and the time they
//! may go unused (Supabase Auth's `sessions.timebox` and `sessions.inactivity_timeout`).

use sea_orm::{
    ActiveModelTrait as _, ActiveValue::Set, ColumnTrait as _, ConnectionTrait, DatabaseConnection,
    EntityTrait as _, IntoActiveModel as _, QueryFilter as _,
};
use serde::Serialize;
use serde_json::Value;
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

use crate::{
    auth::{
        AuthService,
        error::{AuthError, AuthResult},
        keys::{AUDIENCE, AmrEntry, Claims},
        secret,
        user::user_json,
    },
    entity::{refresh_token, session, user},
};

/// How long a just-rotated refresh token stays usable, for tabs that refresh at the same moment.
pub const REUSE_INTERVAL: Duration = Duration::seconds(10);

/// Authenticator assurance levels.
pub const AAL1: &str = "aal1";
pub const AAL2: &str = "aal2";

/// How long sessions may last, from the configuration: a lifetime counted from the sign-in,
/// and an inactivity timeout counted from the last token refresh (or the sign-in). Zero turns
/// either off.
#[derive(Debug, Clone, Copy)]
pub struct SessionLimits {
    lifetime: Option<Duration>,
    inactivity: Option<Duration>,
}

impl SessionLimits {
    pub fn new(lifetime: std::time::Duration, inactivity: std::time::Duration) -> Self {
        let limit = |duration: std::time::Duration| {
            (!duration.is_zero()).then(|| Duration::try_from(duration).unwrap_or(Duration::MAX))
        };
        Self { lifetime: limit(lifetime), inactivity: limit(inactivity) }
    }

    pub fn lifetime(&self) -> Option<Duration> {
        self.lifetime
    }

    pub fn inactivity(&self) -> Option<Duration> {
        self.inactivity
    }

    /// When `session` ends at the latest, whatever happens: its lifetime's end.
    pub fn lifetime_end(&self, session: &session::Model) -> Option<OffsetDateTime> {
        self.lifetime.and_then(|lifetime| session.created_at.checked_add(lifetime))
    }

    /// Whether `session` has ended by itself at `now`: past its lifetime, past its own
    /// `not_after`, or unused for longer than the inactivity timeout.
    pub fn expired(&self, session: &session::Model, now: OffsetDateTime) -> bool {
        let last_active = session.refreshed_at.unwrap_or(session.created_at);
        let idle_end = self.inactivity.and_then(|inactivity| last_active.checked_add(inactivity));
        [self.lifetime_end(session), idle_end, session.not_after].into_iter().flatten().any(|end| end <= now)
    }
}

/// How a session was started (the `amr` claim's `method`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Password,
    Otp,
    MagicLink,
    EmailSignup,
    Recovery,
    EmailChange,
    OAuth,
    Totp,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Password => "password",
            Self::Otp => "otp",
            Self::MagicLink => "magiclink",
            Self::EmailSignup => "email/signup",
            Self::Recovery => "recovery",
            Self::EmailChange => "email_change",
            Self::OAuth => "oauth",
            Self::Totp => "totp",
        }
    }
}

/// The answer of every grant: Supabase Auth's `AccessTokenResponse`.
#[derive(Debug, Serialize)]
pub struct TokenResponse {
    pub access_token: String,
    pub token_type: &'static str,
    pub expires_in: u32,
    pub expires_at: i64,
    pub refresh_token: String,
    pub user: Value,
}

/// Who is asking, recorded on the session.
#[derive(Debug, Clone, Default)]
pub struct ClientInfo {
    pub ip: Option<String>,
    pub user_agent: Option<String>,
}

/// Starts a session for `user` and answers its first tokens.
pub async fn start(
    auth: &AuthService,
    db: &DatabaseConnection,
    user: &user::Model,
    method: Method,
    client: &ClientInfo,
) -> AuthResult<TokenResponse> {
    let now = OffsetDateTime::now_utc();
    let amr = vec![AmrEntry { method: method.as_str().to_owned(), timestamp: now.unix_timestamp() }];
    let session = session::ActiveModel {
        id: Set(Uuid::new_v4()),
        user_id: Set(user.id),
        aal: Set(AAL1.to_owned()),
        not_after: Set(None),
        refreshed_at: Set(None),
        user_agent: Set(client.user_agent.as_ref().map(|agent| agent.chars().take(512).collect())),
        ip: Set(client.ip.clone()),
        amr: Set(Some(serde_json::to_value(&amr).map_err(AuthError::internal)?)),
        created_at: Set(now),
        updated_at: Set(now),
    };
    let txn = crate::db::begin_write(db).await?;
    let session = session.insert(&txn).await?;
    let token = new_refresh_token(&txn, session.id, None).await?;
    user::Entity::update(user::ActiveModel {
        id: Set(user.id),
        last_sign_in_at: Set(Some(now)),
        ..Default::default()
    })
    .exec(&txn)
    .await?;
    txn.commit().await?;
    respond(auth, db, &session, token).await
}

/// Raises a session to `aal2` after a verified second factor, and answers new tokens.
pub async fn step_up(
    auth: &AuthService,
    db: &DatabaseConnection,
    session: session::Model,
) -> AuthResult<TokenResponse> {
    let now = OffsetDateTime::now_utc();
    let mut amr: Vec<AmrEntry> =
        session.amr.clone().and_then(|value| serde_json::from_value(value).ok()).unwrap_or_default();
    amr.retain(|entry| entry.method != Method::Totp.as_str());
    amr.insert(0, AmrEntry { method: Method::Totp.as_str().to_owned(), timestamp: now.unix_timestamp() });
    let txn = crate::db::begin_write(db).await?;
    let mut active = session.into_active_model();
    active.aal = Set(AAL2.to_owned());
    active.amr = Set(Some(serde_json::to_value(&amr).map_err(AuthError::internal)?));
    active.updated_at = Set(now);
    let session = active.update(&txn).await?;
    // Tokens issued at aal1 stay valid for their session; new ones carry aal2.
    refresh_token::Entity::update_many()
        .col_expr(refresh_token::Column::Revoked, true.into())
        .col_expr(refresh_token::Column::UpdatedAt, now.into())
        .filter(refresh_token::Column::SessionId.eq(session.id))
        .filter(refresh_token::Column::Revoked.eq(false))
        .exec(&txn)
        .await?;
    let token = new_refresh_token(&txn, session.id, None).await?;
    txn.commit().await?;
    respond(auth, db, &session, token).await
}

/// The `refresh_token` grant.
pub async fn refresh(
    auth: &AuthService,
    db: &DatabaseConnection,
    presented: &str,
) -> AuthResult<TokenResponse> {
    let now = OffsetDateTime::now_utc();
    let txn = crate::db::begin_write(db).await?;
    let Some(token) = refresh_token::Entity::find()
        .filter(refresh_token::Column::TokenHash.eq(secret::sha256_hex(presented)))
        .one(&txn)
        .await?
    else {
        return Err(AuthError::bad_request(
            "refresh_token_not_found",
            "Invalid Refresh Token: Refresh Token Not Found",
        ));
    };
    let Some(session) = session::Entity::find_by_id(token.session_id).one(&txn).await? else {
        return Err(AuthError::bad_request(
            "session_not_found",
            "Invalid Refresh Token: No Valid Session Found",
        ));
    };
    if auth.session_limits.expired(&session, now) {
        return Err(AuthError::bad_request("session_expired", "Invalid Refresh Token: Session Expired"));
    }
    if token.revoked && now - token.updated_at > REUSE_INTERVAL {
        // Outside the reuse interval (within it, two tabs refreshing at once, or a client
        // retrying an answer it lost, both get a token and keep it). Supabase Auth also accepts
        // a token whose child is still unused at any later time; Bobbin does not: a stolen
        // token replayed days later would otherwise work for as long as its owner stays away.
        tracing::warn!(session_id = %session.id, "refresh token reused after rotation; session revoked");
        session::Entity::delete_by_id(session.id).exec(&txn).await?;
        txn.commit().await?;
        return Err(AuthError::bad_request(
            "refresh_token_already_used",
            "Invalid Refresh Token: Already Used",
        ));
    } else if !token.revoked {
        // Revoke only if still unrevoked: of two concurrent refreshes, one flips the flag and
        // the other sees zero rows and is treated as a reuse within the interval.
        refresh_token::Entity::update_many()
            .col_expr(refresh_token::Column::Revoked, true.into())
            .col_expr(refresh_token::Column::UpdatedAt, now.into())
            .filter(refresh_token::Column::Id.eq(token.id))
            .filter(refresh_token::Column::Revoked.eq(false))
            .exec(&txn)
            .await?;
    }
    let issued = new_refresh_token(&txn, session.id, Some(token.id)).await?;
    let mut active = session.into_active_model();
    active.refreshed_at = Set(Some(now));
    active.updated_at = Set(now);
    let session = active.update(&txn).await?;
    txn.commit().await?;
    respond(auth, db, &session, issued).await
}

/// Ends sessions of `user_id`: `global` all of them, `local` the given one, `others` all but it.
pub async fn end(db: &DatabaseConnection, user_id: Uuid, session_id: Uuid, scope: &str) -> AuthResult<()> {
    let delete = session::Entity::delete_many().filter(session::Column::UserId.eq(user_id));
    let delete = match scope {
        "global" => delete,
        "local" => delete.filter(session::Column::Id.eq(session_id)),
        "others" => delete.filter(session::Column::Id.ne(session_id)),
        _ => {
            return Err(AuthError::bad_request(
                "validation_failed",
                "Unsupported logout scope; use global, local or others.",
            ));
        }
    };
    delete.exec(db).await?;
    Ok(())
}

/// The access token for a session, and the whole grant answer.
async fn respond(
    auth: &AuthService,
    db: &DatabaseConnection,
    session: &session::Model,
    refresh_token: String,
) -> AuthResult<TokenResponse> {
    let user = user::Entity::find_by_id(session.user_id)
        .one(db)
        .await?
        .ok_or_else(|| AuthError::forbidden("user_not_found", "User from sub claim in JWT does not exist"))?;
    let now = OffsetDateTime::now_utc().unix_timestamp();
    // An access token never outlives its session.
    let session_end =
        auth.session_limits.lifetime_end(session).map_or(i64::MAX, OffsetDateTime::unix_timestamp);
    let expires_at = (now + i64::from(auth.config.jwt_expiry)).min(session_end);
    let claims = Claims {
        iss: auth.keys.issuer().to_owned(),
        sub: user.id,
        aud: AUDIENCE.to_owned(),
        exp: expires_at,
        iat: now,
        email: user.email.clone(),
        phone: String::new(),
        role: AUDIENCE.to_owned(),
        aal: session.aal.clone(),
        amr: session.amr.clone().and_then(|value| serde_json::from_value(value).ok()).unwrap_or_default(),
        session_id: session.id,
        app_metadata: user.raw_app_meta_data.clone(),
        user_metadata: user.raw_user_meta_data.clone(),
        is_anonymous: false,
    };
    Ok(TokenResponse {
        access_token: auth.keys.sign(&claims)?,
        token_type: "bearer",
        expires_in: u32::try_from(expires_at - now).unwrap_or(0),
        expires_at,
        refresh_token,
        user: user_json(db, &user).await?,
    })
}

async fn new_refresh_token(
    db: &impl ConnectionTrait,
    session_id: Uuid,
    parent: Option<Uuid>,
) -> AuthResult<String> {
    let token = secret::refresh_token();
    let now = OffsetDateTime::now_utc();
    refresh_token::ActiveModel {
        id: Set(Uuid::new_v4()),
        session_id: Set(session_id),
        token_hash: Set(secret::sha256_hex(&token)),
        parent_id: Set(parent),
        revoked: Set(false),
        created_at: Set(now),
        updated_at: Set(now),
    }
    .insert(db)
    .await?;
    Ok(token)
}
