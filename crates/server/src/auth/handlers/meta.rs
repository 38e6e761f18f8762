//! What the service says about itself (`/settings`, `/health`, the JWKS), and the sign-in paths
//! Bobbin does not offer (SAML), answered with clear errors.

use axum::{
    Json,
    extract::State,
    http::{StatusCode, Uri},
};
use serde_json::{Value, json};

use crate::{auth::error::AuthError, state::AppState};

/// `GET /settings`: which sign-in methods are on.
pub async fn settings(State(state): State<AppState>) -> Json<Value> {
    Json(json!({
        "external": {
            "email": true,
            "phone": false,
            "anonymous_users": false,
            "github": state.auth.providers.enabled("github"),
            "google": state.auth.providers.enabled("google"),
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
    Json(
        json!({ "version": crate::VERSION, "name": "Bobbin Auth", "description": "Supabase-Auth-compatible auth service" }),
    )
}

/// `GET /.well-known/jwks.json`: the public keys that verify access tokens.
pub async fn jwks(
    State(state): State<AppState>,
) -> ([(axum::http::HeaderName, &'static str); 1], Json<Value>) {
    // The client caches key sets for 10 minutes; let shared caches do the same.
    ([(axum::http::header::CACHE_CONTROL, "public, max-age=600")], Json(state.auth.keys.jwks()))
}

/// `POST /sso`: SAML single sign-on is not configured on this server (Supabase Auth's answer
/// when SAML is off).
pub async fn sso() -> AuthError {
    AuthError::new(StatusCode::NOT_FOUND, "saml_provider_disabled", "SAML 2.0 is disabled")
}

pub async fn not_found(uri: Uri) -> AuthError {
    AuthError::new(StatusCode::NOT_FOUND, "not_found", format!("There is no auth endpoint at {}", uri.path()))
}
