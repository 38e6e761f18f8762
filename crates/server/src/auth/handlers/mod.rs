//! The endpoints of `/auth/v1`, and what several of them share: `redirect_to` checks, PKCE
//! flow state, and e-mailed one-time tokens.

pub mod account;
pub mod email;
pub mod meta;
pub mod mfa;
pub mod oauth;

use axum::response::{IntoResponse as _, Redirect, Response};
use time::Duration;
use url::Url;
use uuid::Uuid;

use crate::db::Database;
use crate::{
    auth::{
        AuthService,
        error::{AuthError, AuthResult},
        rate_limit, secret, session,
        vault::Vault,
    },
    entity::{ids::UserId, user},
    mail::templates::{self, MailKind},
    repo::auth::{
        flow_states::{self, NewFlowState},
        one_time_tokens::{self, NewToken, TokenKind},
    },
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

/// A flow to store for the PKCE challenge and method `pkce`.
pub fn new_flow(
    (code_challenge, code_challenge_method): (String, String),
    user_id: Option<UserId>,
    provider_type: &str,
    authentication_method: &str,
    redirect_to: Option<String>,
) -> NewFlowState {
    NewFlowState {
        code_challenge,
        code_challenge_method,
        user_id,
        provider_type: provider_type.to_owned(),
        authentication_method: authentication_method.to_owned(),
        redirect_to,
    }
}

/// A flow state for an e-mailed link when the request started a PKCE flow: its id, for the
/// link's one-time token. `None` (an implicit flow) when it did not.
pub async fn flow_for_link(
    db: &Database,
    pkce: Option<(String, String)>,
    user_id: UserId,
    provider_type: &str,
    authentication_method: &str,
    redirect: &Url,
) -> AuthResult<Option<Uuid>> {
    let Some(pkce) = pkce else { return Ok(None) };
    let flow =
        new_flow(pkce, Some(user_id), provider_type, authentication_method, Some(redirect.to_string()));
    Ok(Some(flow_states::create(db, flow).await?.id))
}

/// What the e-mails of each kind of token say and how often they may go out. (The kinds and
/// their lifetimes are the data layer's, which enforces them.)
impl TokenKind {
    /// The `type` of the verify link.
    fn link_type(self) -> &'static str {
        match self {
            Self::Confirmation => "signup",
            Self::Recovery => "recovery",
            Self::MagicLink => "magiclink",
            Self::EmailChangeCurrent | Self::EmailChangeNew => "email_change",
        }
    }

    /// The clock that spaces e-mails of this kind to one address (Supabase Auth keeps one
    /// timestamp per kind: `confirmation_sent_at`, `recovery_sent_at`...). Both halves of an
    /// e-mail change share one.
    pub fn clock(self) -> &'static str {
        match self {
            Self::Confirmation => "confirmation",
            Self::Recovery => "recovery",
            Self::MagicLink => "magiclink",
            Self::EmailChangeCurrent | Self::EmailChangeNew => "email_change",
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

/// One link-and-code e-mail to send.
#[derive(Debug)]
pub struct TokenMail<'a> {
    pub kind: TokenKind,
    /// Where it goes (for an e-mail change, the current or the new address).
    pub address: &'a str,
    pub redirect_to: &'a Url,
    /// The PKCE flow the link ends, if the request started one.
    pub flow: Option<Uuid>,
    /// For a sign-up's confirmation: the hash of the password that sign-up chose (see
    /// [`NewToken::password_hash`]).
    pub password_hash: Option<String>,
}

impl<'a> TokenMail<'a> {
    /// An e-mail of `kind` to `address` that sets no password.
    pub fn new(kind: TokenKind, address: &'a str, redirect_to: &'a Url, flow: Option<Uuid>) -> Self {
        Self { kind, address, redirect_to, flow, password_hash: None }
    }

    /// The one-time token of this e-mail for `user_id`, with the secrets `issued`, to store.
    pub fn token<'b>(&'b self, user_id: UserId, issued: &'b Issued, vault: &Vault) -> NewToken<'b> {
        NewToken {
            kind: self.kind,
            user_id,
            address: self.address,
            token: &issued.token,
            code_hash: vault.code_hash(self.address, &issued.code),
            flow_state_id: self.flow,
            password_hash: self.password_hash.clone(),
        }
    }
}

/// Allows one e-mail of `kind` to `address` per `--email-interval`, and records it (see
/// [`rate_limit::check_email`]; every kind keeps its own clock).
pub async fn email_clock(
    auth: &AuthService,
    db: &Database,
    kind: TokenKind,
    address: &str,
) -> AuthResult<()> {
    rate_limit::check_email(db, kind.clock(), address, auth.config.email_interval).await
}

/// Sends a link-and-code e-mail to `mail.address` for `user` (see [`issue_token_mail`]), after
/// the per-kind, per-address interval check.
pub async fn send_token_mail(
    auth: &AuthService,
    db: &Database,
    user: &user::Model,
    mail: TokenMail<'_>,
) -> AuthResult<()> {
    email_clock(auth, db, mail.kind, mail.address).await?;
    issue_token_mail(auth, db, user, &mail).await
}

/// Stores a new one-time token for `mail` (replacing earlier ones as
/// [`one_time_tokens::issue`] says) and mails its link and code.
pub async fn issue_token_mail(
    auth: &AuthService,
    db: &Database,
    user: &user::Model,
    mail: &TokenMail<'_>,
) -> AuthResult<()> {
    let issued = Issued::generate();
    one_time_tokens::issue(db, mail.token(user.id, &issued, &auth.vault)).await?;
    mail_token(auth, db, user, mail, &issued).await
}

/// The secrets of a new one-time token, to be mailed (only their hashes are stored).
#[derive(Debug)]
pub struct Issued {
    token: String,
    code: String,
}

impl Issued {
    /// A random link token (256 bits) and six-digit code.
    pub fn generate() -> Self {
        Self { token: secret::random_token(32), code: secret::six_digit_code() }
    }
}

/// Mails the link and code of a token stored with the secrets `issued`.
pub async fn mail_token(
    auth: &AuthService,
    db: &Database,
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
