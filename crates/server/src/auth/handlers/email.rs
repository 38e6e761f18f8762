//! The e-mailed flows: the verify link and code, recovery, magic links and resending.
//!
//! Every request that sends mail answers the same whether or not the address has an account
//! (and the per-address interval is counted either way), so none of them tells a stranger who
//! is registered.

use axum::{
    Json,
    extract::{Query, State},
    response::{IntoResponse, Response},
};
use serde::Deserialize;
use serde_json::{Value, json};
use time::OffsetDateTime;

use super::{
    Issued, PkceFields, TokenMail, email_clock, error_redirect, flow_for_link, issue_token_mail, mail_token,
    redirect_target, redirect_with, send_token_mail, session_redirect,
};
use crate::{
    auth::{
        error::{AuthError, AuthResult},
        extract::{AuthJson, Client},
        rate_limit,
        session::{self, Method},
        user as account,
    },
    entity::{flow_state, user},
    repo::auth::{
        flow_states,
        one_time_tokens::{self, Consumed, Lookup, TokenKind},
        users::{self, NewUser},
    },
    state::AppState,
};

const LINK_INVALID: &str = "Email link is invalid or has expired";
const CODE_INVALID: &str = "Token has expired or is invalid";

/// The `type` of a verification, and the token kinds it may match.
fn kinds_for(kind: &str) -> AuthResult<&'static [TokenKind]> {
    Ok(match kind {
        "signup" => &[TokenKind::Confirmation],
        "recovery" => &[TokenKind::Recovery],
        "magiclink" => &[TokenKind::MagicLink],
        "email_change" => &[TokenKind::EmailChangeNew, TokenKind::EmailChangeCurrent],
        // The code of a sign-up or magic-link e-mail, typed in.
        "email" => &[TokenKind::MagicLink, TokenKind::Confirmation],
        "invite" => return Err(AuthError::validation("Invites are sent by teams, not by the auth service")),
        "sms" | "phone_change" => {
            return Err(AuthError::bad_request("phone_provider_disabled", "Phone logins are disabled"));
        }
        _ => {
            return Err(AuthError::validation(format!(
                "Verify requires a verification type, not \"{kind}\""
            )));
        }
    })
}

/// What a verified token did.
#[expect(clippy::large_enum_variant, reason = "one short-lived value per request")]
enum Verified {
    /// Sign the person in (and, for a PKCE flow, hand out an auth code instead).
    SignIn { user: user::Model, method: Method, flow: Option<flow_state::Model> },
    /// One of the two e-mail change links; the other is still to be opened.
    HalfOfEmailChange,
}

/// Finds and spends the one-time token, and applies it (confirm the address, change it...).
async fn consume(state: &AppState, kinds: &[TokenKind], token: Token<'_>) -> AuthResult<Verified> {
    let code_hash;
    let lookup = match token {
        Token::Link(token) => Lookup::Link(token),
        Token::Code { email, code } => {
            code_hash = state.auth.vault.code_hash(email, code);
            Lookup::Code { email, code_hash: &code_hash }
        }
    };
    match one_time_tokens::consume(&state.db, kinds, lookup, OffsetDateTime::now_utc()).await? {
        Consumed::SignIn { user, kind, flow } => {
            let method = match kind {
                TokenKind::Confirmation => Method::EmailSignup,
                TokenKind::MagicLink => Method::MagicLink,
                TokenKind::Recovery => Method::Recovery,
                TokenKind::EmailChangeCurrent | TokenKind::EmailChangeNew => Method::EmailChange,
            };
            Ok(Verified::SignIn { user, method, flow })
        }
        Consumed::HalfOfEmailChange => Ok(Verified::HalfOfEmailChange),
        Consumed::Invalid => Err(AuthError::forbidden(
            "otp_expired",
            if matches!(token, Token::Link(_)) { LINK_INVALID } else { CODE_INVALID },
        )),
    }
}

/// A one-time token as presented.
#[derive(Clone, Copy)]
enum Token<'a> {
    Link(&'a str),
    Code { email: &'a str, code: &'a str },
}

#[derive(Debug, Deserialize)]
pub struct VerifyLinkQuery {
    #[serde(default)]
    token: String,
    #[serde(rename = "type", default)]
    kind: String,
    redirect_to: Option<String>,
}

/// `GET /verify`: the link in the e-mail. Redirects to `redirect_to` with, for a PKCE flow,
/// `?code=` to exchange, else the session in the fragment (the implicit flow); errors as
/// `error`, `error_code` and `error_description` in the query.
pub async fn verify_link(
    State(state): State<AppState>,
    client: Client,
    Query(query): Query<VerifyLinkQuery>,
) -> Response {
    let target = redirect_target(&state.auth, query.redirect_to.as_deref());
    let outcome = async {
        rate_limit::per_client(&state.db, "verify", &client, state.auth.config.rate_limit).await?;
        let kinds = kinds_for(&query.kind)?;
        consume(&state, kinds, Token::Link(&query.token)).await
    }
    .await;
    match outcome {
        Ok(Verified::HalfOfEmailChange) => {
            let message =
                "Confirmation link accepted. Please proceed to confirm link sent to the other email";
            redirect_with(&target, false, &[("message", message)])
        }
        Ok(Verified::SignIn { user, flow: Some(flow), .. }) => {
            // The method travels in the flow state, to the code exchange.
            let target = flow
                .redirect_to
                .as_deref()
                .map_or(target.clone(), |to| redirect_target(&state.auth, Some(to)));
            match flow_states::issue_auth_code(&state.db, flow, user.id).await.map_err(AuthError::from) {
                Ok(code) => redirect_with(&target, true, &[("code", &code)]),
                Err(error) => error_redirect(&target, &error),
            }
        }
        Ok(Verified::SignIn { user, method, flow: None }) => {
            match session::start(&state.auth, &state.db, &user, method, &client.0).await {
                Ok(tokens) => session_redirect(&target, &tokens, Some(&query.kind)),
                Err(error) => error_redirect(&target, &error),
            }
        }
        Err(error) => error_redirect(&target, &error),
    }
}

#[derive(Debug, Deserialize)]
pub struct VerifyBody {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    token: String,
    #[serde(default)]
    token_hash: String,
    #[serde(default)]
    email: String,
    #[serde(default)]
    phone: String,
    redirect_to: Option<String>,
}

/// `POST /verify`: a code typed in (`email` + `token`) or a link's token (`token_hash`). Answers
/// a session.
pub async fn verify(
    State(state): State<AppState>,
    client: Client,
    AuthJson(body): AuthJson<VerifyBody>,
) -> AuthResult<Response> {
    rate_limit::per_client(&state.db, "verify", &client, state.auth.config.rate_limit).await?;
    if !body.phone.is_empty() {
        return Err(AuthError::bad_request("phone_provider_disabled", "Phone logins are disabled"));
    }
    let kinds = kinds_for(&body.kind)?;
    let _ = body.redirect_to;
    let verified = if body.token_hash.is_empty() {
        if body.token.is_empty() || body.email.is_empty() {
            return Err(AuthError::validation(
                "Verify requires either a token and an email, or a token hash",
            ));
        }
        let email = account::parse_email(&body.email)?;
        // Counted per address as well as per client: guesses spread over many clients still
        // meet one limit.
        rate_limit::per_account(&state.db, "verify", &email, state.auth.config.rate_limit).await?;
        consume(&state, kinds, Token::Code { email: &email, code: body.token.trim() }).await?
    } else {
        consume(&state, kinds, Token::Link(&body.token_hash)).await?
    };
    match verified {
        Verified::HalfOfEmailChange => Ok(Json(json!({
            "msg": "Confirmation link accepted. Please proceed to confirm link sent to the other email",
            "code": 200,
        }))
        .into_response()),
        Verified::SignIn { user, method, flow } => {
            if let Some(flow) = flow {
                // A typed code ends the PKCE flow as well; its state is no longer needed.
                flow_states::delete(&state.db, flow.id).await?;
            }
            Ok(Json(session::start(&state.auth, &state.db, &user, method, &client.0).await?).into_response())
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct RecoverBody {
    #[serde(default)]
    email: String,
    #[serde(flatten)]
    pkce: PkceFields,
}

#[derive(Debug, Deserialize)]
pub struct RedirectQuery {
    redirect_to: Option<String>,
}

/// `POST /recover`: a password-reset link, if the address has an account. Answers `{}` either way.
pub async fn recover(
    State(state): State<AppState>,
    client: Client,
    Query(query): Query<RedirectQuery>,
    AuthJson(body): AuthJson<RecoverBody>,
) -> AuthResult<Json<Value>> {
    let auth = &state.auth;
    rate_limit::per_client(&state.db, "recover", &client, auth.config.rate_limit).await?;
    let email = account::parse_mail_address(&body.email)?;
    let pkce = body.pkce.parse()?;
    let redirect = redirect_target(auth, query.redirect_to.as_deref());
    let Some(user) = users::by_email(&state.db, &email).await? else {
        email_clock(auth, &state.db, TokenKind::Recovery, &email).await?;
        return Ok(Json(json!({})));
    };
    let flow = flow_for_link(&state.db, pkce, user.id, "recovery", "recovery", &redirect).await?;
    let mail = TokenMail::new(TokenKind::Recovery, &email, &redirect, flow);
    send_token_mail(auth, &state.db, &user, mail).await?;
    users::record_recovery_sent(&state.db, user, OffsetDateTime::now_utc()).await?;
    Ok(Json(json!({})))
}

#[derive(Debug, Deserialize)]
pub struct OtpBody {
    #[serde(default)]
    email: String,
    #[serde(default)]
    phone: String,
    data: Option<Value>,
    create_user: Option<bool>,
    #[serde(flatten)]
    pkce: PkceFields,
}

/// `POST /otp` (and the older `/magiclink`): a magic link and code. A new address gets an
/// account (unless `create_user` is false) and a confirmation e-mail instead.
pub async fn otp(
    State(state): State<AppState>,
    client: Client,
    Query(query): Query<RedirectQuery>,
    AuthJson(body): AuthJson<OtpBody>,
) -> AuthResult<Json<Value>> {
    let auth = &state.auth;
    rate_limit::per_client(&state.db, "otp", &client, auth.config.rate_limit).await?;
    if !body.phone.is_empty() {
        return Err(AuthError::bad_request("phone_provider_disabled", "Phone logins are disabled"));
    }
    let email = account::parse_mail_address(&body.email)?;
    let metadata = account::parse_metadata(body.data)?;
    let pkce = body.pkce.parse()?;
    let redirect = redirect_target(auth, query.redirect_to.as_deref());
    // One clock for every answer, whether the address has an account, gets one now, or gets
    // nothing: a second request within the interval is refused the same way for all of them.
    email_clock(auth, &state.db, TokenKind::MagicLink, &email).await?;
    let (user, kind) = match users::by_email(&state.db, &email).await? {
        Some(user) => (user, TokenKind::MagicLink),
        None if body.create_user.unwrap_or(true) => {
            let new = NewUser {
                email: &email,
                password_hash: None,
                metadata,
                provider: "email",
                provider_id: None,
                confirmed: false,
            };
            (users::create(&state.db, new, None).await?.0, TokenKind::Confirmation)
        }
        // Supabase Auth answers `otp_disabled` here, which tells who is registered; we answer
        // as if a link went out.
        None => return Ok(Json(json!({}))),
    };
    let authentication_method = if kind == TokenKind::Confirmation { "email/signup" } else { "magiclink" };
    let flow = flow_for_link(&state.db, pkce, user.id, "email", authentication_method, &redirect).await?;
    let mail = TokenMail::new(kind, &email, &redirect, flow);
    issue_token_mail(auth, &state.db, &user, &mail).await?;
    Ok(Json(json!({})))
}

#[derive(Debug, Deserialize)]
pub struct ResendBody {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    email: String,
    #[serde(flatten)]
    pkce: PkceFields,
}

/// `POST /resend`: the sign-up confirmation or the e-mail change links again.
pub async fn resend(
    State(state): State<AppState>,
    client: Client,
    Query(query): Query<RedirectQuery>,
    AuthJson(body): AuthJson<ResendBody>,
) -> AuthResult<Json<Value>> {
    let auth = &state.auth;
    rate_limit::per_client(&state.db, "otp", &client, auth.config.rate_limit).await?;
    let email = account::parse_mail_address(&body.email)?;
    // A PKCE client resends with a new challenge: the new link then ends in an auth code too.
    let pkce = body.pkce.parse()?;
    let redirect = redirect_target(auth, query.redirect_to.as_deref());
    let user = users::by_email(&state.db, &email).await?;
    match (body.kind.as_str(), user) {
        ("signup", Some(user)) if user.email_confirmed_at.is_none() => {
            email_clock(auth, &state.db, TokenKind::Confirmation, &email).await?;
            let flow = flow_for_link(&state.db, pkce, user.id, "email", "email/signup", &redirect).await?;
            // The new link replaces the pending ones, and carries a password only when it can
            // tell whose sign-up it stands for (see `reissue_confirmation`).
            let mail = TokenMail::new(TokenKind::Confirmation, &email, &redirect, flow);
            let issued = Issued::generate();
            one_time_tokens::reissue_confirmation(&state.db, mail.token(user.id, &issued, &auth.vault))
                .await?;
            mail_token(auth, &state.db, &user, &mail, &issued).await?;
        }
        ("email_change", Some(user)) if user.email_change.is_some() => {
            let new_email = user.email_change.clone().unwrap_or_default();
            if users::by_email(&state.db, &new_email).await?.is_some() {
                // The address belongs to someone else (see `PUT /user`): its owner hears of
                // it again, and gets no link.
                email_clock(auth, &state.db, TokenKind::EmailChangeNew, &new_email).await?;
                super::account::tell_owner_address_taken(auth, &state.db, &new_email).await?;
                return Ok(Json(json!({ "message_id": null })));
            }
            let flow = flow_for_link(&state.db, pkce, user.id, "email", "email_change", &redirect).await?;
            let mail = TokenMail::new(TokenKind::EmailChangeNew, &new_email, &redirect, flow);
            send_token_mail(auth, &state.db, &user, mail).await?;
        }
        ("signup" | "email_change", _) => {
            let kind =
                if body.kind == "signup" { TokenKind::Confirmation } else { TokenKind::EmailChangeNew };
            email_clock(auth, &state.db, kind, &email).await?;
        }
        ("sms" | "phone_change", _) => {
            return Err(AuthError::bad_request("phone_provider_disabled", "Phone logins are disabled"));
        }
        _ => {
            return Err(AuthError::validation(
                "Missing one of these types: signup, email_change, sms, phone_change",
            ));
        }
    }
    Ok(Json(json!({ "message_id": null })))
}
