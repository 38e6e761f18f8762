//! Sessions and the tokens that carry them: a session row per sign-in, an access token (a
//! short-lived JWT naming the session) and a refresh token that rotates on every use (see
//! [`crate::repo::auth::sessions`] for rotation and reuse).
//!
//! Sessions also end by themselves, as [`SessionLimits`](crate::auth::session_limits::SessionLimits)
//! says.

use serde::Serialize;
use serde_json::Value;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::Database;
use crate::{
    auth::{
        AuthService,
        error::{AuthError, AuthResult},
        keys::{AUDIENCE, AmrEntry, Claims},
        user::user_json,
    },
    entity::{
        ids::UserId,
        session::{self, Aal},
        user,
    },
    repo::auth::{
        sessions::{self, Ending, NewSession, Refresh},
        users,
    },
};

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
    db: &Database,
    user: &user::Model,
    method: Method,
    client: &ClientInfo,
) -> AuthResult<TokenResponse> {
    refuse_disabled(user)?;
    let now = OffsetDateTime::now_utc();
    let amr = vec![AmrEntry { method: method.as_str().to_owned(), timestamp: now.unix_timestamp() }];
    let new = NewSession {
        user_id: user.id,
        aal: Aal::Aal1,
        amr: serde_json::to_value(&amr).map_err(AuthError::internal)?,
        ip: client.ip.clone(),
        user_agent: client.user_agent.clone(),
    };
    let (session, token) = sessions::start(db, new, now).await?;
    respond(auth, db, &session, token).await
}

/// Raises a session to `aal2` after a verified second factor, and answers new tokens.
pub async fn step_up(
    auth: &AuthService,
    db: &Database,
    session: session::Model,
) -> AuthResult<TokenResponse> {
    let now = OffsetDateTime::now_utc();
    let mut amr: Vec<AmrEntry> =
        session.amr.clone().and_then(|value| serde_json::from_value(value).ok()).unwrap_or_default();
    amr.retain(|entry| entry.method != Method::Totp.as_str());
    amr.insert(0, AmrEntry { method: Method::Totp.as_str().to_owned(), timestamp: now.unix_timestamp() });
    let amr = serde_json::to_value(&amr).map_err(AuthError::internal)?;
    // Tokens issued at aal1 stay valid for their session; new ones carry aal2.
    let (session, token) = sessions::step_up(db, session, Aal::Aal2, amr, now).await?;
    respond(auth, db, &session, token).await
}

/// The `refresh_token` grant.
pub async fn refresh(auth: &AuthService, db: &Database, presented: &str) -> AuthResult<TokenResponse> {
    let now = OffsetDateTime::now_utc();
    let ended = |session: &session::Model| auth.session_limits.expired(session, now);
    match sessions::refresh(db, presented, now, ended).await? {
        Refresh::Rotated { session, refresh_token } => respond(auth, db, &session, refresh_token).await,
        Refresh::UnknownToken => Err(AuthError::bad_request(
            "refresh_token_not_found",
            "Invalid Refresh Token: Refresh Token Not Found",
        )),
        Refresh::NoSession => {
            Err(AuthError::bad_request("session_not_found", "Invalid Refresh Token: No Valid Session Found"))
        }
        Refresh::Ended => {
            Err(AuthError::bad_request("session_expired", "Invalid Refresh Token: Session Expired"))
        }
        Refresh::ReusedLate { session_id } => {
            tracing::warn!(%session_id, "refresh token reused after rotation; session revoked");
            Err(AuthError::bad_request("refresh_token_already_used", "Invalid Refresh Token: Already Used"))
        }
    }
}

/// Ends sessions of `user_id`: `global` all of them, `local` the given one, `others` all but it.
pub async fn end(db: &Database, user_id: UserId, session_id: Uuid, scope: &str) -> AuthResult<()> {
    let which = match scope {
        "global" => Ending::All,
        "local" => Ending::Only(session_id),
        "others" => Ending::AllBut(session_id),
        _ => {
            return Err(AuthError::bad_request(
                "validation_failed",
                "Unsupported logout scope; use global, local or others.",
            ));
        }
    };
    sessions::end(db, user_id, which).await?;
    Ok(())
}

/// Refuses every grant to an account an operator disabled (`bobbin users disable`). Supabase
/// Auth's code for it is `user_banned`. Disabling also ends the sessions, so tokens issued before
/// stop working at once; this stops new ones, whichever way the person signs in.
fn refuse_disabled(user: &user::Model) -> AuthResult<()> {
    if user.disabled_at.is_some() {
        return Err(AuthError::bad_request(
            "user_banned",
            "This account is disabled. Ask whoever runs this Bobbin to enable it again.",
        ));
    }
    Ok(())
}

/// The access token for a session, and the whole grant answer.
async fn respond(
    auth: &AuthService,
    db: &Database,
    session: &session::Model,
    refresh_token: String,
) -> AuthResult<TokenResponse> {
    let user = users::by_id(db, session.user_id)
        .await?
        .ok_or_else(|| AuthError::forbidden("user_not_found", "User from sub claim in JWT does not exist"))?;
    refuse_disabled(&user)?;
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
        aal: session.aal,
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
