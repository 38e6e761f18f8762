//! E-mail addresses as Bobbin stores and compares them: trimmed and lower-cased, so that
//! `Ada@Example.com` and `ada@example.com` are one account (and one invitee).
//!
//! The check is deliberately plain: a local part and a dotted domain, lengths within the SMTP
//! limits, nothing that could break a header or a link. Whether the address exists is for the
//! confirmation e-mail to find out.

use std::{fmt, str::FromStr};

/// The longest address SMTP allows (RFC 5321: 64 for the local part, 320 in all).
pub const MAX_LENGTH: usize = 320;
const MAX_LOCAL_LENGTH: usize = 64;

/// A well-formed e-mail address, lower-cased.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EmailAddress(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EmailError {
    #[error("an e-mail address is required")]
    Empty,
    #[error("\"{0}\" is not a valid e-mail address")]
    Invalid(String),
}

impl EmailAddress {
    /// Parses `raw` (surrounding spaces are ignored).
    ///
    /// # Errors
    ///
    /// [`EmailError::Empty`] for blank input, [`EmailError::Invalid`] for anything that is not
    /// `local@domain.tld` within the length limits, or holds spaces, control or bidirectional
    /// formatting characters, or `< > " , ;`.
    pub fn parse(raw: &str) -> Result<Self, EmailError> {
        let email = raw.trim().to_lowercase();
        if email.is_empty() {
            return Err(EmailError::Empty);
        }
        let invalid = || EmailError::Invalid(raw.trim().to_owned());
        let (local, domain) = email.split_once('@').ok_or_else(invalid)?;
        let well_formed = !local.is_empty()
            && local.len() <= MAX_LOCAL_LENGTH
            && email.len() <= MAX_LENGTH
            && domain.contains('.')
            && !domain.starts_with('.')
            && !domain.ends_with('.')
            && !domain.contains('@')
            && !email.chars().any(|c| {
                c.is_whitespace()
                    || c.is_control()
                    || crate::text::is_bidi_control(c)
                    || matches!(c, '<' | '>' | '"' | ',' | ';')
            });
        if well_formed { Ok(Self(email)) } else { Err(invalid()) }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

impl FromStr for EmailAddress {
    type Err = EmailError;

    fn from_str(raw: &str) -> Result<Self, Self::Err> {
        Self::parse(raw)
    }
}

impl fmt::Display for EmailAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_trimmed_and_lower_cased() {
        assert_eq!(EmailAddress::parse("  Ada@Example.COM ").unwrap().as_str(), "ada@example.com");
        assert_eq!(
            "grace.hopper+quotes@navy.example.org".parse::<EmailAddress>().unwrap().to_string(),
            "grace.hopper+quotes@navy.example.org"
        );
    }

    #[test]
    fn malformed_addresses_are_refused() {
        assert_eq!(EmailAddress::parse("   "), Err(EmailError::Empty));
        for bad in [
            "ada",
            "@example.com",
            "ada@example",
            "ada@.com",
            "ada @example.com",
            "a@b@c.com",
            "ada@example.com.",
            "a<b>@example.com",
            "a,b@example.com",
        ] {
            assert!(matches!(EmailAddress::parse(bad), Err(EmailError::Invalid(_))), "{bad}");
        }
    }

    #[test]
    fn smtp_length_limits_hold() {
        let local = "a".repeat(64);
        assert!(EmailAddress::parse(&format!("{local}@example.com")).is_ok());
        assert!(EmailAddress::parse(&format!("a{local}@example.com")).is_err());
        let long_domain = format!("{}.com", "d".repeat(MAX_LENGTH));
        assert!(EmailAddress::parse(&format!("ada@{long_domain}")).is_err());
    }
}
