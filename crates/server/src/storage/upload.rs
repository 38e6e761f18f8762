//! An upload's body, as storage-js sends it: the bytes alone, with their type in `Content-Type`,
//! their `Cache-Control` and the uploader's metadata in `x-metadata` (base64 JSON); or a
//! multipart form (a `Blob` or `File`), whose fields `cacheControl` (seconds), `metadata` (JSON)
//! and `contentType` come before the file part (named `""`).
//!
//! Each upload holds its file in memory until it is stored, so a server reads at most
//! [`Files::UPLOADS_AT_ONCE`] at once; the others wait their turn with their bodies unread, and
//! after [`TURN_WAIT`] answer 503 with `Retry-After`. A file over `--max-file-mb` answers 413,
//! from its `Content-Length` when it says, else as soon as the bytes read pass the limit. Its
//! SHA-256 is computed off the async workers ([`crate::blocking::HeavyWork`]). A body that sends
//! nothing for [`READ_IDLE`] is given up (408), so a stalled upload does not keep its turn.

use axum::{
    extract::{FromRequest, Multipart, Request},
    http::{HeaderMap, StatusCode, header},
};
use base64::{Engine as _, engine::general_purpose::STANDARD};
use futures_util::StreamExt as _;
use sha2::{Digest as _, Sha256};
use tokio::sync::OwnedSemaphorePermit;

use super::StorageError;
use crate::{
    error::AppError,
    state::{AppState, Files},
};

/// The longest an upload waits for its turn before it answers 503.
const TURN_WAIT: std::time::Duration = std::time::Duration::from_mins(1);

/// The longest an upload's body may send nothing before it is given up (408).
const READ_IDLE: std::time::Duration = std::time::Duration::from_secs(20);

/// The most bytes of the uploader's metadata kept with a file.
const MAX_METADATA_BYTES: usize = 8 * 1024;
/// The longest content type and cache header kept.
const MAX_HEADER_CHARS: usize = 255;

/// A file to store, read from the request, with its SHA-256.
#[derive(Debug)]
pub struct Upload {
    pub bytes: Vec<u8>,
    pub sha256: String,
    pub mimetype: String,
    pub cache_control: String,
    pub user_metadata: Option<String>,
    /// This upload's place among the uploads read at once, held until it is stored.
    _turn: OwnedSemaphorePermit,
}

impl FromRequest<AppState> for Upload {
    type Rejection = StorageError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        let files = &state.files;
        // Waiting costs no memory: the body stays unread until the turn comes.
        let turn = tokio::time::timeout(TURN_WAIT, std::sync::Arc::clone(&files.uploads).acquire_owned())
            .await
            .ok()
            .and_then(Result::ok)
            .ok_or(AppError::TryLater {
                message: "The server is receiving as many files as it takes at once.",
                retry_after: 5,
            })?;
        let limit = usize::try_from(files.file_bytes).unwrap_or(usize::MAX);
        let declared = request
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.parse::<u64>().ok());
        let is_form = request
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.starts_with("multipart/form-data"));
        let read = if is_form {
            from_form(request, state, limit).await?
        } else {
            if declared.is_some_and(|length| length > files.file_bytes) {
                return Err(too_large(files));
            }
            from_bytes(request, limit).await.map_err(|error| error.unwrap_or_else(|| too_large(files)))?
        };
        let Read { bytes, mimetype, cache_control, user_metadata } = read;
        if bytes.len() > limit {
            return Err(too_large(files));
        }
        let (bytes, sha256) = state
            .heavy_work
            .run(move || {
                let sha256 = format!("{:x}", Sha256::digest(&bytes));
                (bytes, sha256)
            })
            .await?;
        Ok(Self { bytes, sha256, mimetype, cache_control, user_metadata, _turn: turn })
    }
}

/// What an upload's body holds.
struct Read {
    bytes: Vec<u8>,
    mimetype: String,
    cache_control: String,
    user_metadata: Option<String>,
}

/// The bytes of a body that is the file itself; `Err(None)` when they pass `limit`.
async fn from_bytes(request: Request, limit: usize) -> Result<Read, Option<StorageError>> {
    let headers = request.headers().clone();
    let mut stream = request.into_body().into_data_stream();
    let mut bytes = Vec::new();
    while let Some(chunk) = tokio::time::timeout(READ_IDLE, stream.next()).await.map_err(|_| Some(idle()))? {
        let chunk = chunk.map_err(|error| Some(unreadable(&error)))?;
        if bytes.len() + chunk.len() > limit {
            return Err(None);
        }
        bytes.extend_from_slice(&chunk);
    }
    let mimetype =
        header_text(&headers, header::CONTENT_TYPE).unwrap_or_else(|| "application/octet-stream".to_owned());
    let cache_control =
        cache_control(headers.get(header::CACHE_CONTROL).and_then(|value| value.to_str().ok()));
    let user_metadata = match headers.get("x-metadata") {
        Some(value) => Some(
            STANDARD
                .decode(value.as_bytes())
                .ok()
                .and_then(|json| String::from_utf8(json).ok())
                .and_then(|json| metadata(&json).ok())
                .ok_or_else(|| {
                    Some(StorageError::invalid("InvalidRequest", "x-metadata is not base64 JSON."))
                })?,
        ),
        None => None,
    };
    Ok(Read { bytes, mimetype, cache_control, user_metadata })
}

/// The file part and fields of a multipart body.
async fn from_form(request: Request, state: &AppState, limit: usize) -> Result<Read, StorageError> {
    let mut form = Multipart::from_request(request, state).await.map_err(|error| unreadable(&error))?;
    let mut cache_control = None;
    let mut mimetype = None;
    let mut user_metadata = None;
    while let Some(mut field) = form.next_field().await.map_err(|error| unreadable(&error))? {
        if field.file_name().is_none() && field.name().is_some_and(|name| !name.is_empty()) {
            let name = field.name().unwrap_or_default().to_owned();
            let text = field.text().await.map_err(|error| unreadable(&error))?;
            match name.as_str() {
                "cacheControl" => cache_control = Some(format!("max-age={}", text.trim())),
                "contentType" => mimetype = Some(text),
                "metadata" => user_metadata = Some(metadata(&text)?),
                _ => {}
            }
            continue;
        }
        // The file: the first part with a file name, or the one named "".
        let part_type = field.content_type().map(str::to_owned);
        let mut bytes = Vec::new();
        while let Some(chunk) = tokio::time::timeout(READ_IDLE, field.chunk())
            .await
            .map_err(|_| idle())?
            .map_err(|error| unreadable(&error))?
        {
            if bytes.len() + chunk.len() > limit {
                return Err(too_large(&state.files));
            }
            bytes.extend_from_slice(&chunk);
        }
        let mimetype = mimetype.or(part_type).unwrap_or_else(|| "application/octet-stream".to_owned());
        return Ok(Read {
            bytes,
            mimetype: capped(mimetype),
            cache_control: self::cache_control(cache_control.as_deref()),
            user_metadata,
        });
    }
    Err(StorageError::invalid("InvalidRequest", "The form has no file."))
}

fn header_text(headers: &HeaderMap, name: header::HeaderName) -> Option<String> {
    headers.get(name).and_then(|value| value.to_str().ok()).map(|text| capped(text.to_owned()))
}

fn capped(mut text: String) -> String {
    if let Some((index, _)) = text.char_indices().nth(MAX_HEADER_CHARS) {
        text.truncate(index);
    }
    text
}

/// The uploader's metadata: JSON, at most [`MAX_METADATA_BYTES`].
fn metadata(json: &str) -> Result<String, StorageError> {
    if json.len() > MAX_METADATA_BYTES {
        return Err(StorageError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "EntityTooLarge",
            "The metadata is too large.",
        ));
    }
    serde_json::from_str::<serde_json::Value>(json)
        .map(|_| json.to_owned())
        .map_err(|_| StorageError::invalid("InvalidRequest", "The metadata is not JSON."))
}

/// How long a download may be kept: `max-age` of the upload's `Cache-Control` (`max-age=N`, or
/// the bare seconds of a form's `cacheControl`), at most a year, `no-cache` when it says so, else
/// an hour. Nothing else it says is kept: a team's file is always `private`.
fn cache_control(asked: Option<&str>) -> String {
    const YEAR: u64 = 365 * 24 * 3600;
    let Some(asked) = asked else { return "max-age=3600".to_owned() };
    if asked.contains("no-cache") || asked.contains("no-store") {
        return "no-cache".to_owned();
    }
    let seconds = asked
        .split(',')
        .find_map(|part| part.trim().strip_prefix("max-age=").and_then(|n| n.trim().parse::<u64>().ok()));
    format!("max-age={}", seconds.unwrap_or(3600).min(YEAR))
}

fn idle() -> StorageError {
    StorageError::new(
        StatusCode::REQUEST_TIMEOUT,
        "RequestTimeout",
        "The upload stopped sending; send it again.",
    )
}

fn too_large(files: &Files) -> StorageError {
    StorageError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "EntityTooLarge",
        format!("The object exceeded the maximum allowed size of {} MB.", files.file_bytes / 1_000_000),
    )
}

/// A body that could not be read: cut short, or a form that is not one.
fn unreadable(error: &dyn std::fmt::Display) -> StorageError {
    let message = error.to_string();
    if message.contains("length limit") {
        return StorageError::new(StatusCode::PAYLOAD_TOO_LARGE, "EntityTooLarge", message);
    }
    StorageError::invalid("InvalidRequest", format!("The upload could not be read: {message}"))
}

#[cfg(test)]
mod tests {
    use super::cache_control;

    #[test]
    fn a_download_keeps_only_how_long_it_may_be_kept() {
        assert_eq!(cache_control(None), "max-age=3600");
        assert_eq!(cache_control(Some("max-age=60")), "max-age=60");
        assert_eq!(cache_control(Some("public, max-age=31536000, immutable")), "max-age=31536000");
        assert_eq!(cache_control(Some("max-age=999999999999")), "max-age=31536000");
        assert_eq!(cache_control(Some("no-cache")), "no-cache");
        assert_eq!(cache_control(Some("public")), "max-age=3600");
    }
}
