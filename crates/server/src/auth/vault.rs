//! Encryption at rest of the secrets the server must read back, not merely recognise: each
//! TOTP factor's secret (codes are computed from it) and the key that signs access tokens.
//! Whoever reads a database backup could otherwise mint tokens for anyone and read everyone's
//! second factor.
//!
//! With a key configured (`--encryption-key` or `--encryption-key-file`), a value is stored as
//! `enc:v1:` and the base64 of a random 192-bit nonce followed by its XChaCha20-Poly1305
//! ciphertext. The associated data names the row the value belongs to (`mfa_factors.secret:`
//! and the factor's id, say), so a ciphertext copied into another row does not open. Without a
//! key, values are stored as they are, and the server says so at start.

use anyhow::{Context as _, bail};
use base64::{Engine as _, engine::general_purpose::STANDARD};
use chacha20poly1305::{
    KeyInit as _, XChaCha20Poly1305, XNonce,
    aead::{Aead as _, AeadCore as _, OsRng, Payload},
};

use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::db::Database;
use crate::{
    config::{AuthArgs, Secret},
    repo::auth::{factors, signing_keys},
};

const PREFIX: &str = "enc:v1:";
const NONCE_BYTES: usize = 24;

/// Seals and opens stored secrets with the configured key, if there is one, and keys the
/// stored form of e-mailed codes with it.
pub struct Vault {
    cipher: Option<XChaCha20Poly1305>,
    /// Derived from the key, for [`Vault::code_hash`] (one key, one purpose).
    code_key: Option<[u8; 32]>,
}

impl std::fmt::Debug for Vault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Vault").field("encrypts", &self.encrypts()).finish_non_exhaustive()
    }
}

impl Vault {
    /// The vault of the configuration's key: from `--encryption-key`, or read from
    /// `--encryption-key-file`; none when neither is set.
    pub fn from_config(config: &AuthArgs) -> anyhow::Result<Self> {
        let key = match (&config.encryption_key, &config.encryption_key_file) {
            (Some(key), _) => Some(key.clone()),
            (None, Some(path)) => Some(Secret::from(
                std::fs::read_to_string(path)
                    .with_context(|| format!("reading the encryption key file {}", path.display()))?,
            )),
            (None, None) => None,
        };
        key.as_ref().map_or(Ok(Self { cipher: None, code_key: None }), Self::with_key)
    }

    /// A vault with `key`: 32 bytes in base64 (standard alphabet, padding and surrounding white
    /// space allowed).
    pub fn with_key(key: &Secret) -> anyhow::Result<Self> {
        let bytes =
            STANDARD.decode(key.expose().trim()).ok().filter(|bytes| bytes.len() == 32).context(
                "the encryption key must be 32 random bytes in base64 (`openssl rand -base64 32`)",
            )?;
        let mut derive = <Hmac<Sha256> as Mac>::new_from_slice(&bytes).context("encryption key")?;
        derive.update(b"bobbin/code-hash/v1");
        Ok(Self {
            cipher: Some(XChaCha20Poly1305::new_from_slice(&bytes).context("encryption key")?),
            code_key: Some(derive.finalize().into_bytes().into()),
        })
    }

    /// The stored form of an e-mailed six-digit code sent to `address`. With a key it is an
    /// HMAC-SHA-256 under a key derived from it, so a copy of the database cannot recover a live
    /// code by trying all million; without one, a SHA-256 salted with the address (which keeps
    /// codes of different accounts apart, but can be reversed by trying them all).
    pub fn code_hash(&self, address: &str, code: &str) -> String {
        let Some(key) = &self.code_key else { return crate::auth::secret::code_hash(address, code) };
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key).expect("HMAC takes a key of any length");
        mac.update(format!("{address}:{code}").as_bytes());
        format!("{:x}", mac.finalize().into_bytes())
    }

    /// Whether values are encrypted when stored.
    pub fn encrypts(&self) -> bool {
        self.cipher.is_some()
    }

    /// Whether `stored` is an encrypted value.
    pub fn is_sealed(stored: &str) -> bool {
        stored.starts_with(PREFIX)
    }

    /// The form of `plain` to store for `place` (which row and column it belongs to).
    pub fn seal(&self, plain: &str, place: &str) -> anyhow::Result<String> {
        let Some(cipher) = &self.cipher else { return Ok(plain.to_owned()) };
        let nonce = XChaCha20Poly1305::generate_nonce(&mut OsRng);
        let sealed = cipher
            .encrypt(&nonce, Payload { msg: plain.as_bytes(), aad: place.as_bytes() })
            .map_err(|_| anyhow::anyhow!("encrypting a secret failed"))?;
        let mut bytes = nonce.to_vec();
        bytes.extend_from_slice(&sealed);
        Ok(format!("{PREFIX}{}", STANDARD.encode(bytes)))
    }

    /// The value `stored` for `place` holds: decrypted if it is sealed, as is if not.
    pub fn open(&self, stored: &str, place: &str) -> anyhow::Result<String> {
        let Some(encoded) = stored.strip_prefix(PREFIX) else { return Ok(stored.to_owned()) };
        let Some(cipher) = &self.cipher else {
            bail!(
                "the database holds secrets encrypted with a key this server was not given: \
                 set BOBBIN_ENCRYPTION_KEY (or BOBBIN_ENCRYPTION_KEY_FILE) to that key"
            )
        };
        let bytes = STANDARD.decode(encoded).context("a stored secret is not valid base64")?;
        if bytes.len() < NONCE_BYTES {
            bail!("a stored secret is too short to be encrypted");
        }
        let (nonce, sealed) = bytes.split_at(NONCE_BYTES);
        let plain = cipher
            .decrypt(XNonce::from_slice(nonce), Payload { msg: sealed, aad: place.as_bytes() })
            .map_err(|_| {
                anyhow::anyhow!(
                    "a stored secret does not open with the configured encryption key (another key?)"
                )
            })?;
        String::from_utf8(plain).context("a stored secret is not text")
    }
}

/// Where a factor's secret is stored, for its associated data.
pub fn factor_place(factor_id: uuid::Uuid) -> String {
    format!("mfa_factors.secret:{factor_id}")
}

/// Where a signing key is stored, for its associated data.
pub fn signing_key_place(kid: &str) -> String {
    format!("signing_keys.private_key:{kid}")
}

/// At start: with a key, encrypts every secret still stored in plain form (a server that ran
/// without one before); without a key, says that they are stored in plain form. Either way it
/// checks that every sealed secret opens, so a wrong or missing key stops the start with a
/// clear message rather than failing sign-ins later.
pub async fn seal_stored_secrets(db: &Database, vault: &Vault) -> anyhow::Result<()> {
    let keys = signing_keys::all(db).await?;
    let factors = factors::all(db).await?;
    let mut sealed_now = 0_usize;
    for key in keys {
        let place = signing_key_place(&key.id);
        let plain = vault.open(&key.private_key, &place)?;
        if vault.encrypts() && !Vault::is_sealed(&key.private_key) {
            let sealed = vault.seal(&plain, &place)?;
            signing_keys::set_private_key(db, key, sealed).await?;
            sealed_now += 1;
        }
    }
    for factor in factors {
        let place = factor_place(factor.id);
        let plain = vault.open(&factor.secret, &place)?;
        if vault.encrypts() && !Vault::is_sealed(&factor.secret) {
            let sealed = vault.seal(&plain, &place)?;
            factors::set_secret(db, factor, sealed).await?;
            sealed_now += 1;
        }
    }
    if vault.encrypts() {
        if sealed_now > 0 {
            tracing::info!(secrets = sealed_now, "encrypted the secrets stored in plain form");
        }
    } else {
        tracing::warn!(
            "TOTP secrets and the token signing key are stored in plain form in the database; \
             set BOBBIN_ENCRYPTION_KEY (or BOBBIN_ENCRYPTION_KEY_FILE) to encrypt them"
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vault() -> Vault {
        Vault::with_key(&Secret::from(STANDARD.encode([7_u8; 32]))).unwrap()
    }

    #[test]
    fn a_sealed_value_opens_only_with_its_key_and_in_its_place() {
        let vault = vault();
        let sealed = vault.seal("JBSWY3DPEHPK3PXP", "mfa_factors.secret:1").unwrap();
        assert!(Vault::is_sealed(&sealed) && !sealed.contains("JBSWY3DPEHPK3PXP"));
        assert_eq!(vault.open(&sealed, "mfa_factors.secret:1").unwrap(), "JBSWY3DPEHPK3PXP");
        assert!(vault.open(&sealed, "mfa_factors.secret:2").is_err(), "copied into another row");
        let other = Vault::with_key(&Secret::from(STANDARD.encode([8_u8; 32]))).unwrap();
        assert!(other.open(&sealed, "mfa_factors.secret:1").is_err());
        assert!(Vault { cipher: None, code_key: None }.open(&sealed, "mfa_factors.secret:1").is_err());
        assert_ne!(sealed, vault.seal("JBSWY3DPEHPK3PXP", "mfa_factors.secret:1").unwrap(), "a fresh nonce");
    }

    #[test]
    fn without_a_key_values_stay_as_they_are() {
        let plain = Vault { cipher: None, code_key: None };
        assert_eq!(plain.seal("secret", "x").unwrap(), "secret");
        assert_eq!(vault().open("not sealed", "x").unwrap(), "not sealed");
    }

    #[test]
    fn with_a_key_codes_are_stored_keyed_and_without_one_salted() {
        let keyed = vault().code_hash("ada@example.com", "123456");
        assert_ne!(keyed, crate::auth::secret::code_hash("ada@example.com", "123456"));
        assert_eq!(keyed, vault().code_hash("ada@example.com", "123456"));
        assert_ne!(keyed, vault().code_hash("bob@example.com", "123456"));
        let plain = Vault { cipher: None, code_key: None };
        assert_eq!(
            plain.code_hash("ada@example.com", "123456"),
            crate::auth::secret::code_hash("ada@example.com", "123456")
        );
    }

    #[test]
    fn a_key_must_be_32_bytes_of_base64() {
        assert!(Vault::with_key(&Secret::from("too short")).is_err());
        assert!(Vault::with_key(&Secret::from(STANDARD.encode([1_u8; 16]))).is_err());
        assert!(Vault::with_key(&Secret::from(format!(" {}\n", STANDARD.encode([1_u8; 32])))).is_ok());
    }
}
