//! Request extractors. [`ApiJson`] replaces axum's `Json` for request bodies so that every body
//! problem answers in the API's one error shape, with the path of the offending field.

use axum::{
    body::Bytes,
    extract::{FromRequest, Request, rejection::BytesRejection},
    http::{StatusCode, header},
};
use serde::de::DeserializeOwned;

use crate::error::{AppError, FieldError};

/// A JSON request body, parsed into `T`.
///
/// - wrong or missing `Content-Type` answers 415 `unsupported_media_type`;
/// - a body over the limit answers 413 `payload_too_large`;
/// - malformed JSON answers 400 `invalid_json`;
/// - well-formed JSON of the wrong shape answers 422 `validation_failed`, naming the field.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiJson<T>(pub T);

impl<T, S> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        if !is_json(&request) {
            return Err(AppError::UnsupportedMediaType);
        }
        let bytes = Bytes::from_request(request, state).await.map_err(|rejection| match rejection {
            BytesRejection::FailedToBufferBody(error) if error.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                AppError::PayloadTooLarge
            }
            other => AppError::InvalidJson(other.body_text()),
        })?;
        parse(&bytes).map(ApiJson)
    }
}

/// `application/json` and structured-syntax types such as `application/problem+json`, the
/// same rule as axum's own `Json`.
fn is_json(request: &Request) -> bool {
    request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<mime::Mime>().ok())
        .is_some_and(|mime| {
            mime.type_() == mime::APPLICATION
                && (mime.subtype() == mime::JSON || mime.suffix() == Some(mime::JSON))
        })
}

fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, AppError> {
    let deserializer = &mut serde_json::Deserializer::from_slice(bytes);
    serde_path_to_error::deserialize(deserializer).map_err(|error| {
        let path = error.path().to_string();
        let inner = error.into_inner();
        if inner.is_data() {
            // `.` is serde_path_to_error's name for the root value.
            let field = if path == "." { String::new() } else { path };
            AppError::Validation(vec![FieldError::new(field, "invalid", inner.to_string())])
        } else {
            AppError::InvalidJson(inner.to_string())
        }
    })
}

#[cfg(test)]
mod tests {
    use axum::{Router, body::Body, http::Request, routing::post};
    use serde::Deserialize;
    use tower::ServiceExt as _;

    use super::*;

    #[derive(Debug, Deserialize)]
    #[expect(dead_code, reason = "only deserialised, to check the extractor's errors")]
    struct Item {
        name: String,
        quantity: u32,
    }

    async fn send(content_type: Option<&str>, body: impl Into<Body>) -> (StatusCode, serde_json::Value) {
        let app = Router::new().route("/", post(|ApiJson(_item): ApiJson<Item>| async { "ok" }));
        let mut request = Request::post("/");
        if let Some(content_type) = content_type {
            request = request.header(header::CONTENT_TYPE, content_type);
        }
        let response = app.oneshot(request.body(body.into()).unwrap()).await.unwrap();
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
        (status, serde_json::from_slice(&bytes).unwrap_or_default())
    }

    #[tokio::test]
    async fn a_field_of_the_wrong_type_is_named() {
        let (status, body) = send(Some("application/json"), r#"{"name":"Red","quantity":-1}"#).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(body["code"], "validation_failed");
        assert_eq!(body["fields"][0]["field"], "quantity");
    }

    #[tokio::test]
    async fn a_missing_field_is_a_validation_error() {
        let (status, body) = send(Some("application/json; charset=utf-8"), r#"{"quantity":2}"#).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(body["fields"][0]["message"].as_str().unwrap().contains("name"), "{body}");
    }

    #[tokio::test]
    async fn malformed_json_is_a_bad_request() {
        let (status, body) = send(Some("application/json"), r#"{"name": "#).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(body["code"], "invalid_json");
    }

    #[tokio::test]
    async fn a_body_without_a_json_content_type_is_refused() {
        let (status, body) = send(Some("text/plain"), r#"{"name":"Red","quantity":1}"#).await;
        assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
        assert_eq!(body["code"], "unsupported_media_type");
        let (status, _) = send(None, r#"{"name":"Red","quantity":1}"#).await;
        assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    }

    #[tokio::test]
    async fn a_valid_body_is_accepted() {
        let (status, _) = send(Some("application/vnd.api+json"), r#"{"name":"Red","quantity":1}"#).await;
        assert_eq!(status, StatusCode::OK);
    }
}
