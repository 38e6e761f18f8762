//! The auth service's error answers, in the shape Supabase Auth gives them and its official
//! client reads (auth-js `handleError`):
//!
//! ```json
//! { "code": "invalid_credentials", "error_code": "invalid_credentials",
//!   "message": "Invalid login credentials", "msg": "Invalid login credentials" }
//! ```
//!
//! `code` is the error code (API version 2024-01-01, which every answer declares in the
//! `X-Supabase-Api-Version` header); `error_code` and `msg` are the pre-2024 names of the same
//! things, kept so older clients read the same error. Weak passwords add
//! `"weak_password": {"reasons": [...]}`.

use axum::{
    Json,
    http::{HeaderName, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use sea_orm::DbErr;
use serde::Serialize;

use crate::repo::RepoError;
use crate::{
    auth::password::{Busy, HashError, WeakPassword},
    db::Outage,
};

pub const API_VERSION_HEADER: HeaderName = HeaderName::from_static("x-supabase-api-version");
/// The one API version this service speaks.
pub const API_VERSION: HeaderValue = HeaderValue::from_static("2024-01-01");
const ERROR_CODE_HEADER: HeaderName = HeaderName::from_static("x-sb-error-code");

#[derive(Debug)]
pub struct AuthError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    pub weak_password: Option<Vec<&'static str>>,
    /// The database outage behind the error, for `/healthz` and `Retry-After`.
    pub outage: Option<Outage>,
}

pub type AuthResult<T> = Result<T, AuthError>;

impl AuthError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        Self { status, code, message: message.into(), weak_password: None, outage: None }
    }

    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }

    pub fn validation(message: impl Into<String>) -> Self {
        Self::bad_request("validation_failed", message)
    }

    pub fn unprocessable(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, code, message)
    }

    pub fn forbidden(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, code, message)
    }

    pub fn not_found(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, code, message)
    }

    pub fn too_many_requests(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::TOO_MANY_REQUESTS, code, message)
    }

    pub fn invalid_credentials() -> Self {
        Self::bad_request("invalid_credentials", "Invalid login credentials")
    }

    pub fn internal(cause: impl std::fmt::Display) -> Self {
        // The cause goes to the log, never to the client.
        tracing::error!(error = %cause, "auth request failed");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "unexpected_failure",
            "Unexpected failure, please try again.",
        )
    }
}

impl From<DbErr> for AuthError {
    fn from(error: DbErr) -> Self {
        let Some(outage) = Outage::of(&error) else { return Self::internal(error) };
        tracing::error!(error = %error, "auth request failed");
        let status = if outage == Outage::Full {
            StatusCode::INSUFFICIENT_STORAGE
        } else {
            StatusCode::SERVICE_UNAVAILABLE
        };
        Self { outage: Some(outage), ..Self::new(status, outage.code(), outage.message()) }
    }
}

/// What a repo function's refusal means to the auth service's caller, in Supabase Auth's terms:
/// a refused or clashing change is a 422 with its code.
impl From<RepoError> for AuthError {
    fn from(error: RepoError) -> Self {
        match error {
            RepoError::Database(error) => error.into(),
            RepoError::NotFound(message) => Self::not_found("not_found", message),
            RepoError::Refused { code, message } | RepoError::Conflict { code, message } => {
                Self::unprocessable(code, message)
            }
            RepoError::TooLarge { field } => {
                Self::unprocessable("validation_failed", format!("`{field}` is too large to store."))
            }
            RepoError::Broken(error) => error.into(),
        }
    }
}

impl From<anyhow::Error> for AuthError {
    fn from(error: anyhow::Error) -> Self {
        match error.chain().find_map(|cause| cause.downcast_ref::<DbErr>()) {
            Some(database) if Outage::of(database).is_some() => database.clone().into(),
            _ => Self::internal(format!("{error:#}")),
        }
    }
}

impl From<Busy> for AuthError {
    fn from(busy: Busy) -> Self {
        Self::new(StatusCode::SERVICE_UNAVAILABLE, "server_busy", busy.to_string())
    }
}

impl From<HashError> for AuthError {
    fn from(error: HashError) -> Self {
        match error {
            HashError::Busy(busy) => busy.into(),
            HashError::Failed(error) => error.into(),
        }
    }
}

impl From<WeakPassword> for AuthError {
    fn from(weak: WeakPassword) -> Self {
        Self {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            code: "weak_password",
            message: weak.message(),
            weak_password: Some(weak.reasons().iter().map(|reason| reason.as_str()).collect()),
            outage: None,
        }
    }
}

#[derive(Serialize)]
struct Body<'a> {
    code: &'a str,
    error_code: &'a str,
    message: &'a str,
    msg: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    weak_password: Option<Reasons<'a>>,
}

#[derive(Serialize)]
struct Reasons<'a> {
    reasons: &'a [&'static str],
}

impl IntoResponse for AuthError {
    fn into_response(self) -> Response {
        let body = Body {
            code: self.code,
            error_code: self.code,
            message: &self.message,
            msg: &self.message,
            weak_password: self.weak_password.as_deref().map(|reasons| Reasons { reasons }),
        };
        let mut response = (self.status, Json(body)).into_response();
        response.headers_mut().insert(ERROR_CODE_HEADER, HeaderValue::from_static(self.code));
        if let Some(outage) = self.outage {
            response.extensions_mut().insert(outage);
            response.headers_mut().insert(header::RETRY_AFTER, outage.retry_after().into());
        } else if self.status == StatusCode::SERVICE_UNAVAILABLE {
            // Busy for a moment: a client that waits this long will likely get through.
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("2"));
        }
        response
    }
}
