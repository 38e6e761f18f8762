//! Time-based one-time passwords, the second factor (`factor_type: "totp"`): RFC 6238 with
//! HMAC-SHA-1, 6 digits and 30-second steps, the settings every authenticator app reads and the
//! ones Supabase Auth uses (pquerna/otp, skew 1).
//!
//! Supabase Auth makes each challenge single-use but accepts the same code again on a new
//! challenge; RFC 6238 section 5.2 asks that a code accepted once never be accepted again.
//! [`verify`] takes the last step accepted for the factor and refuses it and every earlier one,
//! so a code read over someone's shoulder, or replayed from a log, is worthless.

use qrcode::{EcLevel, QrCode, render::svg};
use rand::RngCore as _;
use subtle::ConstantTimeEq as _;
use totp_rs::{Algorithm, Secret, TOTP};

/// Seconds per step: a code changes every 30 seconds.
pub const STEP_SECONDS: u64 = 30;
const DIGITS: usize = 6;
/// 160 bits, the secret length RFC 4226 recommends (and the one Supabase Auth creates).
const SECRET_BYTES: usize = 20;
/// Steps either side of the current one that still count, for a phone clock that is a little
/// off and for the time it takes to type the code.
const SKEW_STEPS: u64 = 1;

/// What enrolling a factor shows the person: the secret to type in, and the same as a link and
/// a QR code to scan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Enrolment {
    /// The secret in base32 without padding (32 characters), as authenticator apps take it.
    pub secret: String,
    /// `otpauth://totp/<issuer>:<account>?secret=...&issuer=...`
    pub uri: String,
    /// The URI as a QR code: an SVG document, `<svg ...>...</svg>`.
    ///
    /// This is what Supabase Auth's `totp.qr_code` holds; its client (`mfa.enroll()` in auth-js)
    /// turns it into `data:image/svg+xml;utf-8,<svg ...>` itself, so the server must not. That
    /// data URL is not percent-encoded, so the SVG holds no `#` (it would end the URL: colours
    /// are named) and no `%`.
    pub qr_code: String,
}

/// The issuer or the account name holds a colon, which the `otpauth://` label uses to separate
/// them (an issuer taken from an address with a port, `localhost:3000`, would).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("The issuer and the account name of a TOTP factor cannot contain a colon")]
pub struct ColonInLabel;

/// A new factor: a random 160-bit secret, and the link and QR code that carry it, labelled
/// with `issuer` (the service, "Bobbin") and `account_name` (the person's e-mail address),
/// which authenticator apps show side by side. Store [`Enrolment::secret`] with the factor.
///
/// # Errors
///
/// [`ColonInLabel`] when `issuer` or `account_name` holds a colon (a 400 `validation_failed`).
pub fn enrol(issuer: &str, account_name: &str) -> Result<Enrolment, ColonInLabel> {
    let mut secret = [0_u8; SECRET_BYTES];
    // ThreadRng is a CSPRNG, seeded from the operating system.
    rand::rng().fill_bytes(&mut secret);
    enrol_with(&secret, issuer, account_name)
}

fn enrol_with(secret: &[u8], issuer: &str, account_name: &str) -> Result<Enrolment, ColonInLabel> {
    let totp = TOTP::new(
        Algorithm::SHA1,
        DIGITS,
        0,
        STEP_SECONDS,
        secret.to_vec(),
        Some(issuer.to_owned()),
        account_name.to_owned(),
    )
    // Its other refusals (digits, secret length) cannot happen with the constants above.
    .map_err(|_| ColonInLabel)?;
    let uri = totp.get_url();
    let qr_code = qr_code_svg(&uri);
    Ok(Enrolment { secret: totp.get_secret_base32(), uri, qr_code })
}

/// `text` as a QR code in SVG, about 200 pixels square with the quiet zone scanners need.
fn qr_code_svg(text: &str) -> String {
    // Level M (15% of the code may be lost) rather than Supabase's H (30%): a code on a screen
    // is not smudged, and a less dense one is easier for a poor laptop camera to read.
    let code = QrCode::with_error_correction_level(text, EcLevel::M)
        .expect("an otpauth URI of a few hundred bytes fits in a QR code");
    let svg = code
        .render::<svg::Color<'_>>()
        .min_dimensions(200, 200)
        .dark_color(svg::Color("black"))
        .light_color(svg::Color("white"))
        .build();
    // Without the XML declaration the same string also works as markup put into a page.
    match svg.find("<svg") {
        Some(start) => svg[start..].to_owned(),
        None => svg,
    }
}

/// Checks `code` against `secret` at `unix_time`, accepting the current step and one either
/// side, and refusing any step at or before `last_used_step` (the one this factor last
/// accepted). Answers the step the code belongs to, to be stored as the new `last_used_step`,
/// or `None` for a wrong, reused or malformed code.
///
/// The codes are compared in constant time, and every step in the window is computed whether
/// or not an earlier one matched, so the answer's timing says nothing about the code.
pub fn verify(secret: &str, code: &str, unix_time: u64, last_used_step: Option<u64>) -> Option<u64> {
    let Some(bytes) = decode(secret) else {
        tracing::error!("a stored TOTP secret is not valid base32 of at least 128 bits");
        return None;
    };
    let totp = TOTP::new_unchecked(Algorithm::SHA1, DIGITS, 0, STEP_SECONDS, bytes, None, String::new());
    // Authenticator apps show `123 456`; people paste with a trailing space.
    let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();

    let current = unix_time / STEP_SECONDS;
    let mut matched = None;
    for step in current.saturating_sub(SKEW_STEPS)..=current.saturating_add(SKEW_STEPS) {
        let expected = totp.generate(step * STEP_SECONDS);
        let fresh = last_used_step.is_none_or(|last| step > last);
        if bool::from(expected.as_bytes().ct_eq(code.as_bytes())) && fresh {
            // The latest match wins: should one code match two steps, both are then used up.
            matched = Some(step);
        }
    }
    matched
}

fn decode(secret: &str) -> Option<Vec<u8>> {
    Secret::Encoded(secret.to_owned()).to_bytes().ok().filter(|bytes| bytes.len() >= 16)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 6238 appendix B's SHA-1 secret, and the same in base32.
    const RFC_SECRET_BYTES: &[u8] = b"12345678901234567890";
    const RFC_SECRET: &str = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

    fn code_at(secret: &str, unix_time: u64) -> String {
        TOTP::new_unchecked(
            Algorithm::SHA1,
            DIGITS,
            0,
            STEP_SECONDS,
            decode(secret).unwrap(),
            None,
            String::new(),
        )
        .generate(unix_time)
    }

    #[test]
    fn codes_match_the_rfc_6238_test_vectors() {
        // Appendix B gives 8 digits; a 6-digit code is the last six of them.
        let vectors = [
            (59, "94287082"),
            (1_111_111_109, "07081804"),
            (1_111_111_111, "14050471"),
            (1_234_567_890, "89005924"),
            (2_000_000_000, "69279037"),
            (20_000_000_000, "65353130"),
        ];
        for (time, eight_digits) in vectors {
            let code = &eight_digits[2..];
            assert_eq!(verify(RFC_SECRET, code, time, None), Some(time / 30), "at {time}");
        }
    }

    #[test]
    fn a_code_from_the_step_before_or_after_is_accepted() {
        let now = 1_700_000_015;
        let step = now / 30;
        for (offset, seconds) in [(-1, now - 30), (0, now), (1, now + 30)] {
            let code = code_at(RFC_SECRET, seconds);
            assert_eq!(verify(RFC_SECRET, &code, now, None), Some(step.checked_add_signed(offset).unwrap()));
        }
    }

    #[test]
    fn a_code_two_steps_away_is_refused() {
        let now = 1_700_000_015;
        assert_eq!(verify(RFC_SECRET, &code_at(RFC_SECRET, now - 60), now, None), None);
        assert_eq!(verify(RFC_SECRET, &code_at(RFC_SECRET, now + 60), now, None), None);
    }

    #[test]
    fn a_code_is_never_accepted_twice() {
        let now = 1_700_000_015;
        let code = code_at(RFC_SECRET, now);
        let step = verify(RFC_SECRET, &code, now, None).unwrap();
        assert_eq!(verify(RFC_SECRET, &code, now, Some(step)), None);
        // Not a few seconds later either, while the code is still on the screen.
        assert_eq!(verify(RFC_SECRET, &code, now + 20, Some(step)), None);
    }

    #[test]
    fn an_older_code_is_refused_once_a_newer_one_was_accepted() {
        let now = 1_700_000_015;
        let newer = verify(RFC_SECRET, &code_at(RFC_SECRET, now + 30), now, None).unwrap();
        assert_eq!(verify(RFC_SECRET, &code_at(RFC_SECRET, now), now, Some(newer)), None);
        assert_eq!(
            verify(RFC_SECRET, &code_at(RFC_SECRET, now + 60), now + 60, Some(newer)),
            Some(newer + 1)
        );
    }

    #[test]
    fn a_code_with_spaces_is_read_without_them() {
        let now = 1_700_000_015;
        let code = code_at(RFC_SECRET, now);
        let spaced = format!(" {} {} ", &code[..3], &code[3..]);
        assert_eq!(verify(RFC_SECRET, &spaced, now, None), Some(now / 30));
    }

    #[test]
    fn malformed_codes_and_secrets_are_refused_without_a_panic() {
        let now = 1_700_000_015;
        let code = code_at(RFC_SECRET, now);
        for wrong in ["", "12345", "1234567", "abcdef", &code[..5], &format!("{code}0")] {
            assert_eq!(verify(RFC_SECRET, wrong, now, None), None, "{wrong}");
        }
        assert_eq!(verify("not base32!", &code, now, None), None);
        assert_eq!(verify("GEZDGNBV", &code, now, None), None, "a 40-bit secret is too short");
        assert_eq!(
            verify(RFC_SECRET, &code_at(RFC_SECRET, 0), 0, None),
            Some(0),
            "the first step has no step before it"
        );
    }

    #[test]
    fn each_enrolment_gets_a_new_secret_of_160_random_bits_in_base32() {
        let secret = enrol("Bobbin", "ada@example.com").unwrap().secret;
        assert_eq!(secret.len(), 32);
        for c in secret.chars() {
            assert!(c.is_ascii_uppercase() || ('2'..='7').contains(&c), "{secret}");
        }
        assert_eq!(decode(&secret).unwrap().len(), 20);
        assert_ne!(secret, enrol("Bobbin", "ada@example.com").unwrap().secret);
    }

    #[test]
    fn enrolling_gives_the_otpauth_uri_authenticator_apps_read() {
        let enrolment = enrol_with(RFC_SECRET_BYTES, "Bobbin", "ada@example.com").unwrap();
        assert_eq!(enrolment.secret, RFC_SECRET);
        assert_eq!(
            enrolment.uri,
            "otpauth://totp/Bobbin:ada%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Bobbin"
        );
        let spaced = enrol_with(RFC_SECRET_BYTES, "Bobbin Embroidery", "ada@example.com").unwrap();
        assert!(
            spaced.uri.starts_with("otpauth://totp/Bobbin%20Embroidery:ada%40example.com?"),
            "{}",
            spaced.uri
        );
    }

    #[test]
    fn a_colon_in_the_issuer_or_account_is_refused() {
        assert_eq!(enrol_with(RFC_SECRET_BYTES, "localhost:3000", "ada@example.com"), Err(ColonInLabel));
        assert_eq!(enrol_with(RFC_SECRET_BYTES, "Bobbin", "ada:lovelace@example.com"), Err(ColonInLabel));
    }

    #[test]
    fn the_qr_code_is_an_svg_that_survives_an_unencoded_data_url() {
        let svg = enrol("Bobbin", "ada@example.com").unwrap().qr_code;
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""), "{svg}");
        assert!(svg.ends_with("</svg>"), "{svg}");
        assert!(!svg.contains('#') && !svg.contains('%'), "{svg}");
        assert!(svg.contains(r#"fill="black""#) && svg.contains(r#"fill="white""#), "{svg}");
    }

    #[test]
    fn the_qr_code_holds_the_uri() {
        let enrolment = enrol_with(RFC_SECRET_BYTES, "Bobbin", "ada@example.com").unwrap();
        let expected = QrCode::with_error_correction_level(&enrolment.uri, EcLevel::M).unwrap();
        let rendered = expected
            .render::<svg::Color<'_>>()
            .min_dimensions(200, 200)
            .dark_color(svg::Color("black"))
            .light_color(svg::Color("white"))
            .build();
        assert!(rendered.ends_with(&enrolment.qr_code));
    }
}
