//! The one error type of the API and its one JSON shape:
//!
//! ```json
//! { "code": "validation_failed", "message": "Some fields are not valid.",
//!   "fields": [{ "field": "name", "code": "too_long", "message": "Use at most 100 characters." }] }
//! ```
//!
//! `code` is stable and meant for programs; `message` is for people; `fields` is present only for
//! validation errors. 5xx answers never describe the cause: it is logged instead.

use axum::{
    Json,
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use sea_orm::DbErr;

use crate::db::Outage;
use serde::Serialize;
use utoipa::ToSchema;

/// The body of every error answer under `/api/`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// Stable, machine-readable error code, e.g. `not_found`, `validation_failed`.
    #[schema(example = "not_found")]
    pub code: String,
    /// What went wrong, in words a person can act on.
    pub message: String,
    /// For `validation_failed`: what is wrong with which field of the request.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<FieldError>,
}

/// One invalid field of a request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct FieldError {
    /// Path of the field in the request body, e.g. `name` or `items[2].quantity`.
    pub field: String,
    /// Stable code of the problem, e.g. `required`, `too_long`, `invalid`.
    pub code: String,
    pub message: String,
}

impl FieldError {
    pub fn new(field: impl Into<String>, code: impl Into<String>, message: impl Into<String>) -> Self {
        Self { field: field.into(), code: code.into(), message: message.into() }
    }
}

/// Largest request body the API reads, unless a route sets its own limit: what a
/// [`AppError::PayloadTooLarge`] answer names.
pub const BODY_LIMIT: usize = 1024 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// No valid session: no token, a bad or expired one, or a signed-out session.
    #[error("{0}")]
    Unauthorized(String),
    /// Signed in with the password alone by someone who has an authenticator app: the session
    /// must reach `aal2` (the app asks for the code) before it may use the API.
    #[error("{AAL2_NEEDED}")]
    InsufficientAal,
    /// Signed in, but the role in the team does not allow it; the message says who may.
    #[error("{0}")]
    Forbidden(String),
    /// A request that changes something, authenticated by the browser's cookie, sent by a page
    /// of another site (cross-site request forgery).
    #[error("{0}")]
    CrossSite(String),
    #[error("{0}")]
    NotFound(String),
    /// The request clashes with the current state (an invite already pending, the last
    /// owner leaving), with a stable code.
    #[error("{message}")]
    Conflict { code: &'static str, message: String },
    /// What the request names existed but is over for good (a revoked or expired invite).
    #[error("{message}")]
    Gone { code: &'static str, message: String },
    /// Too many requests of a kind; the message says when to try again.
    #[error("{0}")]
    RateLimited(String),
    /// The server is working on as many requests as it takes at once
    /// (`--max-requests-in-flight`): this one was not served and can be sent again shortly.
    #[error("{BUSY_MESSAGE}")]
    Busy,
    /// Work this server does a bounded number of at once (a team's archive) is running as often
    /// as it may: this request was not served, and can be sent again after `retry_after`
    /// seconds; `message` says what is running.
    #[error("{message}")]
    TryLater { message: &'static str, retry_after: u16 },
    #[error("the request body is not valid JSON: {0}")]
    InvalidJson(String),
    #[error("the request body must be JSON")]
    UnsupportedMediaType,
    #[error("the request body is too large")]
    PayloadTooLarge,
    #[error("some fields are not valid")]
    Validation(Vec<FieldError>),
    /// A well-formed request the domain cannot carry out (an unknown thread line, say), with the
    /// domain's own stable code.
    #[error("{message}")]
    Rejected { code: &'static str, message: String },
    #[error(transparent)]
    Database(#[from] DbErr),
    /// The database is out of order for a while (found by the auth service, say): `503` or `507`.
    #[error("{}", .0.message())]
    Outage(Outage),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl AppError {
    pub fn rejected(code: &'static str, message: impl Into<String>) -> Self {
        Self::Rejected { code, message: message.into() }
    }

    pub fn conflict(code: &'static str, message: impl Into<String>) -> Self {
        Self::Conflict { code, message: message.into() }
    }

    pub fn gone(code: &'static str, message: impl Into<String>) -> Self {
        Self::Gone { code, message: message.into() }
    }

    /// A failure of the auth service's own work that a product API handler used (reading a
    /// session, counting a rate limit, reading the account), `doing` saying what: its database
    /// outage as such, anything else a 500 with that cause logged. Refusals a handler answers in
    /// its own words (a 429, say) are matched before this.
    pub fn from_auth(error: &crate::auth::error::AuthError, doing: &str) -> Self {
        match error.outage {
            Some(outage) => Self::Outage(outage),
            None => Self::Internal(anyhow::anyhow!("{doing} failed: {}", error.message)),
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Self::Unauthorized(_) | Self::InsufficientAal => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) | Self::CrossSite(_) => StatusCode::FORBIDDEN,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::Conflict { .. } => StatusCode::CONFLICT,
            Self::Gone { .. } => StatusCode::GONE,
            Self::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            Self::Busy | Self::TryLater { .. } => StatusCode::SERVICE_UNAVAILABLE,
            Self::InvalidJson(_) => StatusCode::BAD_REQUEST,
            Self::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::Validation(_) | Self::Rejected { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            Self::Database(_) | Self::Internal(_) | Self::Outage(_) => match self.outage() {
                Some(Outage::Full) => StatusCode::INSUFFICIENT_STORAGE,
                Some(_) => StatusCode::SERVICE_UNAVAILABLE,
                None => StatusCode::INTERNAL_SERVER_ERROR,
            },
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            Self::Unauthorized(_) => "unauthorized",
            Self::InsufficientAal => "insufficient_aal",
            Self::Forbidden(_) => "forbidden",
            Self::CrossSite(_) => "cross_site_request",
            Self::NotFound(_) => "not_found",
            Self::RateLimited(_) => "rate_limited",
            Self::Busy | Self::TryLater { .. } => "server_busy",
            Self::InvalidJson(_) => "invalid_json",
            Self::UnsupportedMediaType => "unsupported_media_type",
            Self::PayloadTooLarge => "payload_too_large",
            Self::Validation(_) => "validation_failed",
            Self::Rejected { code, .. } | Self::Conflict { code, .. } | Self::Gone { code, .. } => code,
            Self::Database(_) | Self::Internal(_) | Self::Outage(_) => {
                self.outage().map_or("internal", Outage::code)
            }
        }
    }

    /// The database outage behind a database or internal error, if it is one.
    fn outage(&self) -> Option<Outage> {
        match self {
            Self::Outage(outage) => Some(*outage),
            Self::Database(error) => Outage::of(error),
            Self::Internal(error) => {
                error.chain().find_map(|cause| cause.downcast_ref::<DbErr>()).and_then(Outage::of)
            }
            _ => None,
        }
    }

    fn body(self) -> ErrorBody {
        let code = self.code().to_owned();
        let outage = self.outage();
        let (message, fields) = match self {
            Self::Unauthorized(message)
            | Self::Forbidden(message)
            | Self::CrossSite(message)
            | Self::NotFound(message)
            | Self::RateLimited(message)
            | Self::Rejected { message, .. }
            | Self::Conflict { message, .. }
            | Self::Gone { message, .. } => (message, Vec::new()),
            Self::InvalidJson(detail) => {
                (format!("The request body is not valid JSON: {detail}"), Vec::new())
            }
            Self::UnsupportedMediaType => (
                "Send the request body as JSON with `Content-Type: application/json`.".to_owned(),
                Vec::new(),
            ),
            Self::PayloadTooLarge => (
                format!("The request body is larger than the limit of {} KiB.", BODY_LIMIT / 1024),
                Vec::new(),
            ),
            Self::Validation(fields) => ("Some fields are not valid.".to_owned(), fields),
            Self::InsufficientAal => (AAL2_NEEDED.to_owned(), Vec::new()),
            Self::Busy => (BUSY_MESSAGE.to_owned(), Vec::new()),
            Self::TryLater { message, .. } => (message.to_owned(), Vec::new()),
            Self::Database(_) | Self::Internal(_) | Self::Outage(_) => {
                (outage.map_or(INTERNAL_MESSAGE, Outage::message).to_owned(), Vec::new())
            }
        };
        ErrorBody { code, message, fields }
    }
}

const AAL2_NEEDED: &str = "Enter the code from your authenticator app to continue.";

const BUSY_MESSAGE: &str = "The server is busy. Please try again in a moment.";

/// Seconds a client told [`AppError::Busy`] should wait before sending the request again.
const BUSY_RETRY_AFTER: &str = "1";

/// A request stopped by the time limit may have made its change already.
const REQUEST_TIMEOUT_MESSAGE: &str = "The request took too long and was stopped. If it was saving a change, the \
     change may or may not have been saved; sending it again with the same Idempotency-Key is safe.";

const INTERNAL_MESSAGE: &str =
    "Something went wrong on our side. Please try again; if it keeps happening, tell us.";

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = self.status();
        let retry_after = match self {
            Self::Busy => Some(HeaderValue::from_static(BUSY_RETRY_AFTER)),
            Self::TryLater { retry_after, .. } => Some(retry_after.into()),
            _ => None,
        };
        if let Some(retry_after) = retry_after {
            // Not logged as an error: it is the server protecting itself, and under overload a
            // log line for each refusal would only add to the load. The request line shows it.
            let mut response = (status, Json(self.body())).into_response();
            response.headers_mut().insert(header::RETRY_AFTER, retry_after);
            return response;
        }
        if status.is_server_error() {
            // The cause goes to the log, never to the client.
            tracing::error!(error = format!("{self:#}"), "request failed");
        }
        let outage = self.outage();
        let mut response = (status, Json(self.body())).into_response();
        if let Some(outage) = outage {
            // For `/healthz`, and for the pool to drop connections while it lasts.
            response.extensions_mut().insert(outage);
            response.headers_mut().insert(header::RETRY_AFTER, outage.retry_after().into());
        }
        response
    }
}

/// The JSON error for a status produced outside our handlers (by axum or a tower layer: 405,
/// 408, 413 and the like), so that every `/api/` error has the same shape.
pub fn status_error(status: StatusCode) -> Response {
    match status {
        StatusCode::PAYLOAD_TOO_LARGE => AppError::PayloadTooLarge.into_response(),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => AppError::UnsupportedMediaType.into_response(),
        status => (status, Json(status_error_body(status))).into_response(),
    }
}

/// The body of [`status_error`], also written by hand where there is no axum response to
/// carry it (the answers hyper makes itself to requests it cannot read: `crate::listener`).
pub fn status_error_body(status: StatusCode) -> ErrorBody {
    let (code, message) = match status {
        StatusCode::METHOD_NOT_ALLOWED => {
            ("method_not_allowed", "This endpoint does not accept that HTTP method.")
        }
        StatusCode::REQUEST_TIMEOUT => ("request_timeout", REQUEST_TIMEOUT_MESSAGE),
        StatusCode::URI_TOO_LONG => (
            "uri_too_long",
            "The address (path and query string) is too long. Send large data in the request body.",
        ),
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => (
            "headers_too_large",
            "The request's headers are too large. Clearing this site's cookies may help.",
        ),
        status if status.is_server_error() => ("internal", INTERNAL_MESSAGE),
        status => ("http_error", status.canonical_reason().unwrap_or("Request failed")),
    };
    ErrorBody { code: code.to_owned(), message: message.to_owned(), fields: Vec::new() }
}

/// Middleware for `/api/`: gives an error response made by axum or a layer (bodiless, or plain
/// text such as tower-http's "length limit exceeded") our JSON error shape. JSON responses (our
/// own errors) pass unchanged.
pub async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|value| value.as_bytes().starts_with(b"application/json"));
    if (status.is_client_error() || status.is_server_error()) && !is_json {
        let mut replacement = status_error(status);
        // Keep headers such as `Allow` (405) or `Retry-After`, but not the old body's length.
        for (name, value) in response.headers() {
            if name != header::CONTENT_LENGTH {
                replacement.headers_mut().entry(name).or_insert_with(|| value.clone());
            }
        }
        return replacement;
    }
    response
}

#[cfg(test)]
mod tests {
    use axum::body::to_bytes;
    use serde_json::{Value, json};

    use super::*;

    async fn json_of(response: Response) -> (StatusCode, Value) {
        let status = response.status();
        let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    #[tokio::test]
    async fn a_validation_error_names_each_field() {
        let error =
            AppError::Validation(vec![FieldError::new("name", "too_long", "Use at most 100 characters.")]);
        let (status, body) = json_of(error.into_response()).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            body,
            json!({
                "code": "validation_failed",
                "message": "Some fields are not valid.",
                "fields": [{ "field": "name", "code": "too_long", "message": "Use at most 100 characters." }]
            })
        );
    }

    #[tokio::test]
    async fn an_internal_error_hides_its_cause() {
        let error = AppError::Internal(anyhow::anyhow!("connection to 10.0.0.7 refused"));
        let (status, body) = json_of(error.into_response()).await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(body["code"], "internal");
        assert!(!body.to_string().contains("10.0.0.7"), "{body}");
        assert!(body.get("fields").is_none());
    }

    #[tokio::test]
    async fn a_busy_server_says_when_to_come_back() {
        let response = AppError::Busy.into_response();
        assert_eq!(response.headers()[header::RETRY_AFTER], "1");
        let (status, body) = json_of(response).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(body["code"], "server_busy");
    }

    #[tokio::test]
    async fn work_running_as_often_as_it_may_says_what_and_when_to_come_back() {
        let response =
            AppError::TryLater { message: "An archive is being written.", retry_after: 10 }.into_response();
        assert_eq!(response.headers()[header::RETRY_AFTER], "10");
        let (status, body) = json_of(response).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(body, json!({ "code": "server_busy", "message": "An archive is being written." }));
    }

    #[tokio::test]
    async fn bodiless_layer_errors_get_the_json_shape_and_keep_their_headers() {
        let bare = Response::builder()
            .status(StatusCode::METHOD_NOT_ALLOWED)
            .header(header::ALLOW, "GET,HEAD")
            .body(axum::body::Body::empty())
            .unwrap();
        let response = json_errors(bare).await;
        assert_eq!(response.headers()[header::ALLOW], "GET,HEAD");
        let (status, body) = json_of(response).await;
        assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
        assert_eq!(body["code"], "method_not_allowed");
    }

    #[tokio::test]
    async fn timeouts_and_oversized_bodies_from_layers_get_their_codes() {
        for (status, code) in [
            (StatusCode::REQUEST_TIMEOUT, "request_timeout"),
            (StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large"),
            (StatusCode::BAD_GATEWAY, "internal"),
        ] {
            let bare = Response::builder()
                .status(status)
                .header(header::CONTENT_TYPE, "text/plain; charset=utf-8")
                .body(axum::body::Body::from("length limit exceeded"))
                .unwrap();
            let (answered, body) = json_of(json_errors(bare).await).await;
            assert_eq!(answered, status);
            assert_eq!(body["code"], code);
        }
    }

    #[tokio::test]
    async fn responses_that_have_a_body_pass_unchanged() {
        let own = AppError::NotFound("No such team.".to_owned()).into_response();
        let (status, body) = json_of(json_errors(own).await).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(body["message"], "No such team.");
    }
}
