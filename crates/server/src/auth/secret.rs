//! Random secrets and their stored form. Every secret the server only has to recognise later
//! (refresh tokens, e-mailed link tokens, six-digit codes, PKCE auth codes) is stored as its
//! SHA-256, so a copy of the database cannot be used to sign in.

use base64::{Engine as _, engine::general_purpose::URL_SAFE_NO_PAD};
use rand::{Rng as _, RngCore as _};
use sha2::{Digest as _, Sha256};
use subtle::ConstantTimeEq as _;

/// A URL-safe random token with `bytes` bytes of entropy.
pub fn random_token(bytes: usize) -> String {
    let mut buffer = vec![0_u8; bytes];
    rand::rng().fill_bytes(&mut buffer);
    URL_SAFE_NO_PAD.encode(buffer)
}

/// Refresh tokens: 128 bits, like a UUID, but without structure.
pub fn refresh_token() -> String {
    random_token(16)
}

/// The six-digit code in sign-up, magic-link and recovery e-mails.
pub fn six_digit_code() -> String {
    format!("{:06}", rand::rng().random_range(0..1_000_000))
}

/// Lower-case hex SHA-256.
pub fn sha256_hex(value: &str) -> String {
    format!("{:x}", Sha256::digest(value.as_bytes()))
}

/// The stored form of an e-mailed code: salted with the address it went to, because a
/// six-digit code alone would collide between accounts.
pub fn code_hash(address: &str, code: &str) -> String {
    sha256_hex(&format!("{address}:{code}"))
}

/// The PKCE check (RFC 7636): `s256` compares the base64url SHA-256 of the verifier with the
/// challenge, `plain` the verifier itself; both in constant time.
pub fn pkce_matches(method: &str, challenge: &str, verifier: &str) -> bool {
    let expected = match method {
        "s256" => URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes())),
        "plain" => verifier.to_owned(),
        _ => return false,
    };
    bool::from(expected.as_bytes().ct_eq(challenge.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rfc_7636_example_verifier_matches_its_challenge() {
        // RFC 7636, appendix B.
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
        assert!(pkce_matches("s256", challenge, verifier));
        assert!(!pkce_matches("s256", challenge, "another-verifier-of-sufficient-length-000000"));
        assert!(!pkce_matches("S256-typo", challenge, verifier));
        assert!(pkce_matches("plain", verifier, verifier));
    }

    #[test]
    fn codes_have_six_digits_and_tokens_differ() {
        for _ in 0..100 {
            let code = six_digit_code();
            assert_eq!(code.len(), 6);
            for digit in code.bytes() {
                assert!(digit.is_ascii_digit(), "{code}");
            }
        }
        assert_ne!(refresh_token(), refresh_token());
        assert_eq!(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
