//! Sign-in through an OAuth provider: `GET /authorize` sends the person to the provider, and
//! `GET /callback` takes them back, finds or creates their account, and hands the client an auth
//! code (PKCE) or a session in the fragment (implicit flow), as after an e-mailed link.
//!
//! The OAuth `state` is the id of the flow state row (a random UUID), so a callback can only
//! finish a flow this server started, once, within [`PROVIDER_ROUND_TRIP`].

use axum::{
    extract::{Query, State},
    http::{StatusCode, header},
    response::{IntoResponse as _, Response},
};
use serde::Deserialize;
use time::{Duration, OffsetDateTime};
use url::Url;
use uuid::Uuid;

use super::{PkceFields, error_redirect, new_flow, redirect_target, session_redirect};
use crate::{
    auth::{
        AuthService,
        error::{AuthError, AuthResult},
        extract::Client,
        oauth::ExternalUser,
        rate_limit,
        session::{self, Method},
        user as account,
    },
    entity::{flow_state, user},
    repo::auth::{flow_states, identities, users},
    state::AppState,
};

/// How long the person may take at the provider.
const PROVIDER_ROUND_TRIP: Duration = Duration::minutes(10);

#[derive(Debug, Deserialize)]
pub struct AuthorizeQuery {
    #[serde(default)]
    provider: String,
    redirect_to: Option<String>,
    #[serde(default)]
    scopes: String,
    #[serde(flatten)]
    pkce: PkceFields,
}

/// `GET /authorize?provider=...`: a redirect to the provider's sign-in page.
pub async fn authorize(
    State(state): State<AppState>,
    client: Client,
    Query(query): Query<AuthorizeQuery>,
) -> AuthResult<Response> {
    let auth = &state.auth;
    if query.provider.is_empty() {
        return Err(AuthError::validation("Unsupported provider: missing provider"));
    }
    if !auth.providers.enabled(&query.provider) {
        return Err(AuthError::bad_request(
            "validation_failed",
            format!("Unsupported provider: provider {} is not enabled", query.provider),
        ));
    }
    // Each call stores a flow state, so strangers may not call it without limit.
    rate_limit::per_client(&state.db, "authorize", &client, auth.config.rate_limit).await?;
    let pkce = query.pkce.parse()?;
    let target = redirect_target(auth, query.redirect_to.as_deref());
    // An implicit flow keeps an empty challenge: the callback then answers a session.
    let flow = new_flow(pkce.unwrap_or_default(), None, &query.provider, "oauth", Some(target.into()));
    let flow = flow_states::create(&state.db, flow).await?;
    let url = auth
        .providers
        .authorize_url(&query.provider, &callback_url(auth)?, flow.id.to_string(), &query.scopes)
        .await?;
    Ok((StatusCode::FOUND, [(header::LOCATION, url.to_string())]).into_response())
}

#[derive(Debug, Deserialize)]
pub struct CallbackQuery {
    state: Option<String>,
    code: Option<String>,
    error: Option<String>,
    error_description: Option<String>,
}

/// `GET /callback`: where the provider sends the person back. Every outcome is a redirect to
/// the flow's `redirect_to` (the site URL when the flow is unknown), errors in its query.
pub async fn callback(
    State(state): State<AppState>,
    client: Client,
    Query(query): Query<CallbackQuery>,
) -> Response {
    let auth = &state.auth;
    let flow = match find_flow(&state, query.state.as_deref()).await {
        Ok(flow) => flow,
        Err(error) => return error_redirect(&auth.config.site_url, &error),
    };
    let target = redirect_target(auth, flow.redirect_to.as_deref());
    let outcome = person(&state, &flow, &query).await;
    let user = match outcome {
        Ok(user) => user,
        Err(error) => {
            // A failed flow cannot be finished later.
            let _ = flow_states::delete(&state.db, flow.id).await;
            return error_redirect(&target, &error);
        }
    };
    if flow.code_challenge.is_empty() {
        let _ = flow_states::delete(&state.db, flow.id).await;
        match session::start(auth, &state.db, &user, Method::OAuth, &client.0).await {
            Ok(tokens) => session_redirect(&target, &tokens, None),
            Err(error) => error_redirect(&target, &error),
        }
    } else {
        match flow_states::issue_auth_code(&state.db, flow, user.id).await.map_err(AuthError::from) {
            Ok(code) => super::redirect_with(&target, true, &[("code", &code)]),
            Err(error) => error_redirect(&target, &error),
        }
    }
}

/// The account of whoever the provider says came back.
async fn person(
    state: &AppState,
    flow: &flow_state::Model,
    query: &CallbackQuery,
) -> AuthResult<user::Model> {
    if let Some(error) = query.error.as_deref() {
        let description = query.error_description.as_deref().unwrap_or(error);
        return Err(AuthError::bad_request(
            "bad_oauth_callback",
            format!("The provider refused the sign-in: {description}"),
        ));
    }
    let code = query.code.clone().filter(|code| !code.is_empty()).ok_or_else(|| {
        AuthError::bad_request("bad_oauth_callback", "OAuth callback with missing authorization code")
    })?;
    let external = state.auth.providers.user(&flow.provider_type, &callback_url(&state.auth)?, code).await?;
    account_for(state, &flow.provider_type, &external).await
}

fn callback_url(auth: &AuthService) -> AuthResult<Url> {
    auth.config.site_url.join("auth/v1/callback").map_err(AuthError::internal)
}

/// The OAuth flow `state` names: unused, not expired.
async fn find_flow(state: &AppState, flow_id: Option<&str>) -> AuthResult<flow_state::Model> {
    let invalid = || AuthError::bad_request("bad_oauth_state", "OAuth state is missing or invalid");
    let id = flow_id.and_then(|id| Uuid::parse_str(id).ok()).ok_or_else(invalid)?;
    let flow = flow_states::unfinished_oauth(&state.db, id).await?.ok_or_else(invalid)?;
    if flow.created_at + PROVIDER_ROUND_TRIP < OffsetDateTime::now_utc() {
        flow_states::delete(&state.db, flow.id).await?;
        return Err(AuthError::new(
            StatusCode::NOT_FOUND,
            "flow_state_expired",
            "OAuth sign-in took too long; please start again",
        ));
    }
    Ok(flow)
}

/// The account of the person the provider vouched for: the one already linked to this
/// provider identity, else the account with the same (provider-verified) address, which gets
/// the identity, else a new confirmed account.
async fn account_for(state: &AppState, provider: &str, external: &ExternalUser) -> AuthResult<user::Model> {
    let now = OffsetDateTime::now_utc();
    if let Some(known) = identities::at_provider(&state.db, provider, &external.id).await? {
        identities::record_sign_in(&state.db, known.id, external.data.clone(), now).await?;
        return users::by_id(&state.db, known.user_id)
            .await?
            .ok_or_else(|| AuthError::new(StatusCode::NOT_FOUND, "user_not_found", "User not found"));
    }
    if !external.email_verified {
        return Err(AuthError::unprocessable(
            "provider_email_needs_verification",
            format!("Verify your e-mail address with {provider} first, then sign in again"),
        ));
    }
    let email = account::parse_email(&external.email)?;
    Ok(users::link_or_create(&state.db, &email, provider, &external.id, &external.data, now).await?)
}
