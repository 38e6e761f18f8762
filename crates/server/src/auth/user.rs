//! The user object of the auth API (Supabase Auth's `User`), and the account rules around it.

use bobbin_core::{
    email::{EmailAddress, EmailError},
    text::display_name,
};
use sea_orm::ConnectionTrait;
use serde_json::{Map, Value, json};
use time::{OffsetDateTime, format_description::well_known::Rfc3339};

use crate::{
    auth::error::{AuthError, AuthResult},
    entity::{identity, mfa_factor, user},
    mail::MailAddress,
    repo::auth::{factors, identities},
};

/// Longest `user_metadata` the service stores, serialised.
pub const MAX_METADATA_BYTES: usize = 8 * 1024;

pub fn rfc3339(time: OffsetDateTime) -> String {
    time.format(&Rfc3339).unwrap_or_default()
}

fn optional_time(time: Option<OffsetDateTime>) -> Value {
    time.map_or(Value::Null, |time| Value::String(rfc3339(time)))
}

/// The user as the auth API answers it, with identities and factors.
pub async fn user_json(db: &impl ConnectionTrait, user: &user::Model) -> AuthResult<Value> {
    let identities = identities::of_user(db, user.id).await?;
    let factors = factors::of_user(db, user.id).await?;
    let mut object = json!({
        "id": user.id,
        "aud": "authenticated",
        "role": "authenticated",
        "email": user.email,
        "email_confirmed_at": optional_time(user.email_confirmed_at),
        "confirmed_at": optional_time(user.email_confirmed_at),
        "confirmation_sent_at": optional_time(user.confirmation_sent_at),
        "recovery_sent_at": optional_time(user.recovery_sent_at),
        "email_change_sent_at": optional_time(user.email_change_sent_at),
        "new_email": user.email_change,
        "phone": "",
        "last_sign_in_at": optional_time(user.last_sign_in_at),
        "app_metadata": user.raw_app_meta_data,
        "user_metadata": user.raw_user_meta_data,
        "identities": identities.iter().map(identity_json).collect::<Vec<_>>(),
        "created_at": rfc3339(user.created_at),
        "updated_at": rfc3339(user.updated_at),
        "is_anonymous": false,
    });
    // Supabase Auth leaves `factors` out when there are none, and drops empty optional fields.
    let fields = object.as_object_mut().expect("a JSON object");
    fields.retain(|_, value| !value.is_null());
    if !factors.is_empty() {
        fields.insert("factors".to_owned(), factors.iter().map(factor_json).collect());
    }
    Ok(object)
}

pub fn identity_json(identity: &identity::Model) -> Value {
    json!({
        "identity_id": identity.id,
        "id": identity.provider_id,
        "user_id": identity.user_id,
        "identity_data": identity.identity_data,
        "provider": identity.provider,
        "last_sign_in_at": optional_time(identity.last_sign_in_at),
        "created_at": rfc3339(identity.created_at),
        "updated_at": rfc3339(identity.updated_at),
        "email": identity.email,
    })
}

pub fn factor_json(factor: &mfa_factor::Model) -> Value {
    json!({
        "id": factor.id,
        "friendly_name": factor.friendly_name,
        "factor_type": factor.factor_type,
        "status": factor.status,
        "created_at": rfc3339(factor.created_at),
        "updated_at": rfc3339(factor.updated_at),
    })
}

/// An e-mail address from a request, parsed by the core's [`EmailAddress`] (trimmed,
/// lower-cased, well-formed), with the auth service's error codes: for finding an account
/// (signing in, checking a code), so that one whose address predates [`parse_mail_address`]
/// can still sign in.
pub fn parse_email(raw: &str) -> AuthResult<String> {
    email_answer(raw, EmailAddress::parse(raw))
}

/// [`parse_email`] for an address Bobbin is about to send e-mail to (a sign-up, a new address,
/// a link or code asked for), read by the mailer's own parser as well ([`MailAddress`]): one it
/// could not send to answers `400 email_address_invalid` here, not `500` once the mail is built.
pub fn parse_mail_address(raw: &str) -> AuthResult<String> {
    email_answer(raw, MailAddress::parse(raw).map(MailAddress::into_email))
}

fn email_answer(raw: &str, parsed: Result<EmailAddress, EmailError>) -> AuthResult<String> {
    match parsed {
        Ok(email) => Ok(email.into_string()),
        Err(EmailError::Empty) => {
            Err(AuthError::bad_request("validation_failed", "An email address is required"))
        }
        Err(EmailError::Invalid(_)) => Err(AuthError::bad_request(
            "email_address_invalid",
            format!("Email address \"{raw}\" is invalid"),
        )),
    }
}

/// The person's name as others see it (`user_metadata.full_name`), without characters that
/// could make it read as something else ([`bobbin_core::text::display_name`]).
pub fn full_name(user: &user::Model) -> Option<String> {
    user.raw_user_meta_data.get("full_name").and_then(Value::as_str).and_then(display_name)
}

/// The metadata keys that hold a person's name, cleaned when stored.
const NAME_KEYS: [&str; 2] = ["full_name", "name"];

/// `data` of a sign-up or user update: a JSON object of reasonable size, whose names are
/// cleaned of control and bidirectional formatting characters.
pub fn parse_metadata(data: Option<Value>) -> AuthResult<Map<String, Value>> {
    match data {
        None | Some(Value::Null) => Ok(Map::new()),
        Some(Value::Object(map)) => {
            if serde_json::to_vec(&map).map_or(usize::MAX, |bytes| bytes.len()) > MAX_METADATA_BYTES {
                return Err(AuthError::validation(format!(
                    "User metadata must be at most {} KiB",
                    MAX_METADATA_BYTES / 1024
                )));
            }
            let mut map = map;
            for key in NAME_KEYS {
                if let Some(Value::String(name)) = map.get(key) {
                    match display_name(name) {
                        Some(clean) => map.insert(key.to_owned(), Value::String(clean)),
                        None => map.remove(key),
                    };
                }
            }
            Ok(map)
        }
        Some(_) => Err(AuthError::validation("data must be a JSON object")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parsing itself is the core's (`bobbin_core::email`); here, the service's codes.
    #[test]
    fn address_errors_carry_the_auth_service_codes() {
        assert_eq!(parse_email("  Ada@Example.COM ").unwrap(), "ada@example.com");
        assert_eq!(parse_email("ada@example").unwrap_err().code, "email_address_invalid");
        assert_eq!(parse_email(" ").unwrap_err().code, "validation_failed");
        assert_eq!(parse_mail_address("a@[127.0.0.1]").unwrap_err().code, "email_address_invalid");
        assert_eq!(parse_email("a@[127.0.0.1]").unwrap(), "a@[127.0.0.1]");
    }

    #[test]
    fn metadata_must_be_a_small_object() {
        assert!(parse_metadata(None).unwrap().is_empty());
        assert_eq!(parse_metadata(Some(json!({"full_name": "Ada"}))).unwrap()["full_name"], "Ada");
        assert!(parse_metadata(Some(json!(["x"]))).is_err());
        // A name cannot be made to read backwards (U+202E) or hold line breaks.
        let cleaned =
            parse_metadata(Some(json!({"full_name": "Ada\u{202E}ecalevoL\n", "name": "\u{200F}"}))).unwrap();
        assert_eq!(cleaned["full_name"], "AdaecalevoL");
        assert!(!cleaned.contains_key("name"));
        assert!(parse_metadata(Some(json!({"x": "y".repeat(MAX_METADATA_BYTES)}))).is_err());
    }
}
