//! Errors in Supabase Storage's shape, `{ "statusCode": "404", "error": "not_found", "message":
//! "Object not found", "code": "NoSuchKey" }`, which `@supabase/storage-js` reads into its
//! `StorageApiError` (`statusCode`, `message`, `code`). Storage itself answers most errors with
//! HTTP 400 and the real status only in `statusCode`; Bobbin answers the real status in both, so
//! that a 404 is a 404 to every other HTTP client too (storage-js reads `code`, not the status).
//!
//! Handlers answer [`StorageError`]. The product API's own errors that reach this service area
//! (the sign-in and team checks, the database's outages, the body limit and the timeout of the
//! layers) are reshaped on their way out by [`storage_errors`], keeping their status and headers
//! (`Retry-After`).

use axum::{
    Json,
    body::{Body, to_bytes},
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::{Deserialize, Serialize};

use crate::{error::AppError, repo::RepoError};

/// A refusal in the storage service area's own words.
#[derive(Debug)]
pub enum StorageError {
    /// Storage's own error: `code` as Storage names it (`NoSuchKey`, `KeyAlreadyExists`...).
    Own { status: StatusCode, code: &'static str, message: String },
    /// An error of the product API's (a session refused, an outage), reshaped by
    /// [`storage_errors`].
    App(AppError),
}

impl StorageError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        Self::Own { status, code, message: message.into() }
    }

    /// An object the bucket does not hold, or the caller may not see.
    pub fn no_such_key() -> Self {
        Self::new(StatusCode::NOT_FOUND, "NoSuchKey", crate::repo::storage::NO_SUCH_KEY)
    }

    /// A bucket that does not exist, or whose team the caller is not in: the same answer.
    pub fn no_such_bucket() -> Self {
        Self::new(StatusCode::NOT_FOUND, "NoSuchBucket", "Bucket not found")
    }

    /// A request Storage would refuse for its shape (a key it does not take, say).
    pub fn invalid(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }
}

impl From<AppError> for StorageError {
    fn from(error: AppError) -> Self {
        Self::App(error)
    }
}

impl From<RepoError> for StorageError {
    fn from(error: RepoError) -> Self {
        match error {
            RepoError::NotFound(_) => Self::no_such_key(),
            RepoError::Conflict { code, message } => Self::new(StatusCode::CONFLICT, code, message),
            RepoError::Refused { code: code @ "EntityTooLarge", message } => {
                Self::new(StatusCode::PAYLOAD_TOO_LARGE, code, message)
            }
            RepoError::Refused { code, message } => Self::new(StatusCode::BAD_REQUEST, code, message),
            other => Self::App(other.into()),
        }
    }
}

/// The body Storage answers errors with.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct StorageBody {
    status_code: String,
    error: &'static str,
    message: String,
    code: &'static str,
}

/// Marks an answer already in Storage's shape, for [`storage_errors`] to leave alone.
#[derive(Debug, Clone, Copy)]
struct Shaped;

fn shaped(status: StatusCode, code: &'static str, message: String) -> Response {
    let body =
        StorageBody { status_code: status.as_u16().to_string(), error: error_name(status), message, code };
    let mut response = (status, Json(body)).into_response();
    response.extensions_mut().insert(Shaped);
    response
}

impl IntoResponse for StorageError {
    fn into_response(self) -> Response {
        match self {
            Self::Own { status, code, message } => shaped(status, code, message),
            // Logged (a 5xx), marked with its outage and `Retry-After` as the API's, then
            // reshaped by `storage_errors`.
            Self::App(error) => error.into_response(),
        }
    }
}

/// Storage's legacy `error` name for a status.
fn error_name(status: StatusCode) -> &'static str {
    match status {
        StatusCode::NOT_FOUND => "not_found",
        StatusCode::CONFLICT => "Duplicate",
        StatusCode::PAYLOAD_TOO_LARGE => "Payload too large",
        StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => "Unauthorized",
        status if status.is_server_error() => "internal",
        _ => "invalid_request",
    }
}

/// Storage's code for one of the product API's error codes.
fn storage_code(status: StatusCode, api_code: &str) -> &'static str {
    match (status, api_code) {
        (StatusCode::NOT_FOUND, _) => "NoSuchBucket",
        (StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN, _) => "AccessDenied",
        (StatusCode::PAYLOAD_TOO_LARGE, _) => "EntityTooLarge",
        (StatusCode::REQUEST_TIMEOUT, _) => "RequestTimeout",
        (StatusCode::TOO_MANY_REQUESTS, _) | (StatusCode::SERVICE_UNAVAILABLE, "server_busy") => "SlowDown",
        (status, _) if status.is_server_error() => "InternalError",
        _ => "InvalidRequest",
    }
}

/// What [`storage_errors`] reads of the product API's error body (`crate::error::ErrorBody`).
#[derive(Debug, Deserialize)]
struct ApiBody {
    code: String,
    message: String,
}

/// The largest error body of the product API's that is reshaped (they are a few hundred bytes).
const API_ERROR_BYTES: usize = 64 * 1024;

/// Reshapes an error answer of the product API's (its `{ code, message }` JSON, or a layer's
/// plain status) into Storage's, keeping the status and the headers: the last layer of the
/// storage service area.
pub async fn storage_errors(response: Response) -> Response {
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error())
        || response.extensions().get::<Shaped>().is_some()
    {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let api: Option<ApiBody> =
        to_bytes(body, API_ERROR_BYTES).await.ok().and_then(|bytes| serde_json::from_slice(&bytes).ok());
    let (api_code, message) = match api {
        Some(ApiBody { code, message }) => (code, message),
        None => (String::new(), status.canonical_reason().unwrap_or("Request failed").to_owned()),
    };
    let message = if status == StatusCode::NOT_FOUND { "Bucket not found".to_owned() } else { message };
    let code = storage_code(status, &api_code);
    let body =
        StorageBody { status_code: status.as_u16().to_string(), error: error_name(status), message, code };
    let bytes = serde_json::to_vec(&body).unwrap_or_default();
    parts.headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(bytes))
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    async fn json_of(response: Response) -> (StatusCode, Value) {
        let status = response.status();
        let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    #[tokio::test]
    async fn the_apis_errors_answer_in_storages_shape_with_their_status_and_headers() {
        let busy = storage_errors(AppError::Busy.into_response()).await;
        assert_eq!(busy.headers()[header::RETRY_AFTER], "1");
        let (status, body) = json_of(busy).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(body["statusCode"], "503");
        assert_eq!(body["code"], "SlowDown");

        let (status, body) =
            json_of(storage_errors(AppError::NotFound("There is no team".into()).into_response()).await)
                .await;
        assert_eq!(
            (status, body),
            (
                StatusCode::NOT_FOUND,
                json!({ "statusCode": "404", "error": "not_found", "message": "Bucket not found", "code": "NoSuchBucket" })
            )
        );
        let (status, body) =
            json_of(storage_errors(crate::error::status_error(StatusCode::PAYLOAD_TOO_LARGE)).await).await;
        assert_eq!((status, body["code"].as_str()), (StatusCode::PAYLOAD_TOO_LARGE, Some("EntityTooLarge")));
    }

    #[tokio::test]
    async fn storages_own_errors_are_left_as_they_are() {
        let (status, body) = json_of(storage_errors(StorageError::no_such_key().into_response()).await).await;
        assert_eq!(
            (status, body),
            (
                StatusCode::NOT_FOUND,
                json!({ "statusCode": "404", "error": "not_found", "message": "Object not found", "code": "NoSuchKey" })
            )
        );
    }
}
