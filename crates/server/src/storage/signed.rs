//! Signed URLs: a link that downloads one file without signing in, until it expires. The token
//! in it is signed with the server's token key (ES256, as the access tokens; another audience,
//! so neither can stand for the other) and names the bucket, the key, the object's id and its
//! content's SHA-256: it grants downloading that one file as it was, and stops working when the
//! file is removed, moved or replaced. Storage's own tokens are HS256 with the project's secret
//! and name the path alone; storage-js never reads them.

use axum::{
    extract::{Path, Query, State},
    http::{HeaderMap, HeaderValue, StatusCode},
    response::Response,
};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use super::{StorageError, file_answer, httpdate};
use crate::{
    entity::{ids::ObjectId, storage_object},
    repo,
    state::AppState,
};

/// The audience of a signed URL's token.
const AUDIENCE: &str = "storage-download";
/// The longest a signed URL may last: a year.
const MAX_EXPIRES_IN: u64 = 365 * 24 * 3600;

#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    iss: String,
    aud: String,
    iat: i64,
    exp: i64,
    /// `{bucket}/{key}`, as Storage's tokens name it.
    url: String,
    /// The object the URL was made for.
    object: ObjectId,
    /// Its content then.
    sha256: String,
}

/// The body of `POST /object/sign/{bucket}/{key}`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SignBody {
    expires_in: u64,
}

impl SignBody {
    pub fn expires_in(&self) -> Result<u64, StorageError> {
        checked(self.expires_in)
    }
}

/// The body of `POST /object/sign/{bucket}`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SignManyBody {
    expires_in: u64,
    pub paths: Vec<String>,
}

/// The most files one request signs.
const MAX_SIGNED: usize = 1_000;

impl SignManyBody {
    pub fn expires_in(&self) -> Result<u64, StorageError> {
        if self.paths.is_empty() || self.paths.len() > MAX_SIGNED {
            return Err(StorageError::invalid(
                "InvalidRequest",
                format!("Name 1 to {MAX_SIGNED} files to sign."),
            ));
        }
        checked(self.expires_in)
    }
}

fn checked(expires_in: u64) -> Result<u64, StorageError> {
    if (1..=MAX_EXPIRES_IN).contains(&expires_in) {
        Ok(expires_in)
    } else {
        Err(StorageError::invalid(
            "InvalidRequest",
            format!("expiresIn must be 1 to {MAX_EXPIRES_IN} seconds."),
        ))
    }
}

/// The signed URL of `object` in `bucket`, valid `expires_in` seconds, as Storage answers it:
/// a path below `/storage/v1` with the token in its query.
pub fn url(
    state: &AppState,
    bucket: &str,
    object: &storage_object::Model,
    expires_in: u64,
) -> Result<String, StorageError> {
    let now = OffsetDateTime::now_utc().unix_timestamp();
    let keys = &state.auth.keys;
    let claims = Claims {
        iss: keys.issuer().to_owned(),
        aud: AUDIENCE.to_owned(),
        iat: now,
        exp: now.saturating_add(i64::try_from(expires_in).unwrap_or(i64::MAX)),
        url: format!("{bucket}/{}", object.name),
        object: object.id,
        sha256: object.sha256.clone(),
    };
    let token = keys.sign_for(&claims).map_err(|error| StorageError::App(error.into()))?;
    Ok(format!("/object/sign/{bucket}/{}?token={token}", object.name))
}

#[derive(Debug, Deserialize)]
pub struct SignedQuery {
    token: String,
    download: Option<String>,
}

/// `GET /object/sign/{bucket}/{key}?token=`: the file a signed URL names, to anyone who has the
/// URL, until it expires. A token for another file, expired or forged answers 400 `InvalidJWT`
/// or `InvalidSignature`, as Storage's; a file gone, moved or replaced since answers 404.
pub async fn download(
    State(state): State<AppState>,
    Path((bucket, key)): Path<(String, String)>,
    Query(query): Query<SignedQuery>,
    headers: HeaderMap,
) -> Result<Response, StorageError> {
    let claims: Claims = state
        .auth
        .keys
        .verify_for(&query.token, AUDIENCE)
        .map_err(|error| StorageError::invalid("InvalidJWT", token_refusal(&error)))?;
    if claims.url != format!("{bucket}/{key}") {
        return Err(StorageError::invalid("InvalidSignature", "Invalid signature"));
    }
    let team =
        repo::teams::by_public_or_id(&state.db, &bucket).await?.ok_or_else(StorageError::no_such_key)?;
    let object = repo::storage::signed(&state.db, team.id, &key, (claims.object, &claims.sha256)).await?;
    let mut answer = file_answer(&state, object, &headers, query.download.as_deref(), None);
    if answer.status() == StatusCode::OK || answer.status() == StatusCode::NOT_MODIFIED {
        let expires = OffsetDateTime::from_unix_timestamp(claims.exp).unwrap_or(OffsetDateTime::UNIX_EPOCH);
        if let Ok(value) = HeaderValue::try_from(httpdate(expires)) {
            answer.headers_mut().insert(axum::http::header::EXPIRES, value);
        }
        answer.headers_mut().insert(axum::http::header::CACHE_CONTROL, HeaderValue::from_static("private"));
    }
    Ok(answer)
}

/// Why a token was refused, in a few words: expired, or not a valid signed URL (never the
/// parser's own words).
fn token_refusal(error: &jsonwebtoken::errors::Error) -> &'static str {
    match error.kind() {
        jsonwebtoken::errors::ErrorKind::ExpiredSignature => "This signed URL has expired.",
        _ => "This is not a valid signed URL.",
    }
}
