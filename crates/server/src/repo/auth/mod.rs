//! The auth service's tables, one module per table or concern. A write that needs several
//! statements owns its transaction here, and a single write outside one goes through
//! [`crate::db::committed`]: no handler begins or commits a transaction itself.
//!
//! Secrets are stored as hashes: these functions take the plain refresh token, e-mailed link
//! token or auth code and hash it themselves (SHA-256, [`crate::auth::secret::sha256_hex`]), so
//! a lookup always hashes as the write did. E-mailed codes are the exception: their stored form
//! is keyed by the configured encryption key (`Vault::code_hash`), so callers pass that hash.

pub mod challenges;
pub mod factors;
pub mod flow_states;
pub mod identities;
pub mod one_time_tokens;
pub mod outbox;
pub mod prune;
pub mod rate_limits;
pub mod sessions;
pub mod signing_keys;
pub mod users;
