//! The storage service area, `/storage/v1`: each team's files (its design library), served as
//! the Supabase Storage HTTP API, so that the official `@supabase/storage-js` client works
//! unmodified (docs/behaviour.md, "Files"). Each team is one bucket, named by the team's public
//! id; its members read, members and above write, viewers only read: the handlers take the
//! product API's team check ([`crate::extract::team`]), so another team's bucket answers 404
//! exactly as a missing one does, and its errors are reshaped into Storage's on the way out
//! ([`storage_errors`]). The bytes are in the database ([`crate::repo::storage`]).
//!
//! What storage-js calls, and how this answers it, follows Supabase Storage's own server; where
//! this differs (the HTTP status of errors, no public buckets, one bucket a team), the module
//! that does it says so.

pub mod designs;
mod error;
mod list;
mod signed;
mod upload;

use std::time::Duration;

use axum::{
    Json, Router,
    body::{Body, Bytes},
    extract::{DefaultBodyLimit, FromRequestParts, Path, Query, State},
    http::{HeaderMap, HeaderValue, StatusCode, header, request::Parts},
    middleware,
    response::{IntoResponse, Response},
    routing::{delete, get, post},
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use time::{OffsetDateTime, format_description::well_known::Rfc3339};
use tower::ServiceBuilder;
use tower_http::timeout::TimeoutLayer;

pub use error::{StorageError, storage_errors};
use upload::Upload;

use crate::{
    entity::{storage_object, team},
    extract::{self, ApiJson, Edit, InTeam, MyTeams, TeamEditor, TeamViewer},
    repo::{self, storage::NewObject},
    routes::cross_site,
    state::{AppState, Files},
};

/// How long a storage request may take: an upload of the largest file over a slow connection
/// takes minutes, not the API's seconds.
const STORAGE_TIMEOUT: Duration = Duration::from_mins(10);

/// The storage service area's routes, under `/storage/v1`.
pub fn router(state: &AppState) -> Router<AppState> {
    // The largest upload: a file at the limit, in a multipart body with its fields.
    let body_limit = usize::try_from(state.files.file_bytes).unwrap_or(usize::MAX).saturating_add(64 * 1024);
    Router::new()
        .route("/bucket", get(list_buckets))
        .route("/bucket/{team_id}", get(get_bucket))
        .route("/object/list/{team_id}", post(list_objects))
        .route("/object/info/{team_id}/{*key}", get(info))
        .route("/object/info/authenticated/{team_id}/{*key}", get(info))
        .route("/object/move", post(move_object))
        .route("/object/copy", post(copy_object))
        .route("/object/sign/{team_id}", post(sign_many))
        .route("/object/sign/{team_id}/{*key}", post(sign).get(signed::download))
        .route("/object/authenticated/{team_id}/{*key}", get(download))
        .route("/object/{team_id}", delete(remove))
        .route("/object/{team_id}/{*key}", get(download).post(upload_new).put(upload_replacing))
        .layer(
            ServiceBuilder::new()
                // Outermost: every error answer, the layers' below included, in Storage's shape.
                .layer(middleware::map_response(storage_errors))
                .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, STORAGE_TIMEOUT))
                .layer(DefaultBodyLimit::max(body_limit))
                .layer(middleware::from_fn_with_state(state.clone(), cross_site::refuse_cross_site)),
        )
}

/// A bucket as Storage describes it: one a team, private, named by the team's public id.
fn bucket_json(team: &team::Model, files: &Files) -> Value {
    json!({
        "id": team.public_id,
        "name": team.public_id,
        "owner": "",
        "public": false,
        "type": "STANDARD",
        "file_size_limit": files.file_bytes,
        "allowed_mime_types": null,
        "created_at": timestamp(team.created_at),
        "updated_at": timestamp(team.updated_at),
    })
}

fn timestamp(at: OffsetDateTime) -> String {
    at.format(&Rfc3339).unwrap_or_default()
}

/// `GET /bucket`: a bucket for each of the caller's teams.
async fn list_buckets(State(state): State<AppState>, MyTeams(teams): MyTeams) -> Json<Vec<Value>> {
    Json(teams.iter().map(|joined| bucket_json(&joined.team, &state.files)).collect())
}

/// `GET /bucket/{id}`: the team's bucket.
async fn get_bucket(State(state): State<AppState>, member: TeamViewer) -> Json<Value> {
    Json(bucket_json(&member.team, &state.files))
}

/// The body of `POST /object/list/{bucket}`, as storage-js sends it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ListBody {
    #[serde(default)]
    prefix: String,
    limit: Option<u64>,
    #[serde(default)]
    offset: u64,
    sort_by: Option<SortBy>,
    #[serde(default)]
    search: String,
}

#[derive(Debug, Default, Deserialize)]
struct SortBy {
    #[serde(default)]
    column: list::Column,
    #[serde(default)]
    order: list::Order,
}

/// `POST /object/list/{bucket}`: the files and folders below a prefix (Storage's semantics:
/// [`list`]), 100 unless `limit` says, by name unless `sortBy` says.
async fn list_objects(
    State(state): State<AppState>,
    member: TeamViewer,
    ApiJson(body): ApiJson<ListBody>,
) -> Result<Json<Vec<Value>>, StorageError> {
    let objects = repo::storage::all(&state.db, member.team.id).await?;
    let sort = body.sort_by.unwrap_or_default();
    let limit = body.limit.unwrap_or(list::DEFAULT_LIMIT);
    if limit == 0 {
        return Err(StorageError::invalid("InvalidRequest", "body/limit must be >= 1"));
    }
    let entries =
        list::list(&objects, &body.prefix, &body.search, (sort.column, sort.order), body.offset, limit);
    Ok(Json(
        entries
            .into_iter()
            .map(|entry| match entry {
                list::Entry::Folder { name } => json!({
                    "name": name, "id": null, "updated_at": null, "created_at": null,
                    "last_accessed_at": null, "metadata": null,
                }),
                list::Entry::File { name, object } => json!({
                    "name": name,
                    "id": object.id,
                    "updated_at": timestamp(object.updated_at),
                    "created_at": timestamp(object.created_at),
                    "last_accessed_at": timestamp(object.updated_at),
                    "metadata": metadata(object),
                }),
            })
            .collect(),
    ))
}

/// An object's system metadata, as Storage lists it.
fn metadata(object: &repo::storage::Listed) -> Value {
    json!({
        "eTag": etag(&object.sha256),
        "size": object.size,
        "mimetype": object.mimetype,
        "cacheControl": object.cache_control,
        "lastModified": timestamp(object.updated_at),
        "contentLength": object.size,
        "httpStatusCode": 200,
    })
}

/// An object's entity tag: its content's SHA-256 (`sha256`) (Storage's is an MD5; clients only compare it).
pub fn etag(sha256: &str) -> String {
    format!("\"{sha256}\"")
}

/// Whether the request's `If-None-Match` names `etag` (or `*`): the client's copy is this one.
pub fn held(request: &HeaderMap, etag: &str) -> bool {
    request
        .get(header::IF_NONE_MATCH)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|tags| tags.split(',').any(|tag| tag.trim() == etag || tag.trim() == "*"))
}

/// `GET /object/info/{bucket}/{key}`: what is known of a file, without its bytes.
async fn info(
    State(state): State<AppState>,
    member: TeamViewer,
    Path((_, key)): Path<(String, String)>,
) -> Result<Json<Value>, StorageError> {
    let object = repo::storage::info(&state.db, member.team.id, &key).await?;
    Ok(Json(json!({
        "id": object.id,
        "name": object.name,
        "version": object.id,
        "bucket_id": member.team.public_id,
        "size": object.size,
        "content_type": object.mimetype,
        "cache_control": object.cache_control,
        "etag": etag(&object.sha256),
        "metadata": object.user_metadata.as_deref().and_then(|json| serde_json::from_str::<Value>(json).ok()),
        "last_modified": timestamp(object.updated_at),
        "created_at": timestamp(object.created_at),
        // Bobbin's own: what the file is as a design (`designs`).
        "design": designs::shown(object.design.as_deref()),
    })))
}

/// What an upload answers.
#[derive(Debug, Serialize)]
struct Uploaded {
    #[serde(rename = "Id")]
    id: crate::entity::ids::ObjectId,
    #[serde(rename = "Key")]
    key: String,
}

/// `POST /object/{bucket}/{key}`: a new file; with `x-upsert: true`, or a file replacing the one
/// of that key.
async fn upload_new(
    State(state): State<AppState>,
    member: TeamEditor,
    Path((_, key)): Path<(String, String)>,
    headers: HeaderMap,
    upload: Upload,
) -> Result<Json<Uploaded>, StorageError> {
    let upsert = headers.get("x-upsert").is_some_and(|value| value.as_bytes() == b"true");
    store(&state, &member, &key, upload, upsert).await
}

/// `PUT /object/{bucket}/{key}`: a file, replacing the one of that key if there is one.
async fn upload_replacing(
    State(state): State<AppState>,
    member: TeamEditor,
    Path((_, key)): Path<(String, String)>,
    upload: Upload,
) -> Result<Json<Uploaded>, StorageError> {
    store(&state, &member, &key, upload, true).await
}

async fn store(
    state: &AppState,
    member: &InTeam<Edit>,
    key: &str,
    upload: Upload,
    upsert: bool,
) -> Result<Json<Uploaded>, StorageError> {
    let key = object_key(key)?;
    let Upload { bytes, sha256, mimetype, cache_control, user_metadata, .. } = upload;
    let read_as = key.clone();
    let (bytes, designs::Described { design, preview }) = state
        .heavy_work
        .run(move || {
            let described = designs::describe(&bytes, &read_as);
            (bytes, described)
        })
        .await?;
    let object = NewObject {
        name: key.clone(),
        bytes,
        sha256,
        mimetype,
        cache_control,
        user_metadata,
        design,
        preview,
    };
    let stored =
        repo::storage::put(&state.db, member.team.id, member.user.id, object, upsert, state.files.team_bytes)
            .await?;
    Ok(Json(Uploaded { id: stored.id, key: format!("{}/{key}", member.team.public_id) }))
}

/// `GET /object/{bucket}/{key}` (and `/object/authenticated/…`): the file's bytes.
async fn download(
    State(state): State<AppState>,
    member: TeamViewer,
    Path((_, key)): Path<(String, String)>,
    Query(query): Query<DownloadQuery>,
    headers: HeaderMap,
) -> Result<Response, StorageError> {
    let object = repo::storage::info(&state.db, member.team.id, &key).await?;
    // Kept by the browser, but asked again each time it is used (a 304 when unchanged): every
    // use passes the team check, so the next person at the same browser gets nothing of it.
    Ok(file_answer(
        &state,
        object,
        &headers,
        query.download.as_deref(),
        Some(HeaderValue::from_static("private, no-cache")),
    ))
}

/// The pieces a download is read and sent in.
const PIECE_BYTES: u64 = 256 * 1024;

/// The content of `object`, read from the database a piece at a time as the client takes it: a
/// slow reader holds one piece in memory, not the file.
fn content(state: &AppState, object: storage_object::Model) -> Body {
    let size = u64::try_from(object.size).unwrap_or(0);
    let db = state.db.clone();
    let pieces = futures_util::stream::try_unfold(0_u64, move |offset| {
        let (db, object) = (db.clone(), object.clone());
        async move {
            if offset >= size {
                return Ok(None);
            }
            let piece = repo::storage::piece(&db, &object, offset, PIECE_BYTES).await?;
            if piece.is_empty() {
                return Err(repo::RepoError::Broken(anyhow::anyhow!("object {} ended early", object.id)));
            }
            let next = offset + u64::try_from(piece.len()).unwrap_or(u64::MAX);
            Ok(Some((Bytes::from(piece), next)))
        }
    });
    Body::from_stream(pieces)
}

#[derive(Debug, Deserialize)]
struct DownloadQuery {
    /// Present: the browser saves the file (under this name, when not empty).
    download: Option<String>,
}

/// The content types a browser may show in place: pictures that cannot run script. Anything
/// else (SVG and HTML among them, which could run script in Bobbin's pages' origin) is sent as
/// an attachment, and every file with a policy that lets nothing in it run.
const SHOWN_IN_PLACE: [&str; 4] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/// A file's bytes as a download answers them: its type, validators and cache header; 304 when
/// the client's copy is this one.
fn file_answer(
    state: &AppState,
    object: storage_object::Model,
    request: &HeaderMap,
    download: Option<&str>,
    cache_control: Option<HeaderValue>,
) -> Response {
    let etag = etag(&object.sha256);
    let mut headers = HeaderMap::new();
    if let Ok(value) = HeaderValue::try_from(&etag) {
        headers.insert(header::ETAG, value);
    }
    if let Ok(value) = HeaderValue::try_from(httpdate(object.updated_at)) {
        headers.insert(header::LAST_MODIFIED, value);
    }
    if let Some(value) = cache_control {
        headers.insert(header::CACHE_CONTROL, value);
    }
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("default-src 'none'; sandbox"));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    // Not for another site's page to embed (the cookie goes with same-site requests).
    headers.insert("cross-origin-resource-policy", HeaderValue::from_static("same-origin"));
    if held(request, &etag) {
        return (StatusCode::NOT_MODIFIED, headers).into_response();
    }
    let in_place = SHOWN_IN_PLACE.contains(&object.mimetype.as_str()) && download.is_none();
    let content_type = HeaderValue::try_from(&object.mimetype)
        .unwrap_or_else(|_| HeaderValue::from_static("application/octet-stream"));
    headers.insert(header::CONTENT_TYPE, content_type);
    if !in_place {
        let name = download.filter(|name| !name.is_empty()).unwrap_or_else(|| file_name(&object.name));
        headers.insert(header::CONTENT_DISPOSITION, attachment(name));
    }
    if let Ok(value) = HeaderValue::try_from(object.size.to_string()) {
        headers.insert(header::CONTENT_LENGTH, value);
    }
    (StatusCode::OK, headers, content(state, object)).into_response()
}

/// The last segment of a key.
fn file_name(key: &str) -> &str {
    key.rsplit('/').next().unwrap_or(key)
}

/// `attachment` with the file's name, in plain ASCII and in full (RFC 6266).
fn attachment(name: &str) -> HeaderValue {
    let ascii: String = name
        .chars()
        .map(|c| if c.is_ascii_graphic() && c != '"' && c != '\\' || c == ' ' { c } else { '_' })
        .collect();
    let encoded: String =
        url::form_urlencoded::byte_serialize(name.as_bytes()).collect::<String>().replace('+', "%20");
    HeaderValue::try_from(format!("attachment; filename=\"{ascii}\"; filename*=UTF-8''{encoded}"))
        .unwrap_or_else(|_| HeaderValue::from_static("attachment"))
}

/// An HTTP date (RFC 9110, IMF-fixdate).
fn httpdate(at: OffsetDateTime) -> String {
    let format = time::macros::format_description!(
        "[weekday repr:short], [day] [month repr:short] [year] [hour]:[minute]:[second] GMT"
    );
    at.to_offset(time::UtcOffset::UTC).format(&format).unwrap_or_default()
}

/// The body of `DELETE /object/{bucket}`: the keys to remove (storage-js calls them prefixes).
#[derive(Debug, Deserialize)]
struct RemoveBody {
    prefixes: Vec<RemovedKey>,
}

/// A key to remove: a string, or (newer storage-js) an object with its `path`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum RemovedKey {
    Key(String),
    Versioned { path: String },
}

/// The most keys one removal names (Storage's own limit).
const MAX_REMOVED: usize = 1_000;

/// `DELETE /object/{bucket}`: removes the files of these keys; answers those it removed.
async fn remove(
    State(state): State<AppState>,
    member: TeamEditor,
    ApiJson(body): ApiJson<RemoveBody>,
) -> Result<Json<Vec<Value>>, StorageError> {
    if body.prefixes.is_empty() || body.prefixes.len() > MAX_REMOVED {
        return Err(StorageError::invalid(
            "InvalidRequest",
            format!("Name 1 to {MAX_REMOVED} files to remove."),
        ));
    }
    let keys: Vec<String> = body
        .prefixes
        .into_iter()
        .map(|key| match key {
            RemovedKey::Key(key) | RemovedKey::Versioned { path: key } => key,
        })
        .collect();
    let removed = repo::storage::remove(&state.db, member.team.id, &keys).await?;
    Ok(Json(
        removed
            .iter()
            .map(|object| {
                json!({
                    "name": object.name,
                    "bucket_id": member.team.public_id,
                    "id": object.id,
                    "updated_at": timestamp(object.updated_at),
                    "created_at": timestamp(object.created_at),
                    "last_accessed_at": timestamp(object.updated_at),
                    "metadata": metadata(object),
                })
            })
            .collect(),
    ))
}

/// The body of `POST /object/move` and `/object/copy`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct MoveBody {
    bucket_id: String,
    source_key: String,
    destination_key: String,
    destination_bucket: Option<String>,
}

/// The source and destination buckets of a move or copy, each checked as [`TeamEditor`] checks
/// the path's: a member whose role may write to both. Their names are in the body, not the path.
async fn both_buckets(
    state: &AppState,
    parts_token: &str,
    body: &MoveBody,
) -> Result<(InTeam<Edit>, InTeam<Edit>), StorageError> {
    let from = InTeam::<Edit>::of(state, parts_token, &body.bucket_id).await?;
    let to = match body.destination_bucket.as_deref() {
        Some(bucket) if bucket != body.bucket_id => InTeam::<Edit>::of(state, parts_token, bucket).await?,
        _ => from.clone(),
    };
    Ok((from, to))
}

/// The access token of a storage request: the bearer token, or the auth cookie's.
#[derive(Debug)]
pub struct AccessToken(String);

impl FromRequestParts<AppState> for AccessToken {
    type Rejection = crate::error::AppError;

    async fn from_request_parts(parts: &mut Parts, _: &AppState) -> Result<Self, Self::Rejection> {
        extract::access_token(parts).map(Self)
    }
}

/// `POST /object/move`: gives a file a new key, in its bucket or another the caller writes to.
async fn move_object(
    State(state): State<AppState>,
    AccessToken(token): AccessToken,
    ApiJson(body): ApiJson<MoveBody>,
) -> Result<Json<Value>, StorageError> {
    let (from, to) = both_buckets(&state, &token, &body).await?;
    let destination = object_key(&body.destination_key)?;
    repo::storage::rename(
        &state.db,
        (from.team.id, &body.source_key),
        (to.team.id, &destination),
        state.files.team_bytes,
    )
    .await?;
    Ok(Json(json!({ "message": "Successfully moved" })))
}

/// `POST /object/copy`: a new file with another's content (no bytes are copied).
async fn copy_object(
    State(state): State<AppState>,
    AccessToken(token): AccessToken,
    ApiJson(body): ApiJson<MoveBody>,
) -> Result<Json<Value>, StorageError> {
    let (from, to) = both_buckets(&state, &token, &body).await?;
    let destination = object_key(&body.destination_key)?;
    let copied = repo::storage::copy(
        &state.db,
        (from.team.id, &body.source_key),
        (to.team.id, &destination),
        to.user.id,
        state.files.team_bytes,
    )
    .await?;
    Ok(Json(json!({ "Id": copied.id, "Key": format!("{}/{destination}", to.team.public_id) })))
}

/// `POST /object/sign/{bucket}/{key}`: a URL that downloads this one file, without signing in,
/// for `expiresIn` seconds.
async fn sign(
    State(state): State<AppState>,
    member: TeamViewer,
    Path((_, key)): Path<(String, String)>,
    ApiJson(body): ApiJson<signed::SignBody>,
) -> Result<Json<Value>, StorageError> {
    let object = repo::storage::info(&state.db, member.team.id, &key).await?;
    let url = signed::url(&state, &member.team.public_id, &object, body.expires_in()?)?;
    Ok(Json(json!({ "signedURL": url })))
}

/// `POST /object/sign/{bucket}`: [`sign`] for several files at once; a file that is not there
/// has an error of its own, in the order asked.
async fn sign_many(
    State(state): State<AppState>,
    member: TeamViewer,
    ApiJson(body): ApiJson<signed::SignManyBody>,
) -> Result<Json<Vec<Value>>, StorageError> {
    let expires_in = body.expires_in()?;
    let mut answers = Vec::with_capacity(body.paths.len());
    for path in &body.paths {
        answers.push(match repo::storage::info(&state.db, member.team.id, path).await {
            Ok(object) => {
                let url = signed::url(&state, &member.team.public_id, &object, expires_in)?;
                json!({ "error": null, "path": path, "signedURL": url })
            }
            Err(repo::RepoError::NotFound(_)) => json!({
                "error": "Either the object does not exist or you do not have access to it",
                "path": path,
                "signedURL": null,
            }),
            Err(other) => return Err(other.into()),
        });
    }
    Ok(Json(answers))
}

/// Whether `c` changes the direction of the text after it (a name `rtl\u{202E}gpj.exe` shows as
/// `rtlexe.jpg`).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The longest key of a file, in bytes.
const MAX_KEY_BYTES: usize = 1_024;

/// A key as the bucket stores it: not empty, at most [`MAX_KEY_BYTES`], no control or direction
/// character, no backslash, `?` or `#` (which would end the path of a signed URL), no empty, `.`
/// or `..` segment (so no leading, trailing or doubled `/`).
fn object_key(key: &str) -> Result<String, StorageError> {
    let valid = !key.is_empty()
        && key.len() <= MAX_KEY_BYTES
        && !key.chars().any(|c| c.is_control() || matches!(c, '\\' | '?' | '#') || is_bidi_control(c))
        && key.split('/').all(|segment| !segment.is_empty() && segment != "." && segment != "..");
    if valid {
        Ok(key.to_owned())
    } else {
        Err(StorageError::invalid("InvalidKey", format!("Invalid key: {key}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_paths_without_empty_or_dot_segments() {
        for good in ["logo.dst", "customers/Acme/logo v2.pes", "Rosé.jef"] {
            assert_eq!(object_key(good).unwrap(), good);
        }
        for bad in [
            "",
            "/logo.dst",
            "a//b",
            "a/",
            "../x",
            "a/./b",
            "a\\b",
            "a\nb",
            "a?b",
            "a#b",
            "rtl\u{202E}gpj.exe",
            &"x".repeat(1_025),
        ] {
            assert!(object_key(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn an_attachment_names_the_file_safely() {
        assert_eq!(
            attachment("Rosé \"logo\".dst"),
            HeaderValue::from_static(
                "attachment; filename=\"Ros_ _logo_.dst\"; filename*=UTF-8''Ros%C3%A9%20%22logo%22.dst"
            )
        );
    }

    #[test]
    fn http_dates_are_imf_fixdate() {
        let at = OffsetDateTime::from_unix_timestamp(784_111_777).unwrap();
        assert_eq!(httpdate(at), "Sun, 06 Nov 1994 08:49:37 GMT");
    }
}
