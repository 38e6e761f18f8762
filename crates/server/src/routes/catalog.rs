//! The thread catalogue and the converter for clients other than the browser app (which runs the
//! same core as WebAssembly and never calls these). Public: the catalogue holds no team data.

// utoipa's expansion of a `Query<T>` extractor qualifies a path the lint then flags.
#![expect(unused_qualifications)]

use axum::{
    Json,
    extract::{FromRequestParts, State},
    http::{HeaderMap, header, request::Parts},
    response::{IntoResponse, Response},
};
use bobbin_core::{
    catalogue::{Catalogue, CatalogueError, LineDetail, LineSummary, ThreadView},
    convert::{BulkConversion, BulkRequest, Conversion, ConvertError, ConvertRequest},
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{
    auth::extract::Client,
    error::{AppError, ErrorBody},
    extract::{ApiJson, ApiPath, ApiQuery},
    state::AppState,
};

/// Most threads one search returns.
const MAX_SEARCH_RESULTS: usize = 100;

#[derive(Debug, Serialize, ToSchema)]
pub struct LinesResponse {
    lines: Vec<LineSummary>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LineResponse {
    line: LineDetail,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ThreadsResponse {
    threads: Vec<ThreadView>,
}

/// Every brand line (and colour standard) in the catalogue, without its threads.
#[utoipa::path(get, path = "/catalog/lines", tag = "catalog", responses((status = 200, body = LinesResponse)))]
pub async fn lines() -> Json<LinesResponse> {
    Json(LinesResponse { lines: Catalogue::builtin().summaries() })
}

/// One line with all its threads, and the codes its chart lists more than once.
#[utoipa::path(
    get, path = "/catalog/lines/{line_id}", tag = "catalog",
    params(("line_id" = String, Path, description = "Line id, e.g. `isacord-polyester`")),
    responses((status = 200, body = LineResponse), (status = 404, body = ErrorBody)),
)]
pub async fn line(ApiPath(line_id): ApiPath<String>) -> Result<Json<LineResponse>, AppError> {
    let catalogue = Catalogue::builtin();
    let index = catalogue.line_by_id(&line_id).map_err(|error| not_found(&error))?;
    Ok(Json(LineResponse { line: catalogue.detail(index) }))
}

/// Every colour a line gives for a code: one, or several where the chart conflicts with itself.
/// Codes compare without case or leading zeros (`15` finds `0015`).
#[utoipa::path(
    get, path = "/catalog/lines/{line_id}/threads/{code}", tag = "catalog",
    params(("line_id" = String, Path), ("code" = String, Path)),
    responses((status = 200, body = ThreadsResponse), (status = 404, body = ErrorBody)),
)]
pub async fn thread(
    ApiPath((line_id, code)): ApiPath<(String, String)>,
) -> Result<Json<ThreadsResponse>, AppError> {
    let catalogue = Catalogue::builtin();
    let line = catalogue.line_by_id(&line_id).map_err(|error| not_found(&error))?;
    let found = catalogue.find(line, &code).map_err(|error| not_found(&error))?;
    Ok(Json(ThreadsResponse { threads: found.into_iter().map(|index| catalogue.view(index)).collect() }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchParams {
    /// Code or name, or the start of one.
    q: String,
    /// Comma-separated line ids to search; all lines when absent.
    lines: Option<String>,
    /// At most this many threads, 1 to 100 (default 20).
    limit: Option<usize>,
}

/// Threads by code or name, best first: exact codes, then codes that start with the text, then
/// names.
#[utoipa::path(
    get, path = "/catalog/threads", tag = "catalog", params(SearchParams),
    responses((status = 200, body = ThreadsResponse), (status = 422, body = ErrorBody)),
)]
pub async fn search(ApiQuery(params): ApiQuery<SearchParams>) -> Result<Json<ThreadsResponse>, AppError> {
    let catalogue = Catalogue::builtin();
    let limit = params.limit.unwrap_or(20);
    if !(1..=MAX_SEARCH_RESULTS).contains(&limit) {
        return Err(AppError::rejected("invalid_limit", format!("limit must be 1 to {MAX_SEARCH_RESULTS}.")));
    }
    let lines = params
        .lines
        .iter()
        .flat_map(|ids| ids.split(','))
        .filter(|id| !id.is_empty())
        .map(|id| catalogue.line_by_id(id.trim()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|error| AppError::from(ConvertError::from(error)))?;
    let found = catalogue.search(&params.q, &lines, limit);
    Ok(Json(ThreadsResponse { threads: found.into_iter().map(|index| catalogue.view(index)).collect() }))
}

/// The nearest threads to a thread, hex colour, RGB or Lab value in each target line, by
/// CIEDE2000, with a label: `indistinguishable` (ΔE00 < 1), `close` (< 2), `similar` (< 5) or
/// `poor`. `candidates` restricts the search to given threads.
#[utoipa::path(
    post, path = "/convert", tag = "catalog", request_body = ConvertRequest,
    responses(
        (status = 200, body = Conversion),
        (status = 422, body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many conversions from this network in a minute", body = ErrorBody),
    ),
)]
pub async fn convert(
    _turn: ConversionTurn,
    ApiJson(request): ApiJson<ConvertRequest>,
) -> Result<Json<Conversion>, AppError> {
    Ok(Json(Catalogue::builtin().convert(&request)?))
}

/// A pasted list (one code or colour per line, or CSV rows) converted to one line. Answers JSON,
/// or CSV for a spreadsheet when the request sends `Accept: text/csv`.
#[utoipa::path(
    post, path = "/convert/bulk", tag = "catalog", request_body = BulkRequest,
    responses(
        (status = 200, description = "The list converted: JSON, or CSV when asked for", content(
            (BulkConversion = "application/json"),
            (String = "text/csv"),
        )),
        (status = 422, body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many conversions from this network in a minute", body = ErrorBody),
        (status = 503, description = "`server_busy`: too many large conversions and imports at once; try again after `Retry-After` seconds", body = ErrorBody),
    ),
)]
pub async fn convert_bulk(
    State(state): State<AppState>,
    _turn: ConversionTurn,
    headers: HeaderMap,
    ApiJson(request): ApiJson<BulkRequest>,
) -> Result<Response, AppError> {
    let wants_csv = headers
        .get(header::ACCEPT)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|accept| accept.contains("text/csv"));
    // Reading up to 2,000 rows and converting each: CPU work, off the async workers.
    let conversion = state
        .heavy_work
        .run(move || {
            let conversion = Catalogue::builtin().convert_bulk(&request)?;
            let csv = wants_csv.then(|| conversion.to_csv());
            Ok::<_, ConvertError>((conversion, csv))
        })
        .await??;
    Ok(match conversion {
        (conversion, Some(csv)) => {
            let disposition = format!("attachment; filename=\"bobbin-to-{}.csv\"", conversion.line);
            (
                [
                    (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
                    (header::CONTENT_DISPOSITION, disposition),
                ],
                csv,
            )
                .into_response()
        }
        (conversion, None) => Json(conversion).into_response(),
    })
}

/// A conversion's turn: the caller's network is within `--convert-rate-limit` a minute.
#[derive(Debug)]
pub struct ConversionTurn;

impl FromRequestParts<AppState> for ConversionTurn {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let client = Client::from_request_parts(parts, state)
            .await
            .map_err(|error| AppError::Internal(anyhow::anyhow!(error.message)))?;
        if state.convert_limit.allow(&client.network()) {
            Ok(Self)
        } else {
            Err(AppError::RateLimited(
                "Too many conversions from your network in the last minute. Please wait a minute and try again \
                 (the converter in the app works without the server)."
                    .to_owned(),
            ))
        }
    }
}

fn not_found(error: &CatalogueError) -> AppError {
    AppError::NotFound(format!("{}.", capitalise(&error.to_string())))
}

impl From<ConvertError> for AppError {
    fn from(error: ConvertError) -> Self {
        AppError::rejected(error.code(), format!("{}.", capitalise(&error.to_string())))
    }
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}
