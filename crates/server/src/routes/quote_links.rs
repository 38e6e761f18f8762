//! A quote as its customer reaches it, by the link the shop sent (docs/behaviour.md, "Quotes"):
//! the page `/q/{token}` and `/api/v2/public/quotes/{token}...`. No account is needed: the
//! token is the key, and it opens exactly one thing, that quote, to read it (with its preview,
//! the shop's logo and its PDF) and to answer it (approve, decline, ask a question).
//!
//! A token is 256 random bits, kept only as its SHA-256; every request by link is counted per
//! client network (`--quote-link-rate-limit` a minute). A withdrawn link, or one to a quote whose
//! date has passed unanswered, answers 410; a token no link has, 404. Nothing here names the
//! team's id, the quote's id or anyone's address.

use std::collections::HashMap;

use askama::Template;
use axum::{
    Json,
    extract::{FromRequestParts, Path, State},
    http::{HeaderMap, HeaderValue, StatusCode, header, request::Parts},
    response::{IntoResponse as _, Response},
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    auth::{extract::Client, secret::sha256_hex},
    error::{AppError, ErrorBody},
    extract::ApiJson,
    mail::templates::{QuoteNotice, render_quote_notice},
    repo::quotes::{self, Answer, Answered, Closed, CustomerQuote, Shared},
    routes::quotes::quote_settings,
    state::AppState,
};

/// The longest signature, order number, reason and question, in characters.
const NAME_MAX: usize = 200;
const PO_MAX: usize = 100;
const MESSAGE_MAX: usize = 2_000;

/// A quote opened by its link: the extractor of every handler here. It counts the request
/// against the client network's limit, then finds the link's quote, or answers 404 (no such
/// link) or 410 (withdrawn, or expired unanswered).
pub struct QuoteLink {
    pub shared: Shared,
}

impl FromRequestParts<AppState> for QuoteLink {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        let client = Client::from_request_parts(parts, state)
            .await
            .map_err(|_| AppError::NotFound(NO_LINK.to_owned()))?;
        if !state.quote_link_limit.allow(&client.network()) {
            return Err(AppError::RateLimited(
                "Too many requests from your network in the last minute. Please wait a minute and try again."
                    .to_owned(),
            ));
        }
        let Path(params) = Path::<HashMap<String, String>>::from_request_parts(parts, state)
            .await
            .map_err(|_| AppError::NotFound(NO_LINK.to_owned()))?;
        let token = params.get("token").map(String::as_str).unwrap_or_default();
        match open(state, token).await? {
            Ok(shared) => Ok(Self { shared }),
            Err(closed) => Err(closed_error(closed)),
        }
    }
}

const NO_LINK: &str = "There is no quote at this link. Check that the whole link was copied.";

/// The quote a token opens, if any: a token of the wrong shape is no link, without a query.
async fn open(state: &AppState, token: &str) -> Result<Result<Shared, Closed>, AppError> {
    if !is_token(token) {
        return Ok(Err(Closed::Unknown));
    }
    Ok(quotes::by_token(&state.db, &sha256_hex(token)).await?)
}

/// Whether `token` has the shape of a link's token: 43 URL-safe base64 characters (32 bytes).
fn is_token(token: &str) -> bool {
    token.len() == 43
        && token.bytes().all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
}

fn closed_error(closed: Closed) -> AppError {
    match closed {
        Closed::Unknown => AppError::NotFound(NO_LINK.to_owned()),
        Closed::Revoked => {
            AppError::gone("link_revoked", "The shop has withdrawn this quote. Ask them for a new link.")
        }
        Closed::Expired => {
            AppError::gone("link_expired", "This quote has expired. Ask the shop for a new one.")
        }
        Closed::Revising => AppError::gone(
            "quote_in_revision",
            "The shop is revising this quote: they will send you the new version.",
        ),
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PublicQuoteBody {
    pub quote: CustomerQuote,
}

async fn document(state: &AppState, shared: &Shared) -> Result<CustomerQuote, AppError> {
    Ok(quotes::customer_quote(&shared.row, &shop(state, shared).await?)?)
}

/// The shop of the link's quote, as its customer sees it.
async fn shop(state: &AppState, shared: &Shared) -> Result<quotes::Shop, AppError> {
    Ok(quotes::Shop::of(&shared.team_name, &quote_settings(state, shared.row.team_id).await?))
}

/// The quote, as its customer sees it (no account: the link's token).
#[utoipa::path(
    get, path = "/public/quotes/{token}", operation_id = "public_quote", tag = "quote links",
    params(("token" = String, Path, description = "The link's token")),
    responses(
        (status = 200, body = PublicQuoteBody),
        (status = 404, description = "No link has this token", body = ErrorBody),
        (status = 410, description = "`link_revoked`, `link_expired`, `quote_in_revision`", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many requests from this network in a minute", body = ErrorBody),
    ),
)]
pub async fn get(State(state): State<AppState>, link: QuoteLink) -> Result<Json<PublicQuoteBody>, AppError> {
    Ok(Json(PublicQuoteBody { quote: document(&state, &link.shared).await? }))
}

/// Which version the customer is answering or reading.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ViewedBody {
    pub revision: u32,
}

/// Says the customer has the quote's version `revision` open: the first time for its latest
/// version, the quote becomes viewed and the team is told. Sent by the page once it shows the
/// quote, not by opening the link, so a mail scanner following links marks nothing.
#[utoipa::path(
    post, path = "/public/quotes/{token}/viewed", operation_id = "public_quote_viewed", tag = "quote links", request_body = ViewedBody,
    params(("token" = String, Path, description = "The link's token")),
    responses(
        (status = 204, description = "Noted"),
        (status = 404, description = "No link has this token", body = ErrorBody),
        (status = 410, description = "`link_revoked`, `link_expired`, `quote_in_revision`", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many requests from this network in a minute", body = ErrorBody),
    ),
)]
pub async fn viewed(
    State(state): State<AppState>,
    link: QuoteLink,
    ApiJson(body): ApiJson<ViewedBody>,
) -> Result<StatusCode, AppError> {
    if quotes::viewed(&state.db, &link.shared.row, body.revision).await? {
        let row = &link.shared.row;
        let who = customer_name(row);
        let headline = format!("{} was opened by {who}", quotes::number_text(row.number));
        notify(
            &state,
            &link.shared,
            &headline,
            &format!("{who} is reading quote {}: {}.", quotes::number_text(row.number), row.name),
        )
        .await;
    }
    Ok(StatusCode::NO_CONTENT)
}

/// The customer's approval: their name typed as a signature, the quantity chosen, and their
/// order number if they have one.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ApproveBody {
    /// The version approved: a newer one must be read first.
    pub revision: u32,
    /// One of the quantities offered.
    pub quantity: u32,
    /// The approver's name, 1 to 200 characters.
    pub name: String,
    /// At most 100 characters.
    #[serde(default)]
    pub po_number: String,
}

/// Approves the quote. Approving an approved quote again changes nothing and answers as the
/// first time did.
#[utoipa::path(
    post, path = "/public/quotes/{token}/approve", operation_id = "public_quote_approve", tag = "quote links", request_body = ApproveBody,
    params(("token" = String, Path, description = "The link's token")),
    responses(
        (status = 200, body = PublicQuoteBody),
        (status = 404, description = "No link has this token", body = ErrorBody),
        (status = 409, description = "`quote_changed`: a newer version is out; `quote_closed`: answered otherwise, or withdrawn to a draft; `quote_expired`; `edit_conflict`: another answer at the same moment", body = ErrorBody),
        (status = 410, description = "`link_revoked`, `link_expired`, `quote_in_revision`", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many requests from this network in a minute", body = ErrorBody),
        (status = 422, description = "`validation_failed`; `no_such_option`", body = ErrorBody),
    ),
)]
pub async fn approve(
    State(state): State<AppState>,
    link: QuoteLink,
    ApiJson(body): ApiJson<ApproveBody>,
) -> Result<Json<PublicQuoteBody>, AppError> {
    let name = required_text("name", &body.name, NAME_MAX, "Type your name to sign the approval.")?;
    let po_number = optional_text("po_number", &body.po_number, PO_MAX)?;
    let answer = Answer::Approved {
        name: name.clone(),
        po_number: po_number.clone(),
        quantity: body.quantity,
        at: time::OffsetDateTime::now_utc(),
    };
    answered(&state, link, body.revision, answer, |number, title| {
        let po =
            if po_number.is_empty() { String::new() } else { format!("\nTheir order number: {po_number}") };
        (
            format!("{number} was approved by {name}"),
            format!("{name} approved quote {number} ({title}) for {} pieces.{po}", body.quantity),
        )
    })
    .await
}

/// The customer's refusal, with their reason.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DeclineBody {
    pub revision: u32,
    /// 1 to 2,000 characters.
    pub reason: String,
}

/// Declines the quote. Declining a declined quote again changes nothing.
#[utoipa::path(
    post, path = "/public/quotes/{token}/decline", operation_id = "public_quote_decline", tag = "quote links", request_body = DeclineBody,
    params(("token" = String, Path, description = "The link's token")),
    responses(
        (status = 200, body = PublicQuoteBody),
        (status = 404, description = "No link has this token", body = ErrorBody),
        (status = 409, description = "`quote_changed`; `quote_closed`: approved, or withdrawn to a draft; `quote_expired`; `edit_conflict`", body = ErrorBody),
        (status = 410, description = "`link_revoked`, `link_expired`, `quote_in_revision`", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many requests from this network in a minute", body = ErrorBody),
        (status = 422, description = "`validation_failed`", body = ErrorBody),
    ),
)]
pub async fn decline(
    State(state): State<AppState>,
    link: QuoteLink,
    ApiJson(body): ApiJson<DeclineBody>,
) -> Result<Json<PublicQuoteBody>, AppError> {
    let reason = required_text("reason", &body.reason, MESSAGE_MAX, "Tell the shop why, so they can help.")?;
    let answer = Answer::Declined { reason: reason.clone(), at: time::OffsetDateTime::now_utc() };
    let who = customer_name(&link.shared.row);
    answered(&state, link, body.revision, answer, |number, title| {
        (
            format!("{number} was declined"),
            format!("{who} declined quote {number} ({title}).\nTheir reason: {reason}"),
        )
    })
    .await
}

/// Takes an answer, tells the team the first time (`notice` gives the headline and details from
/// the quote's number and title), and answers the quote as it is now.
async fn answered(
    state: &AppState,
    link: QuoteLink,
    revision: u32,
    answer: Answer,
    notice: impl FnOnce(&str, &str) -> (String, String),
) -> Result<Json<PublicQuoteBody>, AppError> {
    let shared = link.shared;
    let outcome = quotes::answer(&state.db, &shared.row, revision, answer).await?;
    let row = quotes::reread_public(&state.db, &shared.row).await?;
    let shared = Shared { row, team_name: shared.team_name };
    if outcome == Answered::Taken {
        let (headline, detail) = notice(&quotes::number_text(shared.row.number), &shared.row.name);
        notify(state, &shared, &headline, &detail).await;
    }
    Ok(Json(PublicQuoteBody { quote: document(state, &shared).await? }))
}

/// A question for the shop.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct QuestionBody {
    /// Who asks, at most 200 characters.
    #[serde(default)]
    pub name: String,
    /// 1 to 2,000 characters.
    pub message: String,
}

/// Sends the shop a question about the quote (at most 10 a quote a day).
#[utoipa::path(
    post, path = "/public/quotes/{token}/questions", operation_id = "public_quote_question", tag = "quote links", request_body = QuestionBody,
    params(("token" = String, Path, description = "The link's token")),
    responses(
        (status = 204, description = "Sent to the shop"),
        (status = 404, description = "No link has this token", body = ErrorBody),
        (status = 410, description = "`link_revoked`, `link_expired`, `quote_in_revision`", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many requests from this network in a minute", body = ErrorBody),
        (status = 422, description = "`validation_failed`; `too_many_questions`", body = ErrorBody),
    ),
)]
pub async fn ask(
    State(state): State<AppState>,
    link: QuoteLink,
    ApiJson(body): ApiJson<QuestionBody>,
) -> Result<StatusCode, AppError> {
    let message = required_text("message", &body.message, MESSAGE_MAX, "Write your question.")?;
    let name = optional_text("name", &body.name, NAME_MAX)?;
    quotes::ask(&state.db, &link.shared.row, &name, &message).await?;
    let row = &link.shared.row;
    let who = if name.is_empty() { customer_name(row) } else { name };
    let number = quotes::number_text(row.number);
    notify(
        &state,
        &link.shared,
        &format!("A question about {number} from {who}"),
        &format!("{who} asks about quote {number} ({}):\n\n{message}", row.name),
    )
    .await;
    Ok(StatusCode::NO_CONTENT)
}

/// The quote as a PDF: the same content as the customer's page, with the shop's details.
#[utoipa::path(
    get, path = "/public/quotes/{token}/pdf", operation_id = "public_quote_pdf", tag = "quote links",
    params(("token" = String, Path, description = "The link's token")),
    responses(
        (status = 200, description = "The PDF", content_type = "application/pdf", body = Vec<u8>),
        (status = 404, description = "No link has this token", body = ErrorBody),
        (status = 503, description = "`server_busy`: too many PDFs and other heavy work at once", body = ErrorBody),
        (status = 410, description = "`link_revoked`, `link_expired`, `quote_in_revision`", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many requests from this network in a minute", body = ErrorBody),
    ),
)]
pub async fn pdf(State(state): State<AppState>, link: QuoteLink) -> Result<Response, AppError> {
    let shop = shop(&state, &link.shared).await?;
    crate::routes::quotes::pdf_of(&state, &link.shared.row, &shop).await
}

/// The design's preview (SVG), when the quote was priced from the team's library.
#[utoipa::path(
    get, path = "/public/quotes/{token}/preview.svg", operation_id = "public_quote_preview", tag = "quote links",
    params(("token" = String, Path, description = "The link's token")),
    responses(
        (status = 200, description = "The preview", content_type = "image/svg+xml", body = String),
        (status = 404, description = "No link has this token, or the quote has no preview", body = ErrorBody),
        (status = 410, description = "`link_revoked`, `link_expired`, `quote_in_revision`", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many requests from this network in a minute", body = ErrorBody),
    ),
)]
pub async fn preview(State(state): State<AppState>, link: QuoteLink) -> Result<Response, AppError> {
    let no_preview = || AppError::NotFound("This quote has no preview of its design.".to_owned());
    let design_id = link.shared.row.design_id.ok_or_else(no_preview)?;
    let object = crate::repo::storage::by_id(&state.db, link.shared.row.team_id, design_id)
        .await
        .map_err(|_| no_preview())?;
    let svg = object.preview.ok_or_else(no_preview)?;
    let mut headers = private_headers();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("image/svg+xml"));
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("default-src 'none'; sandbox"));
    Ok((StatusCode::OK, headers, svg).into_response())
}

/// The shop's logo (PNG or JPEG), when it has one.
#[utoipa::path(
    get, path = "/public/quotes/{token}/logo", operation_id = "public_quote_logo", tag = "quote links",
    params(("token" = String, Path, description = "The link's token")),
    responses(
        (status = 200, description = "The logo", content_type = "image/png", body = Vec<u8>),
        (status = 404, description = "No link has this token, or the shop has no logo", body = ErrorBody),
        (status = 410, description = "`link_revoked`, `link_expired`, `quote_in_revision`", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many requests from this network in a minute", body = ErrorBody),
    ),
)]
pub async fn logo(State(state): State<AppState>, link: QuoteLink) -> Result<Response, AppError> {
    let (bytes, content_type) = logo_of(&state, link.shared.row.team_id)
        .await?
        .ok_or_else(|| AppError::NotFound("This shop has no logo.".to_owned()))?;
    let mut headers = private_headers();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("default-src 'none'; sandbox"));
    Ok((StatusCode::OK, headers, bytes).into_response())
}

/// The largest logo a quote shows, in bytes.
pub const LOGO_MAX_BYTES: u64 = 1024 * 1024;

/// The team's logo and its type, if its quote settings name an image of its storage that is a
/// PNG or a JPEG (by its bytes, whatever its name says) of at most [`LOGO_MAX_BYTES`].
pub async fn logo_of(
    state: &AppState,
    team_id: crate::entity::ids::TeamId,
) -> Result<Option<(Vec<u8>, &'static str)>, AppError> {
    let Some(path) = quote_settings(state, team_id).await?.logo else { return Ok(None) };
    let Ok(object) = crate::repo::storage::info(&state.db, team_id, &path).await else { return Ok(None) };
    let size = u64::try_from(object.size).unwrap_or(u64::MAX);
    if size > LOGO_MAX_BYTES {
        return Ok(None);
    }
    let bytes = crate::repo::storage::piece(&state.db, &object, 0, size).await?;
    let content_type = if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        "image/png"
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        "image/jpeg"
    } else {
        return Ok(None);
    };
    Ok(Some((bytes, content_type)))
}

/// Kept by no shared cache, and by the browser only while the link is open.
fn private_headers() -> HeaderMap {
    let mut headers = HeaderMap::new();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("private, no-store"));
    headers
}

/// The page `/q/{token}`: the app, which shows the quote, for a link that opens one; a plain page
/// answering 404 or 410 otherwise. Never cached, never indexed.
pub async fn page(State(state): State<AppState>, client: Client, Path(token): Path<String>) -> Response {
    let mut headers = private_headers();
    headers.insert(HeaderValueName::ROBOTS, HeaderValue::from_static("noindex"));
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    if !state.quote_link_limit.allow(&client.network()) {
        let page = ClosedPage {
            title: "Too many requests",
            message: "Please wait a minute and try again.",
            shop: None,
        };
        return (StatusCode::TOO_MANY_REQUESTS, headers, page.render().unwrap_or_default()).into_response();
    }
    let (status, page) = match open(&state, &token).await {
        Ok(Ok(_)) => {
            return (StatusCode::OK, headers, crate::routes::web::render_index(state.environment))
                .into_response();
        }
        Ok(Err(Closed::Unknown)) => {
            (StatusCode::NOT_FOUND, ClosedPage { title: "No quote here", message: NO_LINK, shop: None })
        }
        Ok(Err(Closed::Revoked)) => (
            StatusCode::GONE,
            ClosedPage {
                title: "This quote was withdrawn",
                message: "The shop has withdrawn this quote. Ask them for a new link.",
                shop: None,
            },
        ),
        Ok(Err(Closed::Expired)) => (
            StatusCode::GONE,
            ClosedPage {
                title: "This quote has expired",
                message: "Its validity date has passed. Ask the shop for a new quote.",
                shop: None,
            },
        ),
        Ok(Err(Closed::Revising)) => (
            StatusCode::GONE,
            ClosedPage {
                title: "This quote is being revised",
                message: "The shop is changing this quote: they will send you the new version.",
                shop: None,
            },
        ),
        Err(error) => return error.into_response(),
    };
    (status, headers, page.render().unwrap_or_default()).into_response()
}

/// `X-Robots-Tag`, which `http` has no constant for.
struct HeaderValueName;

impl HeaderValueName {
    const ROBOTS: header::HeaderName = header::HeaderName::from_static("x-robots-tag");
}

/// The plain page of a link that opens no quote.
#[derive(Template)]
#[template(path = "quote_closed.html")]
struct ClosedPage<'a> {
    title: &'a str,
    message: &'a str,
    shop: Option<&'a str>,
}

fn customer_name(row: &crate::entity::quote::Model) -> String {
    if !row.customer_name.is_empty() {
        row.customer_name.clone()
    } else if !row.customer_company.is_empty() {
        row.customer_company.clone()
    } else {
        "The customer".to_owned()
    }
}

/// E-mails the team's notice (to who sent the quote, else the owners). A notice that cannot go
/// out is logged, never the customer's error: their answer is kept and shows on the quote page.
async fn notify(state: &AppState, shared: &Shared, headline: &str, detail: &str) {
    let link = match state.auth.config.site_url.join(&format!("quotes/{}", shared.row.public_id)) {
        Ok(link) => link,
        Err(error) => {
            tracing::error!(%error, "the quote page's address");
            return;
        }
    };
    let mail = render_quote_notice(&QuoteNotice { headline, detail, link: link.as_str() });
    let recipients = match quotes::notified(&state.db, &shared.row).await {
        Ok(recipients) => recipients,
        Err(error) => {
            tracing::error!(error = %error, "finding whom to tell of a quote's answer");
            return;
        }
    };
    for to in recipients {
        if let Err(error) = state.auth.mailer.send(&state.db, &to, mail.clone()).await {
            tracing::error!(error = format!("{error:#}"), "telling the team of a quote's answer");
        }
    }
}

fn required_text(field: &str, raw: &str, max: usize, missing: &str) -> Result<String, AppError> {
    let text = raw.trim();
    if text.is_empty() {
        return Err(AppError::Validation(vec![crate::error::FieldError::new(field, "required", missing)]));
    }
    optional_text(field, text, max)
}

fn optional_text(field: &str, raw: &str, max: usize) -> Result<String, AppError> {
    let text = raw.trim();
    if text.chars().count() > max {
        return Err(AppError::Validation(vec![crate::error::FieldError::new(
            field,
            "too_long",
            format!("Use at most {max} characters."),
        )]));
    }
    Ok(text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_43_url_safe_characters() {
        let token = crate::auth::secret::random_token(32);
        assert!(is_token(&token), "{token}");
        assert!(!is_token(&token[..42]));
        assert!(!is_token(&format!("{}.", &token[..42])));
        assert!(!is_token(""));
    }
}
