//! The key that signs access tokens (ES256, with a `kid`), kept in the database so that every
//! server instance signs and verifies with the same key, and published at
//! `/auth/v1/.well-known/jwks.json` so that clients can verify tokens themselves (auth-js
//! `getClaims`).
//!
//! The key is created on first start, while the server holds the start-up lock
//! (`startup::one_server_at_a_time`): instances starting at once on a new PostgreSQL database
//! wait for the first one's key instead of each creating one that the others do not know. All
//! stored keys verify, and every instance signs with the oldest.
//!
//! Checking an ES256 signature takes a core longer than the rest of a product API request
//! does, and the browser sends the same token with every request for its hour. So each
//! instance remembers the tokens whose signature it has checked ([`VERIFIED_TOKENS`] of them):
//! the same bytes always verify the same way with the same keys, and the expiry, the only part
//! that changes with time, is checked on every use. Whether the session still exists is not
//! remembered here: `auth::extract` asks the database on every request.

use std::{sync::Arc, time::Duration};

use anyhow::Context as _;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use moka::sync::Cache;
use p256::{
    SecretKey,
    pkcs8::{EncodePrivateKey as _, LineEnding},
};
use rand::RngCore as _;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::db::Database;
use crate::{
    auth::vault::{Vault, signing_key_place},
    entity::{ids::UserId, session::Aal},
    repo::auth::signing_keys,
};

/// The algorithm of every key this server makes.
const ALGORITHM: &str = "ES256";

/// How many checked tokens an instance remembers: one each for that many people active in the
/// last [`VERIFIED_FOR`], at about 1.5 KB each (the token and its claims).
const VERIFIED_TOKENS: u64 = 4_096;
/// How long a checked token is remembered after its last use.
const VERIFIED_FOR: Duration = Duration::from_mins(10);

/// The audience of every access token, as in Supabase Auth.
pub const AUDIENCE: &str = "authenticated";

/// The claims of an access token: Supabase Auth's set.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Claims {
    pub iss: String,
    pub sub: UserId,
    pub aud: String,
    pub exp: i64,
    pub iat: i64,
    pub email: String,
    pub phone: String,
    pub role: String,
    pub aal: Aal,
    pub amr: Vec<AmrEntry>,
    pub session_id: Uuid,
    pub app_metadata: Value,
    pub user_metadata: Value,
    pub is_anonymous: bool,
}

/// One authentication method of a session and when it was used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AmrEntry {
    pub method: String,
    pub timestamp: i64,
}

#[derive(Debug)]
struct VerifyingKey {
    kid: String,
    key: DecodingKey,
    jwk: Value,
}

#[derive(Debug)]
pub struct SigningKeys {
    kid: String,
    signing: EncodingKey,
    verifying: Vec<VerifyingKey>,
    issuer: String,
    /// Tokens whose signature, audience and issuer were checked, with their claims.
    verified: Cache<String, Arc<Claims>>,
}

impl SigningKeys {
    /// Loads the stored keys, creating the first one if there is none.
    pub async fn load_or_create(db: &Database, issuer: String, vault: &Vault) -> anyhow::Result<Self> {
        let mut stored = signing_keys::all(db).await?;
        if stored.is_empty() {
            let (kid, sealed) = new_key(vault)?;
            signing_keys::create(db, kid, ALGORITHM, sealed).await.context("storing the new signing key")?;
            stored = signing_keys::all(db).await?;
        }
        let mut verifying = Vec::with_capacity(stored.len());
        let mut first_pem = None;
        for key in &stored {
            let pem = vault.open(&key.private_key, &signing_key_place(&key.id))?;
            let secret = SecretKey::from_sec1_pem(&pem)
                .or_else(|_| <SecretKey as p256::pkcs8::DecodePrivateKey>::from_pkcs8_pem(&pem))
                .context("reading a stored signing key")?;
            first_pem.get_or_insert(pem);
            let jwk: Value = serde_json::from_str(&secret.public_key().to_jwk_string())?;
            let x = jwk["x"].as_str().context("JWK x")?;
            let y = jwk["y"].as_str().context("JWK y")?;
            verifying.push(VerifyingKey {
                kid: key.id.clone(),
                key: DecodingKey::from_ec_components(x, y)?,
                jwk: json!({
                    "kty": "EC", "crv": "P-256", "x": x, "y": y,
                    "kid": key.id, "alg": ALGORITHM, "use": "sig", "key_ops": ["verify"],
                }),
            });
        }
        let first = &stored[0];
        let first_pem = first_pem.context("no signing key")?;
        Ok(Self {
            kid: first.id.clone(),
            signing: EncodingKey::from_ec_pem(first_pem.as_bytes())?,
            verifying,
            issuer,
            verified: Cache::builder().max_capacity(VERIFIED_TOKENS).time_to_idle(VERIFIED_FOR).build(),
        })
    }

    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    pub fn sign(&self, claims: &Claims) -> anyhow::Result<String> {
        self.sign_for(claims)
    }

    /// Checks the signature (with the key its `kid` names), the expiry, the audience and the
    /// issuer; a token checked before only for its expiry. Whether the session still exists is
    /// the caller's check.
    pub fn verify(&self, token: &str) -> Result<Arc<Claims>, jsonwebtoken::errors::Error> {
        if let Some(claims) = self.verified.get(token) {
            // `Validation::leeway` is 0: expired once `exp` has passed.
            if claims.exp < time::OffsetDateTime::now_utc().unix_timestamp() {
                self.verified.invalidate(token);
                return Err(jsonwebtoken::errors::ErrorKind::ExpiredSignature.into());
            }
            return Ok(claims);
        }
        let claims = Arc::new(self.verify_signature(token)?);
        self.verified.insert(token.to_owned(), Arc::clone(&claims));
        Ok(claims)
    }

    fn verify_signature(&self, token: &str) -> Result<Claims, jsonwebtoken::errors::Error> {
        self.decode(token, AUDIENCE, &["exp", "aud", "iss", "sub"])
    }

    /// The claims of a token signed with one of the keys (the one its `kid` names), for
    /// `audience` and this issuer, not expired, with the `required` claims.
    fn decode<T: serde::de::DeserializeOwned>(
        &self,
        token: &str,
        audience: &str,
        required: &[&str],
    ) -> Result<T, jsonwebtoken::errors::Error> {
        let header = jsonwebtoken::decode_header(token)?;
        let key = self
            .verifying
            .iter()
            .find(|key| header.kid.as_deref() == Some(key.kid.as_str()))
            .ok_or(jsonwebtoken::errors::ErrorKind::InvalidKeyFormat)?;
        let mut validation = Validation::new(Algorithm::ES256);
        validation.set_audience(&[audience]);
        validation.set_issuer(&[&self.issuer]);
        validation.leeway = 0;
        validation.set_required_spec_claims(required);
        Ok(jsonwebtoken::decode::<T>(token, &key.key, &validation)?.claims)
    }

    /// Signs claims with the current key: an access token's, or another token's (a storage
    /// signed URL's) for another audience than [`AUDIENCE`], which [`SigningKeys::verify`] refuses.
    pub fn sign_for<T: Serialize>(&self, claims: &T) -> anyhow::Result<String> {
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some(self.kid.clone());
        Ok(jsonwebtoken::encode(&header, claims, &self.signing)?)
    }

    /// Checks a token of [`SigningKeys::sign_for`]: its signature, expiry, issuer and that its
    /// audience is `audience` (so an access token is never one).
    pub fn verify_for<T: serde::de::DeserializeOwned>(
        &self,
        token: &str,
        audience: &str,
    ) -> Result<T, jsonwebtoken::errors::Error> {
        self.decode(token, audience, &["exp", "aud", "iss"])
    }

    /// The public keys, as a JSON Web Key Set.
    pub fn jwks(&self) -> Value {
        json!({ "keys": self.verifying.iter().map(|key| key.jwk.clone()).collect::<Vec<_>>() })
    }
}

/// A new key: its id and its private half, sealed for storage.
fn new_key(vault: &Vault) -> anyhow::Result<(String, String)> {
    let secret = loop {
        let mut bytes = [0_u8; 32];
        rand::rng().fill_bytes(&mut bytes);
        // Fails only for zero or a value above the curve order: about 2^-32 of draws.
        if let Ok(secret) = SecretKey::from_slice(&bytes) {
            break secret;
        }
    };
    let pem = secret.to_pkcs8_pem(LineEnding::LF).context("encoding the signing key")?;
    let kid = Uuid::new_v4().to_string();
    let sealed = vault.seal(&pem, &signing_key_place(&kid))?;
    Ok((kid, sealed))
}
