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
    EntityTrait as _, QueryFilter as _, QueryOrder as _,
};
use time::{Duration, OffsetDateTime};
use url::Url;
use uuid::Uuid;

use crate::{
    auth::{
        AuthService,
        error::{AuthError, AuthResult},
        rate_limit, secret, session,
        vault::Vault,
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
    let allowed = auth.config.redirect_urls.iter().any(|pattern| allows(pattern, &url));
    if same_origin || allowed { url } else { site.clone() }
}

/// Whether the allow-list entry `pattern` allows `url`. An exact entry matches that URL (with or
/// without a trailing `/`). An entry ending in `*` is read as a URL too: its origin (scheme,
/// host and port) must be `url`'s exactly, and its path a prefix of `url`'s path. Comparing
/// text instead would let `https://app.example.com*` allow `https://app.example.com.evil.net`
/// or `https://app.example.com@evil.net`.
fn allows(pattern: &str, url: &Url) -> bool {
    let Some(prefix) = pattern.strip_suffix('*') else {
        return url.as_str() == pattern
            || url.as_str().trim_end_matches('/') == pattern.trim_end_matches('/');
    };
    let Ok(allowed) = Url::parse(prefix) else { return false };
    if allowed.origin() != url.origin() || !url.username().is_empty() || url.password().is_some() {
        return false;
    }
    // `https://app.example.com` parses with the path `/`: every path of the origin.
    url.path().starts_with(allowed.path())
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

    /// The clock that spaces e-mails of this kind to one address (Supabase Auth keeps one
    /// timestamp per kind: `confirmation_sent_at`, `recovery_sent_at`...). Both halves of an
    /// e-mail change share one.
    pub fn clock(self) -> &'static str {
        match self {
            Self::EmailChangeCurrent | Self::EmailChangeNew => "email_change",
            other => other.as_str(),
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

/// How many wrong codes an e-mailed token survives: the fifth voids it, and the person asks
/// for a new e-mail. Five guesses at a six-digit code succeed once in 200,000 tries.
pub const MAX_CODE_ATTEMPTS: i32 = 5;

/// Sign-ups of one unconfirmed address whose links stay usable at once (each with its own
/// password); a sixth replaces the oldest.
const PENDING_SIGNUPS: usize = 5;

/// One link-and-code e-mail to send.
#[derive(Debug)]
pub struct TokenMail<'a> {
    pub kind: TokenKind,
    /// Where it goes (for an e-mail change, the current or the new address).
    pub address: &'a str,
    pub redirect_to: &'a Url,
    /// The PKCE flow the link ends, if the request started one.
    pub flow: Option<Uuid>,
    /// For a sign-up's confirmation: the hash of the password that sign-up chose. It becomes
    /// the account's password only when this e-mail's link or code proves the address, so the
    /// person who proves they own the address decides the password (no pre-hijacking).
    pub password_hash: Option<String>,
}

impl<'a> TokenMail<'a> {
    /// An e-mail of `kind` to `address` that sets no password.
    pub fn new(kind: TokenKind, address: &'a str, redirect_to: &'a Url, flow: Option<Uuid>) -> Self {
        Self { kind, address, redirect_to, flow, password_hash: None }
    }
}

/// Allows one e-mail of `kind` to `address` per `--email-interval`, and records it (see
/// [`rate_limit::check_email`]; every kind keeps its own clock).
pub async fn email_clock(
    auth: &AuthService,
    db: &DatabaseConnection,
    kind: TokenKind,
    address: &str,
) -> AuthResult<()> {
    rate_limit::check_email(db, kind.clock(), address, auth.config.email_interval).await
}

/// Sends a link-and-code e-mail to `mail.address` for `user` (see [`store_token`]), after the
/// per-kind, per-address interval check.
pub async fn send_token_mail(
    auth: &AuthService,
    db: &DatabaseConnection,
    user: &user::Model,
    mail: TokenMail<'_>,
) -> AuthResult<()> {
    email_clock(auth, db, mail.kind, mail.address).await?;
    let issued =
        crate::db::committed(db, async |txn| store_token(txn, &auth.vault, user, &mail).await).await?;
    mail_token(auth, db, user, &mail, &issued).await
}

/// The secrets of a stored one-time token, to be mailed (only their hashes are stored).
#[derive(Debug)]
pub struct Issued {
    token: String,
    code: String,
}

/// Stores a new one-time token for `mail` and answers its secrets, to be mailed. It replaces
/// earlier tokens of the same kind, except sign-up confirmations: each sign-up keeps its own
/// link (and password), and the one that is used decides.
pub async fn store_token(
    db: &impl ConnectionTrait,
    vault: &Vault,
    user: &user::Model,
    mail: &TokenMail<'_>,
) -> AuthResult<Issued> {
    let kind = mail.kind;
    let token = secret::random_token(32);
    let code = secret::six_digit_code();
    let earlier = one_time_token::Entity::find()
        .filter(one_time_token::Column::UserId.eq(user.id))
        .filter(one_time_token::Column::Kind.eq(kind.as_str()))
        .order_by_desc(one_time_token::Column::CreatedAt)
        .all(db)
        .await?;
    let kept = if kind == TokenKind::Confirmation { PENDING_SIGNUPS - 1 } else { 0 };
    let replaced: Vec<Uuid> = earlier.iter().skip(kept).map(|row| row.id).collect();
    if !replaced.is_empty() {
        one_time_token::Entity::delete_many()
            .filter(one_time_token::Column::Id.is_in(replaced))
            .exec(db)
            .await?;
    }
    one_time_token::ActiveModel {
        id: Set(Uuid::new_v4()),
        user_id: Set(user.id),
        kind: Set(kind.as_str().to_owned()),
        token_hash: Set(secret::sha256_hex(&token)),
        code_hash: Set(vault.code_hash(mail.address, &code)),
        relates_to: Set(mail.address.to_owned()),
        flow_state_id: Set(mail.flow),
        created_at: Set(OffsetDateTime::now_utc()),
        attempts: Set(0),
        password_hash: Set(mail.password_hash.clone()),
    }
    .insert(db)
    .await?;
    Ok(Issued { token, code })
}

/// Mails the link and code of a token [`store_token`] stored.
pub async fn mail_token(
    auth: &AuthService,
    db: &DatabaseConnection,
    user: &user::Model,
    mail: &TokenMail<'_>,
    issued: &Issued,
) -> AuthResult<()> {
    let mut link = auth.config.site_url.join("auth/v1/verify").map_err(AuthError::internal)?;
    link.query_pairs_mut()
        .append_pair("token", &issued.token)
        .append_pair("type", mail.kind.link_type())
        .append_pair("redirect_to", mail.redirect_to.as_str());
    let context = templates::MailContext {
        site_url: &auth.config.site_url,
        action_link: &link,
        code: Some(&issued.code),
        email: &user.email,
        new_email: user.email_change.as_deref(),
        valid_for: mail.kind.lifetime().unsigned_abs(),
        invite: None,
    };
    let rendered = templates::render(mail.kind.mail(), &context);
    auth.mailer.send(db, mail.address, rendered).await?;
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
