//! Every route of the auth service under `/auth/v1`, one list.

use axum::{
    Router,
    http::{HeaderName, Method},
    routing::{delete, get, post},
};
use tower_http::{cors::CorsLayer, set_header::SetResponseHeaderLayer};

use crate::{
    auth::{
        error,
        handlers::{account, email, meta, mfa, oauth},
    },
    state::AppState,
};

/// The `/auth/v1` routes.
pub fn router() -> Router<AppState> {
    // The official client sends these on every call; a page on another origin (the embeddable
    // widget's host, say) may call the service with a bearer token, never with cookies.
    let cors = CorsLayer::new()
        .allow_origin(tower_http::cors::Any)
        .allow_methods([Method::GET, Method::POST, Method::PUT, Method::DELETE])
        .allow_headers([
            HeaderName::from_static("apikey"),
            HeaderName::from_static("authorization"),
            HeaderName::from_static("content-type"),
            HeaderName::from_static("x-client-info"),
            error::API_VERSION_HEADER,
        ])
        .expose_headers([error::API_VERSION_HEADER, HeaderName::from_static("x-sb-error-code")]);

    Router::new()
        .route("/signup", post(account::signup))
        .route("/token", post(account::token))
        .route("/logout", post(account::logout))
        .route("/user", get(account::get_user).put(account::update_user))
        .route("/verify", get(email::verify_link).post(email::verify))
        .route("/recover", post(email::recover))
        .route("/resend", post(email::resend))
        .route("/otp", post(email::otp))
        .route("/magiclink", post(email::otp))
        .route("/factors", post(mfa::enroll))
        .route("/factors/{id}", delete(mfa::unenroll))
        .route("/factors/{id}/challenge", post(mfa::challenge))
        .route("/factors/{id}/verify", post(mfa::verify))
        .route("/settings", get(meta::settings))
        .route("/health", get(meta::health))
        .route("/.well-known/jwks.json", get(meta::jwks))
        .route("/sso", post(meta::sso))
        .route("/authorize", get(oauth::authorize))
        .route("/callback", get(oauth::callback))
        .fallback(meta::not_found)
        .layer(SetResponseHeaderLayer::overriding(error::API_VERSION_HEADER, error::API_VERSION))
        .layer(cors)
}
