//! What the service says about itself (`/settings`, `/health`, the JWKS), and the sign-in paths
//! Bobbin does not offer yet, answered with clear errors.

use axum::{
    Json,
    extract::{Query, State},
    http::{StatusCode, Uri},
};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::{
    auth::error::{AuthError, AuthResult},
    state::AppState,
};

/// `GET /settings`: which sign-in methods are on.
pub async fn settings(State(state): State<AppState>) -> Json<Value> {
    Json(json!({
        "external": {
            "email": true,
            "phone": false,
            "anonymous_users": false,
            "github": false,
            "google": false,
        },
        "disable_signup": false,
        "mailer_autoconfirm": state.auth.config.autoconfirm,
        "phone_autoconfirm": false,
        "sms_provider": "",
        "saml_enabled": false,
    }))
}

/// `GET /health`.
pub async fn health() -> Json<Value> {
    Json(json!({ "version": crate::VERSION, "name": "Bobbin Auth", "description": "Supabase-Auth-compatible auth service" }))
}

/// `GET /.well-known/jwks.json`: the public keys that verify access tokens.
pub async fn jwks(State(state): State<AppState>) -> ([(axum::http::HeaderName, &'static str); 1], Json<Value>) {
    // The client caches key sets for 10 minutes; let shared caches do the same.
    ([(axum::http::header::CACHE_CONTROL, "public, max-age=600")], Json(state.auth.keys.jwks()))
}

/// `POST /sso`: SAML single sign-on is not configured on this server.
pub async fn sso() -> AuthError {
    AuthError::bad_request("sso_provider_disabled", "Single sign-on (SAML) is not configured on this server")
}

#[derive(Debug, Deserialize)]
pub struct AuthorizeQuery {
    provider: Option<String>,
}

/// `GET /authorize?provider=...`: no OAuth provider is configured yet.
pub async fn authorize(Query(query): Query<AuthorizeQuery>) -> AuthResult<()> {
    let provider = query.provider.unwrap_or_default();
    if provider.is_empty() {
        return Err(AuthError::validation("Unsupported provider: missing provider"));
    }
    Err(AuthError::bad_request(
        "validation_failed",
        format!("Unsupported provider: provider {provider} is not enabled"),
    ))
}

/// `GET|POST /callback`: nothing to come back from while no provider is configured.
pub async fn callback() -> AuthError {
    AuthError::bad_request("bad_oauth_callback", "OAuth callback without a configured provider")
}

pub async fn not_found(uri: Uri) -> AuthError {
    AuthError::new(StatusCode::NOT_FOUND, "not_found", format!("There is no auth endpoint at {}", uri.path()))
}
