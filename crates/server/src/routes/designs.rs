//! The team's design library as the app's screens read it, beside the files themselves
//! (`/storage/v1`, `crate::storage`, which the screens upload, rename, download and remove with):
//! the list with each design's summary, one design with its colour blocks and the quotes priced
//! from it, and a design's preview, drawn by the server when the file came.
#![expect(unused_qualifications, reason = "utoipa's generated code for `IntoParams`")]

use std::cmp::Ordering;

use axum::{
    Json,
    extract::State,
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse as _, Response},
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use time::OffsetDateTime;
use utoipa::{IntoParams, ToSchema};

use crate::{
    entity::ids::ObjectId,
    error::{AppError, ErrorBody},
    extract::{ApiQuery, PathId, TeamViewer},
    repo::{
        self, RepoError,
        quotes::QuoteSummary,
        storage::{Listed, MAX_OBJECTS, NO_DESIGN as NO_PREVIEW},
    },
    state::AppState,
    storage::{self, designs},
};

const MAX_PER_PAGE: u64 = 100;
/// The quotes a design's page lists, newest first.
const QUOTES_SHOWN: u64 = 20;

/// A file of the library.
#[derive(Debug, Serialize, ToSchema)]
pub struct DesignItem {
    /// The file's id (the storage service area's `id`).
    #[schema(value_type = String)]
    pub id: ObjectId,
    /// Its key in the team's bucket, e.g. `logos/rosa.dst`.
    pub name: String,
    /// Bytes.
    pub size: i64,
    pub mimetype: String,
    /// The content's entity tag (its SHA-256, quoted): it changes when the file is replaced.
    pub etag: String,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
    /// What Bobbin read of it as a design: `{ summary }` (and `blocks`, the colour blocks in
    /// stitching order, when one design is asked for), `{ unreadable }` with the reason for a
    /// design file Bobbin cannot read, or `null` for a file that is no design.
    #[schema(value_type = Option<Object>)]
    pub design: Value,
}

impl DesignItem {
    fn of(object: Listed, design: Value) -> Self {
        Self {
            id: object.id,
            etag: storage::etag(&object.sha256),
            name: object.name,
            size: object.size,
            mimetype: object.mimetype,
            created_at: object.created_at,
            updated_at: object.updated_at,
            design,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DesignPage {
    pub designs: Vec<DesignItem>,
    pub total: u64,
    pub page: u64,
    pub per_page: u64,
}

/// How the list is ordered.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DesignSort {
    /// By name, without regard to case.
    #[default]
    Name,
    /// By when the file was last uploaded or renamed.
    Updated,
    /// By the file's size.
    Size,
}

/// `asc` or `desc`.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SortOrder {
    #[default]
    Asc,
    Desc,
}

/// Which page of the library: by name ascending unless `sort` and `order` say.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct DesignListParams {
    /// Part of the name, without regard to case.
    pub q: Option<String>,
    /// `name` (the default), `updated` or `size`.
    #[param(inline)]
    pub sort: Option<DesignSort>,
    /// `asc` (the default) or `desc`.
    #[param(inline)]
    pub order: Option<SortOrder>,
    /// `true`: only the designs Bobbin can read (what the pricing calculator picks from).
    pub readable: Option<bool>,
    /// 1 or more; 1 when not given.
    pub page: Option<u64>,
    /// At most 100; 48 when not given.
    pub per_page: Option<u64>,
}

/// The team's files, a page at a time, each with the summary of the design it holds (any
/// member).
#[utoipa::path(
    get, path = "/teams/{team_id}/designs", operation_id = "list_designs", tag = "designs",
    params(DesignListParams),
    responses((status = 200, body = DesignPage)),
)]
pub async fn list(
    State(state): State<AppState>,
    member: TeamViewer,
    ApiQuery(params): ApiQuery<DesignListParams>,
) -> Result<Json<DesignPage>, AppError> {
    let page = params.page.unwrap_or(1).clamp(1, MAX_OBJECTS);
    let per_page = params.per_page.unwrap_or(48).clamp(1, MAX_PER_PAGE);
    let mut objects = if params.readable == Some(true) {
        repo::storage::readable_designs(&state.db, member.team.id).await?
    } else {
        repo::storage::all(&state.db, member.team.id).await?
    };
    let wanted = params.q.as_deref().map(str::trim).unwrap_or_default().to_lowercase();
    if !wanted.is_empty() {
        objects.retain(|object| object.name.to_lowercase().contains(&wanted));
    }
    order(&mut objects, params.sort.unwrap_or_default(), params.order.unwrap_or_default());
    let total = u64::try_from(objects.len()).unwrap_or(u64::MAX);
    let start = usize::try_from((page - 1) * per_page).unwrap_or(usize::MAX).min(objects.len());
    let shown: Vec<Listed> =
        objects.into_iter().skip(start).take(usize::try_from(per_page).unwrap_or(usize::MAX)).collect();
    let ids: Vec<ObjectId> = shown.iter().map(|object| object.id).collect();
    let mut read = repo::storage::designs_of(&state.db, member.team.id, &ids).await?;
    let designs = shown
        .into_iter()
        .map(|object| {
            let design = read.remove(&object.id).flatten();
            DesignItem::of(object, designs::summary_only(design.as_deref()))
        })
        .collect();
    Ok(Json(DesignPage { designs, total, page, per_page }))
}

/// Orders the list; ties by name, then id, so that pages never repeat or skip a file.
fn order(objects: &mut [Listed], sort: DesignSort, direction: SortOrder) {
    let by_name =
        |a: &Listed, b: &Listed| a.name.to_lowercase().cmp(&b.name.to_lowercase()).then(a.id.cmp(&b.id));
    objects.sort_by(|a, b| {
        let first = match sort {
            DesignSort::Name => Ordering::Equal,
            DesignSort::Updated => a.updated_at.cmp(&b.updated_at),
            DesignSort::Size => a.size.cmp(&b.size),
        };
        let ordering = first.then_with(|| by_name(a, b));
        if direction == SortOrder::Desc { ordering.reverse() } else { ordering }
    });
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DesignBody {
    pub design: DesignItem,
    /// The newest quotes priced from it (at most 20).
    pub quotes: Vec<QuoteSummary>,
    /// How many quotes were priced from it in all.
    pub quotes_total: u64,
}

/// One file of the library, with its colour blocks and the quotes priced from it (any member).
#[utoipa::path(
    get, path = "/teams/{team_id}/designs/{design_id}", operation_id = "get_design", tag = "designs",
    params(("design_id" = String, Path, description = "The file's id")),
    responses(
        (status = 200, body = DesignBody),
        (status = 404, description = "No such file in this team", body = ErrorBody),
    ),
)]
pub async fn get(
    State(state): State<AppState>,
    member: TeamViewer,
    PathId(design_id): PathId<ObjectId>,
) -> Result<Json<DesignBody>, AppError> {
    let object =
        repo::storage::by_id(&state.db, member.team.id, design_id).await.map_err(|error| match error {
            RepoError::NotFound(_) => AppError::NotFound(NO_SUCH_FILE.to_owned()),
            other => other.into(),
        })?;
    let (quotes, quotes_total) =
        repo::quotes::using_design(&state.db, member.team.id, design_id, QUOTES_SHOWN).await?;
    let design = designs::shown(object.design.as_deref());
    Ok(Json(DesignBody { design: DesignItem::of(object.into(), design), quotes, quotes_total }))
}

/// What a file the team does not have answers on the product API.
const NO_SUCH_FILE: &str = "There is no such file in this team's library.";

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
    let etag = storage::etag(&object.sha256);
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
