//! The endpoints of `/auth/v1`, and what several of them share: `redirect_to` checks, PKCE
//! flow state, and e-mailed one-time tokens.

pub mod account;
pub mod email;
pub mod meta;
pub mod mfa;
pub mod oauth;

use axum::response::{IntoResponse as _, Redirect, Response};
use sea_orm::{
    ActiveModelTrait as _, ActiveValue::Set, ColumnTrait as _, ConnectionTrait, DatabaseConnection,
    EntityTrait as _, QueryFilter as _,
};
use time::{Duration, OffsetDateTime};
use url::Url;
use uuid::Uuid;

use crate::{
    auth::{
        AuthService,
        error::{AuthError, AuthResult},
        rate_limit, secret, session,
    },
    entity::{flow_state, one_time_token, user},
    mail::templates::{self, MailKind},
};

/// How long a PKCE flow may take from the e-mailed link (or OAuth callback) to the code exchange.
pub const FLOW_STATE_EXPIRY: Duration = Duration::minutes(5);

/// The `redirect_to` to use: the requested one if it is the site itself or on the allow-list,
/// else the site URL (as Supabase Auth does: a bad target is replaced, not an error, so a
/// crafted link cannot send a sign-in code to another site).
pub fn redirect_target(auth: &AuthService, requested: Option<&str>) -> Url {
    let site = &auth.config.site_url;
    let Some(requested) = requested.filter(|target| !target.is_empty()) else {
        return site.clone();
    };
    let Ok(url) = Url::parse(requested) else {
        return site.clone();
    };
    let same_origin = url.origin() == site.origin();
    let allowed = auth.config.redirect_urls.iter().any(|pattern| match pattern.strip_suffix('*') {
        Some(prefix) => url.as_str().starts_with(prefix),
        None => {
            url.as_str() == pattern || url.as_str().trim_end_matches('/') == pattern.trim_end_matches('/')
        }
    });
    if same_origin || allowed { url } else { site.clone() }
}

/// The PKCE fields of a request that starts a flow (flattened into its body or query).
#[derive(Debug, Default, serde::Deserialize)]
pub struct PkceFields {
    code_challenge: Option<String>,
    code_challenge_method: Option<String>,
}

impl PkceFields {
    /// The challenge and its method (`s256` or `plain`): both or neither.
    pub fn parse(&self) -> AuthResult<Option<(String, String)>> {
        let challenge = self.code_challenge.as_deref();
        let method = self.code_challenge_method.as_deref();
        match (challenge.filter(|c| !c.is_empty()), method.filter(|m| !m.is_empty())) {
            (None, None) => Ok(None),
            (Some(challenge), Some(method)) => {
                let method = method.to_ascii_lowercase();
                if method != "s256" && method != "plain" {
                    return Err(AuthError::validation(format!(
                        "Code challenge method not supported: {method}"
                    )));
                }
                if !(43..=128).contains(&challenge.len()) {
                    return Err(AuthError::validation(
                        "code challenge has to be between 43 and 128 characters",
                    ));
                }
                Ok(Some((challenge.to_owned(), method)))
            }
            _ => Err(AuthError::validation("PKCE flow requires code_challenge_method and code_challenge")),
        }
    }
}

pub async fn new_flow_state(
    db: &impl ConnectionTrait,
    (challenge, method): (String, String),
    user_id: Option<Uuid>,
    provider_type: &str,
    authentication_method: &str,
    redirect_to: Option<String>,
) -> AuthResult<flow_state::Model> {
    Ok(flow_state::ActiveModel {
        id: Set(Uuid::new_v4()),
        user_id: Set(user_id),
        code_challenge: Set(challenge),
        code_challenge_method: Set(method),
        provider_type: Set(provider_type.to_owned()),
        authentication_method: Set(authentication_method.to_owned()),
        redirect_to: Set(redirect_to),
        auth_code_hash: Set(None),
        auth_code_issued_at: Set(None),
        created_at: Set(OffsetDateTime::now_utc()),
    }
    .insert(db)
    .await?)
}

/// A flow state for an e-mailed link when the request started a PKCE flow: its id, for the
/// link's one-time token. `None` (an implicit flow) when it did not.
pub async fn flow_for_link(
    db: &impl ConnectionTrait,
    pkce: Option<(String, String)>,
    user_id: Uuid,
    provider_type: &str,
    authentication_method: &str,
    redirect: &Url,
) -> AuthResult<Option<Uuid>> {
    let Some(pkce) = pkce else { return Ok(None) };
    let flow = new_flow_state(
        db,
        pkce,
        Some(user_id),
        provider_type,
        authentication_method,
        Some(redirect.to_string()),
    )
    .await?;
    Ok(Some(flow.id))
}

/// Gives a flow state its auth code (after the link or callback succeeded); answers the code.
pub async fn issue_auth_code(
    db: &impl ConnectionTrait,
    flow: flow_state::Model,
    user_id: Uuid,
) -> AuthResult<String> {
    let code = Uuid::new_v4().to_string();
    let mut active: flow_state::ActiveModel = flow.into();
    active.user_id = Set(Some(user_id));
    active.auth_code_hash = Set(Some(secret::sha256_hex(&code)));
    active.auth_code_issued_at = Set(Some(OffsetDateTime::now_utc()));
    active.update(db).await?;
    Ok(code)
}

/// The kinds of e-mailed one-time token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    Confirmation,
    Recovery,
    MagicLink,
    /// Sent to the current address of an e-mail change.
    EmailChangeCurrent,
    /// Sent to the new address of an e-mail change.
    EmailChangeNew,
}

impl TokenKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Confirmation => "confirmation",
            Self::Recovery => "recovery",
            Self::MagicLink => "magiclink",
            Self::EmailChangeCurrent => "email_change_current",
            Self::EmailChangeNew => "email_change_new",
        }
    }

    /// The `type` of the verify link.
    fn link_type(self) -> &'static str {
        match self {
            Self::Confirmation => "signup",
            Self::Recovery => "recovery",
            Self::MagicLink => "magiclink",
            Self::EmailChangeCurrent | Self::EmailChangeNew => "email_change",
        }
    }

    /// How long the e-mailed link and code stay valid.
    pub fn lifetime(self) -> Duration {
        match self {
            Self::Confirmation | Self::EmailChangeCurrent | Self::EmailChangeNew => Duration::hours(24),
            Self::Recovery | Self::MagicLink => Duration::hours(1),
        }
    }

    fn mail(self) -> MailKind {
        match self {
            Self::Confirmation => MailKind::ConfirmSignup,
            Self::Recovery => MailKind::Recovery,
            Self::MagicLink => MailKind::MagicLink,
            Self::EmailChangeCurrent | Self::EmailChangeNew => MailKind::EmailChange,
        }
    }
}

/// Sends a link-and-code e-mail of `kind` to `address` for `user`, replacing earlier tokens of
/// the same kind, after the per-address interval check. `flow` ties the link to a PKCE flow.
pub async fn send_token_mail(
    auth: &AuthService,
    db: &DatabaseConnection,
    user: &user::Model,
    kind: TokenKind,
    address: &str,
    redirect_to: &Url,
    flow: Option<Uuid>,
) -> AuthResult<()> {
    rate_limit::check_email(db, address, auth.config.email_interval).await?;
    let token = secret::random_token(32);
    let code = secret::six_digit_code();
    one_time_token::Entity::delete_many()
        .filter(one_time_token::Column::UserId.eq(user.id))
        .filter(one_time_token::Column::Kind.eq(kind.as_str()))
        .exec(db)
        .await?;
    one_time_token::ActiveModel {
        id: Set(Uuid::new_v4()),
        user_id: Set(user.id),
        kind: Set(kind.as_str().to_owned()),
        token_hash: Set(secret::sha256_hex(&token)),
        code_hash: Set(secret::code_hash(address, &code)),
        relates_to: Set(address.to_owned()),
        flow_state_id: Set(flow),
        created_at: Set(OffsetDateTime::now_utc()),
    }
    .insert(db)
    .await?;

    let mut link = auth.config.site_url.join("auth/v1/verify").map_err(AuthError::internal)?;
    link.query_pairs_mut()
        .append_pair("token", &token)
        .append_pair("type", kind.link_type())
        .append_pair("redirect_to", redirect_to.as_str());
    let context = templates::MailContext {
        site_url: &auth.config.site_url,
        action_link: &link,
        code: Some(&code),
        email: &user.email,
        new_email: user.email_change.as_deref(),
        valid_for: kind.lifetime().unsigned_abs(),
        invite: None,
    };
    let mail = templates::render(kind.mail(), &context);
    auth.mailer.send(db, address, mail).await?;
    Ok(())
}

/// `redirect_to` with parameters in the query (`in_query`) or the fragment.
pub fn redirect_with(target: &Url, in_query: bool, params: &[(&str, &str)]) -> Response {
    let mut url = target.clone();
    if in_query {
        let mut pairs = url.query_pairs_mut();
        for (name, value) in params {
            pairs.append_pair(name, value);
        }
    } else {
        let fragment = url::form_urlencoded::Serializer::new(String::new()).extend_pairs(params).finish();
        url.set_fragment(Some(&fragment));
    }
    Redirect::to(url.as_str()).into_response()
}

/// Errors go in the query, where the client looks first (it reads both) and where a page can
/// read them without the client.
pub fn error_redirect(target: &Url, error: &AuthError) -> Response {
    let kind = if error.status.is_server_error() { "server_error" } else { "access_denied" };
    redirect_with(
        target,
        true,
        &[("error", kind), ("error_code", error.code), ("error_description", &error.message)],
    )
}

/// `redirect_to` with a new session in the fragment: the implicit flow. `kind` is the
/// verification type, for the client's `PASSWORD_RECOVERY` event.
pub fn session_redirect(target: &Url, tokens: &session::TokenResponse, kind: Option<&str>) -> Response {
    let (expires_at, expires_in) = (tokens.expires_at.to_string(), tokens.expires_in.to_string());
    let mut params = vec![
        ("access_token", tokens.access_token.as_str()),
        ("expires_at", &expires_at),
        ("expires_in", &expires_in),
        ("refresh_token", &tokens.refresh_token),
        ("token_type", "bearer"),
    ];
    if let Some(kind) = kind {
        params.push(("type", kind));
    }
    redirect_with(target, false, &params)
}
