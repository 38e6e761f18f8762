//! A message to the people who run a Bobbin server, from its contact page: who writes (a name
//! and an address to answer), a subject and the message. It goes out as an e-mail, so nothing in
//! it may break a header (the subject is one line) or lie about what it says (no bidirectional
//! formatting characters: see [`crate::text`]).

use crate::{
    email::{EmailAddress, EmailError},
    text::{display_name, without_bidi_controls},
};

/// The longest subject, in characters: one line in a mail program.
pub const SUBJECT_MAX_CHARS: usize = 150;
/// The longest message, in characters: a few screens of text.
pub const MESSAGE_MAX_CHARS: usize = 5_000;

/// A contact message whose every part has been checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContactMessage {
    name: String,
    reply_to: EmailAddress,
    subject: String,
    message: String,
}

/// What is wrong with one part of a contact message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContactError {
    #[error("Please give your name.")]
    NameMissing,
    #[error("{0}")]
    Email(String),
    #[error("Please give a subject.")]
    SubjectMissing,
    #[error("Use at most {SUBJECT_MAX_CHARS} characters.")]
    SubjectTooLong,
    #[error("Please write a message.")]
    MessageMissing,
    #[error("Use at most {MESSAGE_MAX_CHARS} characters.")]
    MessageTooLong,
}

impl ContactError {
    /// A stable code for the API.
    pub fn code(&self) -> &'static str {
        match self {
            Self::NameMissing | Self::SubjectMissing | Self::MessageMissing => "required",
            Self::Email(_) => "invalid_email",
            Self::SubjectTooLong | Self::MessageTooLong => "too_long",
        }
    }
}

/// The parts of a message as sent, before any check.
#[derive(Debug, Clone, Copy)]
pub struct RawContact<'a> {
    pub name: &'a str,
    pub email: &'a str,
    pub subject: &'a str,
    pub message: &'a str,
}

impl ContactMessage {
    /// Checks every part of `raw`: a name (as [`display_name`] cleans it, at most 100
    /// characters), an e-mail address, a subject of one line and a message of at most
    /// [`MESSAGE_MAX_CHARS`] characters (its line breaks and tabs kept, other control
    /// characters dropped).
    ///
    /// # Errors
    ///
    /// Every part that is wrong, named by its field (`name`, `email`, `subject`, `message`).
    pub fn parse(raw: RawContact<'_>) -> Result<Self, Vec<(&'static str, ContactError)>> {
        let mut errors = Vec::new();
        let name = display_name(raw.name);
        if name.is_none() {
            errors.push(("name", ContactError::NameMissing));
        }
        let reply_to = EmailAddress::parse(raw.email)
            .map_err(|error| {
                let message = match error {
                    EmailError::Empty => "Please give an e-mail address to answer.".to_owned(),
                    EmailError::Invalid(_) => "That is not an e-mail address.".to_owned(),
                };
                errors.push(("email", ContactError::Email(message)));
            })
            .ok();
        // One line: a line break in a subject would end the e-mail's header.
        let subject = display_name_of_length(raw.subject, SUBJECT_MAX_CHARS);
        match &subject {
            Ok(None) => errors.push(("subject", ContactError::SubjectMissing)),
            Err(()) => errors.push(("subject", ContactError::SubjectTooLong)),
            Ok(Some(_)) => {}
        }
        let message: String = without_bidi_controls(raw.message)
            .chars()
            .filter(|c| !c.is_control() || matches!(c, '\n' | '\t'))
            .collect();
        let message = message.trim().to_owned();
        if message.is_empty() {
            errors.push(("message", ContactError::MessageMissing));
        } else if message.chars().count() > MESSAGE_MAX_CHARS {
            errors.push(("message", ContactError::MessageTooLong));
        }
        match (name, reply_to, subject) {
            (Some(name), Some(reply_to), Ok(Some(subject))) if errors.is_empty() => {
                Ok(Self { name, reply_to, subject, message })
            }
            _ => Err(errors),
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Where an answer goes.
    pub fn reply_to(&self) -> &EmailAddress {
        &self.reply_to
    }

    pub fn subject(&self) -> &str {
        &self.subject
    }

    pub fn message(&self) -> &str {
        &self.message
    }
}

/// `raw` on one line, cleaned as a name is, unless longer than `max` characters.
fn display_name_of_length(raw: &str, max: usize) -> Result<Option<String>, ()> {
    let one_line: String = raw
        .chars()
        .filter(|c| !crate::text::is_bidi_control(*c))
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let line = one_line.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() > max {
        return Err(());
    }
    Ok((!line.is_empty()).then_some(line))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw<'a>(name: &'a str, email: &'a str, subject: &'a str, message: &'a str) -> RawContact<'a> {
        RawContact { name, email, subject, message }
    }

    #[test]
    fn a_whole_message_is_taken_cleaned() {
        let message = ContactMessage::parse(raw(
            " Ada  Lovelace ",
            "Ada@Example.com",
            "Quote\r\nBcc: everyone@example.com",
            "Hello,\n\tthe \u{202E}pricing page\u{0007} is great.\n",
        ))
        .unwrap();
        assert_eq!(message.name(), "Ada Lovelace");
        assert_eq!(message.reply_to().as_str(), "ada@example.com");
        // A line break cannot start a header of its own.
        assert_eq!(message.subject(), "Quote Bcc: everyone@example.com");
        assert_eq!(message.message(), "Hello,\n\tthe pricing page is great.");
    }

    #[test]
    fn every_part_that_is_wrong_is_named() {
        let errors = ContactMessage::parse(raw(" ", "not-an-address", "", "\u{200F}")).unwrap_err();
        let fields: Vec<_> = errors.iter().map(|(field, error)| (*field, error.code())).collect();
        assert_eq!(
            fields,
            [
                ("name", "required"),
                ("email", "invalid_email"),
                ("subject", "required"),
                ("message", "required")
            ]
        );
    }

    #[test]
    fn a_subject_and_a_message_have_their_limits() {
        let subject = "s".repeat(SUBJECT_MAX_CHARS + 1);
        let message = "m".repeat(MESSAGE_MAX_CHARS + 1);
        let errors = ContactMessage::parse(raw("Ada", "ada@example.com", &subject, &message)).unwrap_err();
        assert_eq!(
            errors,
            [("subject", ContactError::SubjectTooLong), ("message", ContactError::MessageTooLong)]
        );
        let at_limit = "m".repeat(MESSAGE_MAX_CHARS);
        assert!(ContactMessage::parse(raw("Ada", "ada@example.com", &subject[1..], &at_limit)).is_ok());
    }
}
