//! Request extractors. [`ApiJson`] replaces axum's `Json` for request bodies so that every body
//! problem answers in the API's one error shape, with the path of the offending field; [`ApiQuery`]
//! and [`ApiPath`] do the same for query and path parameters, naming the parameter, where axum
//! answered a bare 400. [`AuthUser`] is the signed-in person of a product API request
//! ([`MyProfile`] before their second factor's code).

mod team;

pub use team::{Edit, InTeam, MyTeams, TEAM_NOT_FOUND, TeamAdmin, TeamEditor, TeamOwner, TeamViewer};

use axum::{
    body::Bytes,
    extract::{
        FromRequest, FromRequestParts, MatchedPath, Path, RawPathParams, Request,
        path::ErrorKind,
        rejection::{BytesRejection, PathRejection},
    },
    http::{HeaderMap, HeaderName, StatusCode, header, request::Parts},
    response::{IntoResponse as _, Response},
};
use std::str::FromStr;

use base64::{Engine as _, engine::general_purpose::URL_SAFE_NO_PAD};
use serde::de::DeserializeOwned;
use sha2::{Digest as _, Sha256};

use crate::{
    auth::{
        error::AuthError,
        extract::{CurrentSession, bearer, from_access_token, from_access_token_with_default_team},
    },
    entity::ids::{
        InvitePublicId, LogPublicId, MachinePublicId, ObjectId, QuotePublicId, ThreadPublicId, UserId,
    },
    error::{AppError, FieldError},
    repo::{
        RepoError, invites, machines, members, quotes, threads,
        write_keys::{self, Answer, WriteKey},
    },
    state::AppState,
};

/// What a repo function's refusal means to the API's caller: the edge of the data layer.
impl From<RepoError> for AppError {
    fn from(error: RepoError) -> Self {
        match error {
            RepoError::Database(error) => Self::Database(error),
            RepoError::NotFound(message) => Self::NotFound(message),
            RepoError::Refused { code, message } => Self::Rejected { code, message },
            RepoError::Conflict { code, message } => Self::Conflict { code, message },
            RepoError::TooLarge { field } => Self::Validation(vec![FieldError::new(
                &field,
                "out_of_range",
                "This number is too large to store.",
            )]),
            RepoError::Broken(error) => Self::Internal(error),
        }
    }
}

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
        parse(&body_bytes(request, state).await?).map(ApiJson)
    }
}

/// The request's body, within the route's limit.
async fn body_bytes<S: Send + Sync>(request: Request, state: &S) -> Result<Bytes, AppError> {
    Bytes::from_request(request, state).await.map_err(|rejection| match rejection {
        BytesRejection::FailedToBufferBody(error) if error.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            AppError::PayloadTooLarge
        }
        other => AppError::InvalidJson(other.body_text()),
    })
}

/// A JSON request body ([`ApiJson`]'s rules) of a write the client may send again, with the
/// `Idempotency-Key` it came with, if any ([`repo::write_keys`]). The key is kept with a digest
/// of the method, path and body, so the same key with another request is refused.
///
/// - a key that is empty, over 255 characters or not printable ASCII answers 422
///   `invalid_idempotency_key`.
#[derive(Debug, Clone)]
pub struct KeyedJson<T> {
    pub key: Option<WriteKey>,
    pub body: T,
}

/// The header a client names a write with, so that sending it again does it once.
pub const IDEMPOTENCY_KEY: &str = "idempotency-key";

impl<T, S> FromRequest<S> for KeyedJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let key = request.headers().get(IDEMPOTENCY_KEY).cloned();
        let asked = format!("{} {}", request.method(), request.uri().path());
        if !is_json(&request) {
            return Err(AppError::UnsupportedMediaType);
        }
        let bytes = body_bytes(request, state).await?;
        let body = parse(&bytes)?;
        let Some(key) = key else { return Ok(Self { key: None, body }) };
        let mut digest = Sha256::new();
        digest.update(asked.as_bytes());
        digest.update(b"\n");
        digest.update(&bytes);
        let request = format!("{:x}", digest.finalize());
        let key = key.to_str().ok().and_then(|key| WriteKey::new(key, request)).ok_or_else(|| {
            AppError::Rejected {
                code: "invalid_idempotency_key",
                message: format!(
                    "The Idempotency-Key header must be 1 to {} printable ASCII characters.",
                    write_keys::MAX_KEY_CHARS
                ),
            }
        })?;
        Ok(Self { key: Some(key), body })
    }
}

/// The `Idempotency-Key` header of a write the client may send again, in the OpenAPI document.
#[derive(Debug, utoipa::IntoParams)]
#[into_params(parameter_in = Header)]
pub struct IdempotencyKeyHeader {
    /// A new random key for each change (a UUID, say), sent again unchanged with every retry of
    /// it: the change is made once, and a retry within a day answers the first answer
    /// (`Idempotent-Replayed: true`). The same key with another request answers 422
    /// `idempotency_key_reused`.
    #[param(rename = "Idempotency-Key")]
    #[allow(dead_code, reason = "read by KeyedJson; here for the OpenAPI document")]
    idempotency_key: Option<String>,
}

/// The answer of a write made through [`repo::write_keys::once`]: `status` with the write's
/// answer, or with the answer first given to a retried write, marked `Idempotent-Replayed`.
pub fn answered<T: serde::Serialize>(status: StatusCode, answer: Answer<T>) -> Response {
    match answer {
        Answer::Made(body) => (status, axum::Json(body)).into_response(),
        Answer::Again(json) => (
            status,
            [
                (header::CONTENT_TYPE, "application/json"),
                (HeaderName::from_static("idempotent-replayed"), "true"),
            ],
            json,
        )
            .into_response(),
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
        let field = field_name(&error);
        let inner = error.into_inner();
        if inner.is_data() {
            AppError::Validation(vec![FieldError::new(field, "invalid", inner.to_string())])
        } else {
            AppError::InvalidJson(inner.to_string())
        }
    })
}

/// The failing field, or nothing for the whole value (which `serde_path_to_error` calls `.`).
fn field_name<E>(error: &serde_path_to_error::Error<E>) -> String {
    let path = error.path().to_string();
    if path == "." { String::new() } else { path }
}

/// The query string, parsed into `T`. A parameter that cannot be read (`per_page=-1`) or is
/// missing answers 422 `validation_failed` naming it, as a body field does; axum's `Query`
/// answered a bare 400.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiQuery<T>(pub T);

impl<T, S> FromRequestParts<S> for ApiQuery<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let query = parts.uri.query().unwrap_or_default();
        let deserializer = serde_urlencoded::Deserializer::new(url::form_urlencoded::parse(query.as_bytes()));
        serde_path_to_error::deserialize(deserializer).map(ApiQuery).map_err(|error| {
            let field = field_name(&error);
            let problem = error.into_inner().to_string();
            // A missing parameter fails the whole query rather than one field, so the path above
            // is empty; serde words that error `missing field `name`` whatever the format.
            match problem.strip_prefix("missing field `").and_then(|rest| rest.strip_suffix('`')) {
                Some(missing) if field.is_empty() => {
                    parameter_error("query", missing, "is missing", "required")
                }
                _ => parameter_error("query", &field, &format!("cannot be read: {problem}"), "invalid"),
            }
        })
    }
}

/// The path's parameters, parsed into `T`. A parameter that cannot be read (`%FF`, which decodes
/// to no UTF-8 text, or text that is not of the parameter's type) answers 422 `validation_failed`
/// naming it, as a query parameter does; axum's `Path` answered a bare 400. A route whose
/// parameters do not fit `T` is a bug: 500.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiPath<T>(pub T);

impl<T, S> FromRequestParts<S> for ApiPath<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let error = match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(value)) => return Ok(Self(value)),
            Err(PathRejection::FailedToDeserializePathParams(error)) => error.into_kind(),
            Err(rejection) => {
                return Err(AppError::Internal(anyhow::anyhow!(
                    "path parameters: {}",
                    rejection.body_text()
                )));
            }
        };
        let (name, problem) = match error {
            ErrorKind::InvalidUtf8InPathParam { key } => {
                (key, "cannot be read: it is not UTF-8 text once percent-decoded".to_owned())
            }
            ErrorKind::ParseErrorAtKey { key, value, expected_type } => {
                (key, format!("cannot be read: `{value}` is not a {expected_type}"))
            }
            ErrorKind::ParseErrorAtIndex { index, value, expected_type } => {
                (parameter_name(parts, index), format!("cannot be read: `{value}` is not a {expected_type}"))
            }
            ErrorKind::ParseError { value, expected_type } => {
                (parameter_name(parts, 0), format!("cannot be read: `{value}` is not a {expected_type}"))
            }
            ErrorKind::DeserializeError { key, message, .. } => (key, format!("cannot be read: {message}")),
            ErrorKind::Message(message) => (String::new(), format!("cannot be read: {message}")),
            other => return Err(AppError::Internal(anyhow::anyhow!("path parameters: {other}"))),
        };
        Err(parameter_error("path", &name, &problem, "invalid"))
    }
}

/// The name of the `index`th parameter of the route's path (`{thread_id}`), for the errors that
/// give a position rather than a name.
fn parameter_name(parts: &Parts, index: usize) -> String {
    parts
        .extensions
        .get::<MatchedPath>()
        .and_then(|route| {
            route
                .as_str()
                .split('/')
                .filter_map(|segment| segment.strip_prefix('{')?.strip_suffix('}'))
                .nth(index)
        })
        .unwrap_or_default()
        .to_owned()
}

/// A record named by the path's parameter `T::PARAM` (`{thread_id}`), parsed into its own id
/// type: a parameter that is not such an id names no record, and answers 404 with
/// `T::NOT_FOUND`, as a record that is not there does, before the record is looked for.
#[derive(Debug, Clone)]
pub struct PathId<T>(pub T);

/// An id type a path names a record by ([`PathId`]).
pub trait InPath: FromStr {
    /// The path parameter's name.
    const PARAM: &'static str;
    /// What a missing record answers.
    const NOT_FOUND: &'static str;
}

impl<T: InPath + Send, S: Send + Sync> FromRequestParts<S> for PathId<T> {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let not_found = || AppError::NotFound(T::NOT_FOUND.to_owned());
        let params = RawPathParams::from_request_parts(parts, state).await.map_err(|_| not_found())?;
        let (_, value) = params.iter().find(|(name, _)| *name == T::PARAM).ok_or_else(|| {
            AppError::Internal(anyhow::anyhow!("the route has no path parameter `{}`", T::PARAM))
        })?;
        value.parse().map(Self).map_err(|_| not_found())
    }
}

impl InPath for ThreadPublicId {
    const PARAM: &'static str = "thread_id";
    const NOT_FOUND: &'static str = threads::NOT_FOUND;
}

impl InPath for MachinePublicId {
    const PARAM: &'static str = "machine_id";
    const NOT_FOUND: &'static str = machines::NOT_FOUND;
}

impl InPath for LogPublicId {
    const PARAM: &'static str = "entry_id";
    const NOT_FOUND: &'static str = machines::LOG_ENTRY_NOT_FOUND;
}

impl InPath for QuotePublicId {
    const PARAM: &'static str = "quote_id";
    const NOT_FOUND: &'static str = quotes::NOT_FOUND;
}

/// A design of the team's library: a file of its bucket, by the id the storage service area
/// gives it.
impl InPath for ObjectId {
    const PARAM: &'static str = "design_id";
    const NOT_FOUND: &'static str = crate::repo::storage::NO_DESIGN;
}

impl InPath for crate::entity::ids::JobPublicId {
    const PARAM: &'static str = "job_id";
    const NOT_FOUND: &'static str = crate::repo::jobs::NOT_FOUND;
}

impl InPath for crate::entity::ids::StockChangePublicId {
    const PARAM: &'static str = "change_id";
    const NOT_FOUND: &'static str = crate::repo::stock::NOT_FOUND;
}

impl InPath for crate::entity::ids::OrderPublicId {
    const PARAM: &'static str = "order_id";
    const NOT_FOUND: &'static str = crate::repo::stock::ORDER_NOT_FOUND;
}

impl InPath for InvitePublicId {
    const PARAM: &'static str = "invite_id";
    const NOT_FOUND: &'static str = invites::NOT_FOUND;
}

impl InPath for UserId {
    const PARAM: &'static str = "user_id";
    const NOT_FOUND: &'static str = members::NOT_A_MEMBER;
}

/// 422 `validation_failed` naming a query or path parameter (`place`) in `fields` and in words.
fn parameter_error(place: &str, name: &str, problem: &str, code: &str) -> AppError {
    let message = if name.is_empty() {
        format!("The {place} {problem}.")
    } else {
        format!("The {place} parameter `{name}` {problem}.")
    };
    AppError::Validation(vec![FieldError::new(name, code, message)])
}

/// The name of the auth cookie the browser client (`@supabase/ssr`) keeps the session in; the
/// app configures the client with the same name (`app-react/src/lib/auth.ts`).
pub const AUTH_COOKIE: &str = "sb-bobbin-auth-token";

/// The signed-in person of a product API request, from the bearer token or else the auth
/// cookie. The token's signature, expiry and session are checked on every request; the user
/// object the cookie also holds is never trusted.
///
/// A person with a verified authenticator app must have entered its code in this session
/// (`aal2`): a password alone answers 401 `insufficient_aal`, whatever the endpoint, so a stolen
/// password is not enough. The one endpoint the app needs before the code, the profile, takes
/// [`MyProfile`] instead.
#[derive(Debug, Clone)]
pub struct AuthUser(pub CurrentSession);

impl FromRequestParts<AppState> for AuthUser {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let token = access_token(parts)?;
        let current = from_access_token(state, &token).await.map_err(|error| session_refused(&error))?;
        Ok(Self(with_second_factor(current)?))
    }
}

/// `current`, unless they have a verified authenticator app whose code this session lacks.
pub(crate) fn with_second_factor(current: CurrentSession) -> Result<CurrentSession, AppError> {
    if !current.is_aal2() && current.has_verified_factor {
        return Err(AppError::InsufficientAal);
    }
    Ok(current)
}

/// Signed in, perhaps still without the second factor's code, with the public id of their
/// default team (while they are still its member) read in the same query: the profile
/// (`GET /users/me`), which the app reads to know whom to ask for that code. Everything else takes
/// [`AuthUser`].
#[derive(Debug, Clone)]
pub struct MyProfile {
    pub current: CurrentSession,
    pub default_team_pid: Option<String>,
}

impl FromRequestParts<AppState> for MyProfile {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let token = access_token(parts)?;
        let (current, default_team_pid) = from_access_token_with_default_team(state, &token)
            .await
            .map_err(|error| session_refused(&error))?;
        Ok(Self { current, default_team_pid })
    }
}

/// The access token of a product API request: the bearer token, or else the auth cookie's.
pub(crate) fn access_token(parts: &Parts) -> Result<String, AppError> {
    match bearer(&parts.headers) {
        Some(token) => Ok(token.to_owned()),
        None => access_token_from_cookies(&parts.headers)
            .ok_or_else(|| AppError::Unauthorized("Sign in to continue.".to_owned())),
    }
}

/// The answer to a request whose access token the auth service refused: 401, or the database's
/// failure as it is.
pub(crate) fn session_refused(error: &AuthError) -> AppError {
    if error.status.is_server_error() {
        AppError::from_auth(error, "checking an access token")
    } else {
        AppError::Unauthorized("Your session has ended. Sign in again.".to_owned())
    }
}

/// The access token inside the chunked auth cookie: `name`, or `name.0`, `name.1`, ... joined
/// in order; the value is the session JSON, optionally `base64-` and base64url encoded.
fn access_token_from_cookies(headers: &HeaderMap) -> Option<String> {
    let mut whole: Option<String> = None;
    let mut chunks: Vec<(usize, String)> = Vec::new();
    for header in headers.get_all(header::COOKIE) {
        let Ok(header) = header.to_str() else { continue };
        for cookie in cookie::Cookie::split_parse_encoded(header).flatten() {
            let name = cookie.name();
            if name == AUTH_COOKIE {
                whole = Some(cookie.value().to_owned());
            } else if let Some(index) = name
                .strip_prefix(AUTH_COOKIE)
                .and_then(|rest| rest.strip_prefix('.'))
                .and_then(|index| index.parse::<usize>().ok())
            {
                chunks.push((index, cookie.value().to_owned()));
            }
        }
    }
    let value = whole.or_else(|| {
        chunks.sort_by_key(|(index, _)| *index);
        // Chunks must run 0, 1, 2... without a gap, or the value is incomplete.
        let complete = chunks.iter().enumerate().all(|(expected, (index, _))| expected == *index);
        (complete && !chunks.is_empty()).then(|| chunks.into_iter().map(|(_, chunk)| chunk).collect())
    })?;
    let json = match value.strip_prefix("base64-") {
        Some(encoded) => {
            String::from_utf8(URL_SAFE_NO_PAD.decode(encoded.trim_end_matches('=')).ok()?).ok()?
        }
        None => value,
    };
    let session: serde_json::Value = serde_json::from_str(&json).ok()?;
    session.get("access_token")?.as_str().map(str::to_owned)
}

/// Whether the request carries the auth cookie (whole or chunked), valid or not: then the
/// browser sent it on its own, and a request from another site's page could ride on it.
pub fn has_auth_cookie(headers: &HeaderMap) -> bool {
    headers.get_all(header::COOKIE).iter().filter_map(|value| value.to_str().ok()).any(|value| {
        cookie::Cookie::split_parse_encoded(value).flatten().any(|cookie| {
            let name = cookie.name();
            name == AUTH_COOKIE || name.strip_prefix(AUTH_COOKIE).is_some_and(|rest| rest.starts_with('.'))
        })
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

    fn parts_with_cookies(cookies: &str) -> Parts {
        Request::get("/").header(header::COOKIE, cookies).body(()).unwrap().into_parts().0
    }

    #[test]
    fn the_access_token_is_read_from_chunked_base64_cookies() {
        let session = r#"{"access_token":"eyJ.token.sig","refresh_token":"r","user":{"id":"forged"}}"#;
        let encoded = format!("base64-{}", URL_SAFE_NO_PAD.encode(session));
        let (first, second) = encoded.split_at(20);
        let parts =
            parts_with_cookies(&format!("other=1; {AUTH_COOKIE}.1={second}; {AUTH_COOKIE}.0={first}"));
        assert_eq!(access_token_from_cookies(&parts.headers).as_deref(), Some("eyJ.token.sig"));
    }

    #[test]
    fn a_single_plain_cookie_works_and_a_gap_in_the_chunks_does_not() {
        let parts = parts_with_cookies(&format!(r#"{AUTH_COOKIE}={{"access_token":"abc"}}"#));
        assert_eq!(access_token_from_cookies(&parts.headers).as_deref(), Some("abc"));
        let parts = parts_with_cookies(&format!("{AUTH_COOKIE}.0=base64-eyJh; {AUTH_COOKIE}.2=xyz"));
        assert_eq!(access_token_from_cookies(&parts.headers), None);
        assert_eq!(access_token_from_cookies(&parts_with_cookies("sb-other-auth-token=x").headers), None);
    }

    #[tokio::test]
    async fn a_valid_body_is_accepted() {
        let (status, _) = send(Some("application/vnd.api+json"), r#"{"name":"Red","quantity":1}"#).await;
        assert_eq!(status, StatusCode::OK);
    }
}
