//! The auth service under `/auth/v1`: the Supabase Auth HTTP API, compatible enough that the
//! official browser client (`@supabase/auth-js` through `@supabase/ssr`) works against it
//! unmodified. Supabase Auth's source is the reference for paths, shapes, codes and messages;
//! where Bobbin differs (hashed refresh tokens, no phone sign-in, no SAML) the module that
//! differs says so.
//!
//! - [`handlers`]: the endpoints, one module per area;
//! - [`session`]: sessions, access tokens, rotating refresh tokens;
//! - [`keys`]: the ES256 signing key and the JWKS;
//! - [`extract`]: who is calling (bearer token, client address) and request bodies;
//! - [`rate_limit`], [`password`], [`totp`], [`secret`]: the security rules.

pub mod error;
pub mod extract;
mod handlers;
pub mod keys;
pub mod oauth;
pub mod password;
pub mod rate_limit;
pub mod secret;
pub mod session;
pub mod totp;
pub mod user;
pub mod vault;

use std::sync::Arc;

use axum::{
    Router,
    http::{HeaderName, Method},
    routing::{delete, get, post},
};
use sea_orm::DatabaseConnection;
use tower_http::{cors::CorsLayer, set_header::SetResponseHeaderLayer};

use crate::{auth::keys::SigningKeys, config::AuthArgs, mail::Mailer, state::AppState};

/// Everything the auth endpoints share, built once at start-up.
#[derive(Debug)]
pub struct AuthService {
    pub config: AuthArgs,
    pub keys: SigningKeys,
    pub mailer: Mailer,
    pub password_policy: password::PasswordPolicy,
    /// Argon2's turns: at most `--password-hash-concurrency` at once.
    pub hashing: password::Hashing,
    pub providers: oauth::Providers,
    pub session_limits: session::SessionLimits,
    /// Encrypts TOTP secrets where they are stored (and the signing key, at start).
    pub vault: vault::Vault,
}

impl AuthService {
    pub async fn new(db: &DatabaseConnection, config: AuthArgs) -> anyhow::Result<Arc<Self>> {
        let issuer = config.site_url.join("auth/v1")?.to_string();
        let vault = vault::Vault::from_config(&config)?;
        vault::seal_stored_secrets(db, &vault).await?;
        let keys = SigningKeys::load_or_create(db, issuer, &vault).await?;
        let mailer = Mailer::new(&config)?;
        let providers = oauth::Providers::new(&config.oauth)?;
        let hashing = password::Hashing::new(config.password_hash_concurrency.map_or_else(
            || std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
            usize::from,
        ));
        Ok(Arc::new(Self {
            session_limits: session::SessionLimits::new(
                config.session_lifetime,
                config.session_inactivity_timeout,
            ),
            config,
            keys,
            mailer,
            password_policy: password::PasswordPolicy::default(),
            hashing,
            providers,
            vault,
        }))
    }
}

/// The `/auth/v1` routes.
pub fn router() -> Router<AppState> {
    use handlers::{account, email, meta, mfa, oauth};

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
