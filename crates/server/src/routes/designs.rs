//! The team's design library as the app's screens read it, beside the files themselves
//! (`/storage/v1`, `crate::storage`): a design's preview, drawn by the server when the file came.

use axum::{
    extract::State,
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse as _, Response},
};

use crate::{
    entity::ids::ObjectId,
    error::{AppError, ErrorBody},
    extract::{PathId, TeamViewer},
    repo::{self, RepoError, storage::NO_DESIGN as NO_PREVIEW},
    state::AppState,
    storage,
};

/// A design's preview (any member): an SVG of its stitches, each colour block in its colour, as
/// the pricing page draws a design. The browser keeps it and asks again with its `ETag` (the
/// file's content) each time, so a grid of designs downloads each once.
#[utoipa::path(
    get, path = "/teams/{team_id}/designs/{design_id}/preview.svg", operation_id = "design_preview", tag = "designs",
    params(("design_id" = String, Path, description = "The file's id, as the storage service area gives it (`Id`)")),
    responses(
        (status = 200, description = "The preview", content_type = "image/svg+xml", body = String),
        (status = 304, description = "The copy the client holds is this one"),
        (status = 404, description = "No such file in this team, or no design Bobbin can read", body = ErrorBody),
    ),
)]
pub async fn preview(
    State(state): State<AppState>,
    member: TeamViewer,
    PathId(design_id): PathId<ObjectId>,
    request: HeaderMap,
) -> Result<Response, AppError> {
    let object =
        repo::storage::by_id(&state.db, member.team.id, design_id).await.map_err(|error| match error {
            RepoError::NotFound(_) => AppError::NotFound(NO_PREVIEW.to_owned()),
            other => other.into(),
        })?;
    let etag = storage::etag(&object);
    let svg = object.preview.ok_or_else(|| AppError::NotFound(NO_PREVIEW.to_owned()))?;
    let mut headers = HeaderMap::new();
    // Kept by the browser, asked again each time (a 304 while unchanged): every use passes the
    // team check, so the next person at the same browser is shown nothing of it.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("private, no-cache"));
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("default-src 'none'; sandbox"));
    if let Ok(value) = HeaderValue::try_from(&etag) {
        headers.insert(header::ETAG, value);
    }
    if storage::held(&request, &etag) {
        return Ok((StatusCode::NOT_MODIFIED, headers).into_response());
    }
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("image/svg+xml"));
    Ok((StatusCode::OK, headers, svg).into_response())
}
