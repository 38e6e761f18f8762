//! The contact page's messages to the people who run this server (`BOBBIN_CONTACT_EMAIL`):
//! `GET /api/v2/contact` says whether they can be written to here, `POST /api/v2/contact` sends
//! one (docs/behaviour.md, "Contact"). Only for someone signed in, as the page is: the server
//! sends the e-mail, so it must know whom to hold to account, and a visitor's form would be a
//! way to send spam to the operator.

use axum::{Json, extract::State, http::StatusCode};
use bobbin_core::contact::{ContactError, ContactMessage, RawContact};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    auth::rate_limit,
    error::{AppError, ErrorBody, FieldError},
    extract::{ApiJson, AuthUser},
    mail::{MailAddress, templates},
    state::AppState,
};

/// One message per person per this many seconds: enough for a follow-up, too few for a flood.
pub const CONTACT_INTERVAL_SECONDS: u32 = 120;

/// Whether this server takes contact messages.
#[derive(Debug, Serialize, ToSchema)]
pub struct ContactInfo {
    /// False when the server has no address for them (`BOBBIN_CONTACT_EMAIL` unset).
    pub available: bool,
}

/// A message from the contact page.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ContactBody {
    /// Who writes.
    pub name: String,
    /// Where the answer goes (the account's address, unless the person gives another).
    pub email: String,
    /// One line, at most 150 characters.
    pub subject: String,
    /// At most 5,000 characters.
    pub message: String,
}

/// Sent, for the page's confirmation.
#[derive(Debug, Serialize, ToSchema)]
pub struct ContactSent {
    pub sent: bool,
}

/// Whether messages can be sent from the contact page.
#[utoipa::path(
    get, path = "/contact", tag = "users",
    responses(
        (status = 200, body = ContactInfo),
        (status = 401, description = "Not signed in", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn info(State(state): State<AppState>, _: AuthUser) -> Json<ContactInfo> {
    Json(ContactInfo { available: state.auth.mailer.contact().is_some() })
}

/// Sends a message to the people who run this server, answerable to the address given.
#[utoipa::path(
    post, path = "/contact", tag = "users", request_body = ContactBody,
    responses(
        (status = 202, description = "Handed to the mail server", body = ContactSent),
        (status = 401, description = "Not signed in", body = ErrorBody),
        (status = 422, description = "`validation_failed`, each field's problem in `fields`; or `contact_unavailable`: this server has no contact address", body = ErrorBody),
        (status = 429, description = "`rate_limited`: a message was sent in the last 2 minutes", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn send(
    State(state): State<AppState>,
    AuthUser(current): AuthUser,
    ApiJson(body): ApiJson<ContactBody>,
) -> Result<(StatusCode, Json<ContactSent>), AppError> {
    let Some(to) = state.auth.mailer.contact() else {
        return Err(AppError::rejected(
            "contact_unavailable",
            "This Bobbin server has no contact address. Ask the person who set it up.",
        ));
    };
    let (message, reply_to) = parse(&body)?;
    // Counted once the message is whole, so a form sent back with a mistake costs nothing.
    let key = format!("contact:{}", current.user.id);
    let turn = rate_limit::take_turn(&state.db, &key, CONTACT_INTERVAL_SECONDS)
        .await
        .map_err(|error| AppError::from_auth(&error, "counting a contact message"))?
        .ok_or_else(|| {
            AppError::RateLimited(
                "You sent a message a moment ago. Please wait two minutes before sending another.".to_owned(),
            )
        })?;
    let mail = templates::render_contact(&message, &current.user.email, &state.auth.config.site_url);
    if let Err(error) = state.auth.mailer.send_answerable(&state.db, to, Some(&reply_to), mail).await {
        // Not sent, so not counted: the person may try again at once.
        if let Err(undone) = turn.give_back(&state.db).await {
            tracing::warn!(error = %undone.message, "a contact message's turn could not be given back");
        }
        return Err(AppError::Internal(error));
    }
    tracing::info!(user = %current.user.id, "contact message sent");
    Ok((StatusCode::ACCEPTED, Json(ContactSent { sent: true })))
}

/// The message, and the address to answer as the mailer reads it ([`MailAddress`]): every
/// field's problem at once, the address's too when only the mailer's parser refuses it.
fn parse(body: &ContactBody) -> Result<(ContactMessage, MailAddress), AppError> {
    let message = ContactMessage::parse(RawContact {
        name: &body.name,
        email: &body.email,
        subject: &body.subject,
        message: &body.message,
    });
    let reply_to = MailAddress::parse(&body.email);
    match (message, reply_to) {
        (Ok(message), Ok(reply_to)) => Ok((message, reply_to)),
        (message, reply_to) => {
            let mut errors = message.err().unwrap_or_default();
            if reply_to.is_err() && !errors.iter().any(|(field, _)| *field == "email") {
                errors.push(("email", ContactError::Email("That is not an e-mail address.".to_owned())));
            }
            Err(AppError::Validation(
                errors
                    .into_iter()
                    .map(|(field, error)| FieldError::new(field, error.code(), error.to_string()))
                    .collect(),
            ))
        }
    }
}
