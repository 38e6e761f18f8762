//! Sign-up, sign-in (`/token` grants), sign-out and the signed-in user (`/user`).

use axum::{
    Json,
    extract::{Query, State},
    http::StatusCode,
    response::{IntoResponse, Response},
};
use serde::Deserialize;
use serde_json::{Value, json};
use time::OffsetDateTime;

use super::{
    FLOW_STATE_EXPIRY, Issued, PkceFields, TokenMail, email_clock, flow_for_link, mail_token, new_flow,
    redirect_target, send_token_mail,
};
use crate::{
    auth::{
        error::{AuthError, AuthResult},
        extract::{AuthJson, Client, CurrentSession},
        password, rate_limit, secret,
        session::{self, Method},
        user::{self as account, user_json},
    },
    mail::templates::{self, MailKind},
    repo::auth::{
        flow_states,
        one_time_tokens::{self, TokenKind},
        sessions::Ending,
        users::{self, NewUser},
    },
    state::AppState,
};

#[derive(Debug, Deserialize)]
pub struct RedirectQuery {
    redirect_to: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct SignupBody {
    #[serde(default)]
    email: String,
    #[serde(default)]
    phone: String,
    #[serde(default)]
    password: String,
    data: Option<Value>,
    #[serde(flatten)]
    pkce: PkceFields,
}

/// `POST /signup`. With auto-confirm the answer is a session; otherwise the (unconfirmed)
/// user, and a confirmation e-mail. Signing up again with a registered address answers a user
/// object of the same shape (and sends no e-mail to the owner of the address, who did not ask),
/// so the answer never tells whether an address has an account.
pub async fn signup(
    State(state): State<AppState>,
    client: Client,
    Query(query): Query<RedirectQuery>,
    AuthJson(body): AuthJson<SignupBody>,
) -> AuthResult<Response> {
    let auth = &state.auth;
    rate_limit::per_client(&state.db, "signup", &client, auth.config.rate_limit).await?;
    if !body.phone.is_empty() {
        return Err(AuthError::bad_request("phone_provider_disabled", "Phone signups are disabled"));
    }
    if body.password.is_empty() {
        return Err(AuthError::validation("Signup requires a valid password"));
    }
    let email = account::parse_mail_address(&body.email)?;
    check_new_password(auth, &body.password)?;
    let metadata = account::parse_metadata(body.data)?;
    let pkce = body.pkce.parse()?;
    let redirect = redirect_target(auth, query.redirect_to.as_deref());
    // Hashed before the lookup, so that a registered address takes as long as a new one.
    let hash = auth.hashing.hash(body.password.clone()).await?;

    if let Some(existing) = users::by_email(&state.db, &email).await? {
        if auth.config.autoconfirm {
            return Err(AuthError::unprocessable("user_already_exists", "User already registered"));
        }
        if existing.email_confirmed_at.is_none() {
            // Not yet confirmed: the same person trying again, or someone else who typed (or is
            // squatting) the address. This sign-up gets a link of its own that carries its own
            // password; earlier sign-ups keep theirs. Whichever link is opened proves the
            // address, and only that sign-up's password then works.
            let flow =
                flow_for_link(&state.db, pkce, existing.id, "email", "email/signup", &redirect).await?;
            let mail = TokenMail {
                password_hash: Some(hash.clone()),
                ..TokenMail::new(TokenKind::Confirmation, &email, &redirect, flow)
            };
            send_token_mail(auth, &state.db, &existing, mail).await?;
            // Until a link is opened, the newest sign-up's password is the one that hears
            // "Email not confirmed" at sign-in; an unconfirmed account cannot sign in anyway.
            users::record_repeated_signup(&state.db, existing, hash, OffsetDateTime::now_utc()).await?;
        } else {
            // No e-mail for the owner, who did not ask; but the same clock as for a new address,
            // so a second sign-up within the interval is refused alike.
            email_clock(auth, &state.db, TokenKind::Confirmation, &email).await?;
        }
        return Ok(Json(obfuscated_user(&email, &metadata)).into_response());
    }

    let new = NewUser {
        email: &email,
        password_hash: Some(hash.clone()),
        metadata,
        provider: "email",
        provider_id: None,
        confirmed: auth.config.autoconfirm,
    };
    let flow = pkce
        .filter(|_| !auth.config.autoconfirm)
        .map(|pkce| new_flow(pkce, None, "email", "email/signup", Some(redirect.to_string())));
    let (created, flow) = users::create(&state.db, new, flow).await?;
    let flow = flow.map(|flow| flow.id);

    if auth.config.autoconfirm {
        let tokens = session::start(auth, &state.db, &created, Method::Password, &client.0).await?;
        return Ok(Json(tokens).into_response());
    }
    let mail = TokenMail {
        password_hash: Some(hash),
        ..TokenMail::new(TokenKind::Confirmation, &email, &redirect, flow)
    };
    send_token_mail(auth, &state.db, &created, mail).await?;
    let created = users::record_confirmation_sent(&state.db, created, OffsetDateTime::now_utc()).await?;
    Ok(Json(user_json(&state.db, &created).await?).into_response())
}

/// What a repeated sign-up answers: a fresh id, no identities, as for a new unconfirmed account.
fn obfuscated_user(email: &str, metadata: &serde_json::Map<String, Value>) -> Value {
    let now = account::rfc3339(OffsetDateTime::now_utc());
    json!({
        "id": uuid::Uuid::new_v4(),
        "aud": "authenticated",
        "role": "",
        "email": email,
        "phone": "",
        "confirmation_sent_at": now,
        "app_metadata": { "provider": "email", "providers": ["email"] },
        "user_metadata": metadata,
        "identities": [],
        "created_at": now,
        "updated_at": now,
        "is_anonymous": false,
    })
}

#[derive(Debug, Deserialize)]
pub struct GrantQuery {
    grant_type: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct TokenBody {
    #[serde(default)]
    email: String,
    #[serde(default)]
    phone: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    refresh_token: String,
    #[serde(default)]
    auth_code: String,
    #[serde(default)]
    code_verifier: String,
}

/// `POST /token?grant_type=password|refresh_token|pkce`.
pub async fn token(
    State(state): State<AppState>,
    client: Client,
    Query(query): Query<GrantQuery>,
    AuthJson(body): AuthJson<TokenBody>,
) -> AuthResult<Response> {
    let auth = &state.auth;
    let limit = auth.config.rate_limit;
    let tokens = match query.grant_type.as_deref().unwrap_or_default() {
        "password" => {
            rate_limit::per_client(&state.db, "token", &client, limit).await?;
            password_grant(&state, &client, body).await?
        }
        "refresh_token" => {
            rate_limit::per_client(&state.db, "refresh", &client, limit.saturating_mul(5)).await?;
            if body.refresh_token.is_empty() {
                return Err(AuthError::validation("refresh_token required"));
            }
            session::refresh(auth, &state.db, &body.refresh_token).await?
        }
        "pkce" => {
            rate_limit::per_client(&state.db, "token", &client, limit).await?;
            pkce_grant(&state, &client, body).await?
        }
        "id_token" => {
            return Err(AuthError::bad_request(
                "provider_disabled",
                "Sign-in with an ID token is not supported here; use e-mail and password, a magic link or a configured OAuth provider",
            ));
        }
        "web3" => {
            return Err(AuthError::bad_request(
                "web3_provider_disabled",
                "Web3 sign-in is not supported here",
            ));
        }
        _ => return Err(AuthError::bad_request("invalid_credentials", "unsupported_grant_type")),
    };
    Ok(Json(tokens).into_response())
}

async fn password_grant(
    state: &AppState,
    client: &Client,
    body: TokenBody,
) -> AuthResult<session::TokenResponse> {
    if !body.phone.is_empty() {
        return Err(AuthError::bad_request("phone_provider_disabled", "Phone logins are disabled"));
    }
    if body.email.is_empty() || body.password.is_empty() {
        return Err(AuthError::validation("An email address and a password are required"));
    }
    let email = account::parse_email(&body.email).map_err(|_| AuthError::invalid_credentials())?;
    // Per account as well as per client network: guesses spread over many networks meet one
    // limit. Counted for every address, registered or not, so the limit tells nothing; the cost
    // is that someone can keep an owner from password sign-in for a few minutes (the magic link
    // still works), which beats unbounded guessing.
    rate_limit::per_account(&state.db, "token", &email, state.auth.config.rate_limit).await?;
    let found = users::by_email(&state.db, &email).await?;
    // An unknown address (or an account without a password) takes as long as a wrong password.
    let hash = found.as_ref().and_then(|user| user.encrypted_password.clone());
    let matches = state.auth.hashing.verify(body.password, hash).await?;
    let Some(user) = found.filter(|_| matches) else {
        return Err(AuthError::invalid_credentials());
    };
    // Only after the password matched, so this answer reveals nothing to a stranger.
    if user.email_confirmed_at.is_none() {
        return Err(AuthError::bad_request("email_not_confirmed", "Email not confirmed"));
    }
    session::start(&state.auth, &state.db, &user, Method::Password, &client.0).await
}

async fn pkce_grant(
    state: &AppState,
    client: &Client,
    body: TokenBody,
) -> AuthResult<session::TokenResponse> {
    if body.auth_code.is_empty() || body.code_verifier.is_empty() {
        return Err(AuthError::validation(
            "invalid request: both auth code and code verifier should be non-empty",
        ));
    }
    // Single use: whatever happens next, this code is spent.
    let flow = flow_states::take_by_auth_code(&state.db, &body.auth_code).await?.ok_or_else(|| {
        AuthError::not_found("flow_state_not_found", "invalid flow state, no valid flow state found")
    })?;
    let issued = flow.auth_code_issued_at.unwrap_or(flow.created_at);
    if OffsetDateTime::now_utc() - issued > FLOW_STATE_EXPIRY {
        return Err(AuthError::not_found("flow_state_expired", "invalid flow state, flow state has expired"));
    }
    if !secret::pkce_matches(&flow.code_challenge_method, &flow.code_challenge, &body.code_verifier) {
        return Err(AuthError::forbidden(
            "bad_code_verifier",
            "code challenge does not match previously saved code verifier",
        ));
    }
    let user = match flow.user_id {
        Some(id) => users::by_id(&state.db, id).await?,
        None => None,
    }
    .ok_or_else(|| AuthError::not_found("user_not_found", "User not found"))?;
    let method = match flow.authentication_method.as_str() {
        "recovery" => Method::Recovery,
        "magiclink" => Method::MagicLink,
        "email_change" => Method::EmailChange,
        "email/signup" => Method::EmailSignup,
        _ => Method::OAuth,
    };
    session::start(&state.auth, &state.db, &user, method, &client.0).await
}

#[derive(Debug, Deserialize)]
pub struct LogoutQuery {
    scope: Option<String>,
}

/// `POST /logout?scope=global|local|others` (global by default, as in Supabase Auth).
pub async fn logout(
    State(state): State<AppState>,
    current: CurrentSession,
    Query(query): Query<LogoutQuery>,
) -> AuthResult<StatusCode> {
    let scope = query.scope.as_deref().unwrap_or("global");
    session::end(&state.db, current.user.id, current.session.id, scope).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /user`.
pub async fn get_user(State(state): State<AppState>, current: CurrentSession) -> AuthResult<Json<Value>> {
    Ok(Json(user_json(&state.db, &current.user).await?))
}

#[derive(Debug, Deserialize)]
pub struct UpdateUserBody {
    email: Option<String>,
    password: Option<String>,
    data: Option<Value>,
    phone: Option<String>,
    /// The account's password, which changing the password or the address needs (as in
    /// Supabase Auth's secure password change; auth-js's `updateUser` sends it).
    current_password: Option<String>,
    #[serde(flatten)]
    pkce: PkceFields,
}

/// `PUT /user`: metadata (merged), password, or e-mail (confirmed by links to both the current
/// and the new address before it changes). Changing the password or the address needs an
/// `aal2` session once the account has a verified factor, and the current password (see
/// [`check_reauthenticated`]): a browser left signed in is not enough to take the account.
pub async fn update_user(
    State(state): State<AppState>,
    client: Client,
    current: CurrentSession,
    Query(query): Query<RedirectQuery>,
    AuthJson(body): AuthJson<UpdateUserBody>,
) -> AuthResult<Json<Value>> {
    let auth = &state.auth;
    if body.phone.as_deref().is_some_and(|phone| !phone.is_empty()) {
        return Err(AuthError::bad_request("phone_provider_disabled", "Phone logins are disabled"));
    }
    let changes_credentials = body.password.is_some() || body.email.is_some();
    if changes_credentials && !current.is_aal2() && current.has_verified_factor {
        return Err(AuthError::new(
            StatusCode::UNAUTHORIZED,
            "insufficient_aal",
            "AAL2 session is required to update email or password when MFA is enabled.",
        ));
    }
    let now = OffsetDateTime::now_utc();
    if changes_credentials {
        check_reauthenticated(&state, &client, &current, body.current_password, now).await?;
    }
    let mut user = current.user.clone();

    if let Some(data) = body.data {
        let patch = account::parse_metadata(Some(data))?;
        let mut merged = user.raw_user_meta_data.as_object().cloned().unwrap_or_default();
        for (key, value) in patch {
            // As in Supabase Auth: a null value removes the key.
            if value.is_null() {
                merged.remove(&key);
            } else {
                merged.insert(key, value);
            }
        }
        account::parse_metadata(Some(Value::Object(merged.clone())))?;
        user = users::set_metadata(&state.db, user, merged, now).await?;
    }

    if let Some(new_password) = body.password {
        check_new_password(auth, &new_password)?;
        // Each change hashes twice with Argon2; a stolen session must not turn that into a
        // way to burn the server's CPU.
        rate_limit::per_account(&state.db, "password", &user.id.to_string(), PASSWORD_CHANGES_PER_WINDOW)
            .await?;
        if user.encrypted_password.is_some()
            && auth.hashing.verify(new_password.clone(), user.encrypted_password.clone()).await?
        {
            return Err(AuthError::unprocessable(
                "same_password",
                "New password should be different from the old password.",
            ));
        }
        let hash = auth.hashing.hash(new_password).await?;
        // Other devices signed in with the old password are signed out.
        user = users::change_password(&state.db, user, hash, Ending::AllBut(current.session.id), now).await?;
    }

    if let Some(raw) = body.email {
        let new_email = account::parse_mail_address(&raw)?;
        if new_email != user.email {
            // A taken address is answered as a free one (else this would tell who has an
            // account); its owner hears of the attempt instead of getting a link.
            let taken = users::by_email(&state.db, &new_email).await?.is_some();
            let redirect = redirect_target(auth, query.redirect_to.as_deref());
            let pkce = body.pkce.parse()?;
            // Both e-mails' clocks before anything is written: a refused request changes nothing.
            email_clock(auth, &state.db, TokenKind::EmailChangeNew, &new_email).await?;
            email_clock(auth, &state.db, TokenKind::EmailChangeCurrent, &user.email).await?;
            // The address asked for, and the tokens of both halves, change together: a link
            // mailed for an earlier request can never complete a change to this address.
            let flow = pkce.map(|pkce| {
                new_flow(pkce, Some(user.id), "email", "email_change", Some(redirect.to_string()))
            });
            let current_email = user.email.clone();
            let to_new = TokenMail::new(TokenKind::EmailChangeNew, &new_email, &redirect, None);
            let to_current = TokenMail::new(TokenKind::EmailChangeCurrent, &current_email, &redirect, None);
            // For a taken address the new half is stored but never mailed: the current address's
            // link then says "confirm the link sent to the other e-mail", as it does for a free
            // address whose owner has not confirmed yet, and the change never completes.
            let (new_half, current_half) = (Issued::generate(), Issued::generate());
            let halves = [
                to_new.token(user.id, &new_half, &auth.vault),
                to_current.token(user.id, &current_half, &auth.vault),
            ];
            user =
                one_time_tokens::request_email_change(&state.db, user, &new_email, flow, halves, now).await?;
            if taken {
                tell_owner_address_taken(auth, &state.db, &new_email).await?;
            } else {
                mail_token(auth, &state.db, &user, &to_new, &new_half).await?;
            }
            mail_token(auth, &state.db, &user, &to_current, &current_half).await?;
        }
    }
    Ok(Json(user_json(&state.db, &user).await?))
}

/// How long after signing in by an e-mailed link (or a provider) a session may change the
/// password or the address without the current password.
const FRESH_SIGN_IN: time::Duration = time::Duration::minutes(10);

/// Whether this request may change the password or the address. An account with a password
/// needs that password (checked and counted as a password sign-in is), except in a session
/// started by a password-recovery link in the last [`FRESH_SIGN_IN`], which is how a forgotten
/// password is replaced. An account without a password needs a session that signed in within
/// [`FRESH_SIGN_IN`].
async fn check_reauthenticated(
    state: &AppState,
    client: &Client,
    current: &CurrentSession,
    current_password: Option<String>,
    now: OffsetDateTime,
) -> AuthResult<()> {
    let fresh = now - current.session.created_at < FRESH_SIGN_IN;
    let Some(hash) = current.user.encrypted_password.clone() else {
        if fresh {
            return Ok(());
        }
        return Err(AuthError::bad_request(
            "reauthentication_needed",
            "Sign in again (by the e-mailed link) to change your password or e-mail address.",
        ));
    };
    let recovering = current.claims.amr.iter().any(|entry| entry.method == Method::Recovery.as_str());
    let Some(password) = current_password.filter(|password| !password.is_empty()) else {
        if fresh && recovering {
            return Ok(());
        }
        return Err(AuthError::bad_request(
            "current_password_required",
            "Enter your current password to change your password or e-mail address.",
        ));
    };
    let limit = state.auth.config.rate_limit;
    rate_limit::per_client(&state.db, "token", client, limit).await?;
    rate_limit::per_account(&state.db, "token", &current.user.email, limit).await?;
    if !state.auth.hashing.verify(password, Some(hash)).await? {
        return Err(AuthError::bad_request("current_password_mismatch", "Your current password is wrong."));
    }
    Ok(())
}

/// Password changes one account may make in 5 minutes.
const PASSWORD_CHANGES_PER_WINDOW: u32 = 10;

/// Tells the owner of `address` that someone asked to move their own account to it (the
/// caller has checked the address's e-mail clock, as for the link a free address would get).
pub async fn tell_owner_address_taken(
    auth: &crate::auth::AuthService,
    db: &crate::db::Database,
    address: &str,
) -> AuthResult<()> {
    let context = templates::MailContext {
        site_url: &auth.config.site_url,
        action_link: &auth.config.site_url,
        code: None,
        email: address,
        new_email: None,
        valid_for: std::time::Duration::ZERO,
        invite: None,
    };
    auth.mailer.send(db, address, templates::render(MailKind::AddressTaken, &context)).await?;
    Ok(())
}

/// A new password: not absurdly long (a bound on the work of one request), then strong enough.
fn check_new_password(auth: &crate::auth::AuthService, password: &str) -> AuthResult<()> {
    password::check_max_length(password).map_err(|error| AuthError::validation(error.to_string()))?;
    Ok(auth.password_policy.check(password)?)
}
