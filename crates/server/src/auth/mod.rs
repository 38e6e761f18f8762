//! The auth service under `/auth/v1`: the Supabase Auth HTTP API, compatible enough that the
//! official browser client (`@supabase/auth-js` through `@supabase/ssr`) works against it
//! unmodified. Supabase Auth's source is the reference for paths, shapes, codes and messages;
//! where Bobbin differs (hashed refresh tokens, no phone sign-in, no SAML) the module that
//! differs says so.
//!
//! - [`routes`]: every route, one list; [`handlers`]: the endpoints, one module per area;
//! - [`session`]: sessions, access tokens, rotating refresh tokens; [`session_limits`]: how
//!   long sessions last;
//! - [`keys`]: the ES256 signing key and the JWKS;
//! - [`extract`]: who is calling (bearer token, client address) and request bodies;
//! - [`rate_limit`], [`password`], [`totp`], [`secret`], [`vault`]: the security rules.
//!
//! The service reads and writes the database only through [`crate::repo::auth`].

pub mod error;
pub mod extract;
mod handlers;
pub mod keys;
pub mod oauth;
pub mod password;
pub mod rate_limit;
pub mod routes;
pub mod secret;
pub mod session;
pub mod session_limits;
pub mod totp;
pub mod user;
pub mod vault;

use std::sync::Arc;

use crate::db::Database;
use crate::{auth::keys::SigningKeys, config::AuthArgs, mail::Mailer};

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
    pub session_limits: session_limits::SessionLimits,
    /// Encrypts TOTP secrets where they are stored (and the signing key, at start).
    pub vault: vault::Vault,
}

impl AuthService {
    pub async fn new(db: &Database, config: AuthArgs) -> anyhow::Result<Arc<Self>> {
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
            session_limits: session_limits::SessionLimits::new(
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
