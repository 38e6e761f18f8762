//! The thread inventory: `/api/v2/teams/{team_id}/threads...`. Every member reads; members,
//! admins and owners write. The rules for an entry, the search and the CSV format are
//! `bobbin_core::inventory`; this module stores entries and guards who may change them.
//!
//! Two people changing one entry lose nothing: quantity adjustments are relative (`adjust`,
//! applied by the database as `quantity + delta`), every change raises the entry's `version`
//! ([`change`]), and a full edit names the `version` it was made from, so an edit of an entry
//! someone else changed meanwhile (a tap included) answers `409 edit_conflict` instead of
//! putting the old values back.

// utoipa's expansion of a handler taking `Query<ListParams>` names the type in a way rustc
// calls an unnecessary qualification; the code it points at is generated.
#![expect(unused_qualifications, reason = "utoipa's generated code for `IntoParams`")]

use std::{collections::HashSet, sync::Arc};

use axum::{
    Json,
    extract::State,
    http::{StatusCode, header},
    response::{IntoResponse, Response},
};
use bobbin_core::{
    catalogue::{Catalogue, Fibre},
    colour::Rgb8,
    design,
    inventory::{
        FieldProblem, Hundredths, ThreadDraft, ThreadEntry, ThreadSource,
        csv::{self, ImportPreview},
        search::{self, MAX_PER_PAGE, SortKey, Stock},
        thread::LOCATION_MAX_CHARS,
    },
};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::{IntoParams, ToSchema};

use crate::{
    entity::ids::TeamId,
    error::{AppError, ErrorBody, FieldError},
    extract::{
        ApiJson, ApiQuery, IdempotencyKeyHeader, KeyedJson, TEAM_NOT_FOUND, TeamEditor, TeamViewer, answered,
    },
    repo::{
        threads::{self, MAX_THREADS, Thread},
        write_keys,
    },
    state::AppState,
};
use crate::{entity::ids::ThreadPublicId, extract::PathId};

/// The most codes one bulk add may list.
const MAX_BULK_CODES: usize = 500;

/// An inventory entry as the app shows it.
// Named apart from the catalogue's `ThreadView`: two schemas of one name are one entry in the
// document, and the catalogue's answers were checked against this one.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = InventoryThread)]
pub struct ThreadView {
    pub id: String,
    /// The catalogue line's id; null for a custom thread.
    pub line: Option<String>,
    pub line_name: Option<String>,
    pub code: Option<String>,
    pub name: String,
    /// `#RRGGBB`.
    pub colour: String,
    pub fibre: Option<Fibre>,
    /// Spools or cones; fractions for part-used ones.
    pub quantity: f64,
    pub spool_length_m: Option<u32>,
    pub location: String,
    pub reorder_point: Option<f64>,
    /// In the team's currency (its `currency` setting).
    pub cost_per_spool: Option<f64>,
    pub notes: String,
    /// None left, or at or below the reorder point that applies: its own, else the team's
    /// `default_reorder_point` setting.
    pub low: bool,
    /// Whole spools to buy so that it is no longer low: the reorder point that applies (0 when
    /// none does) minus the quantity, rounded down, plus one; 0 when it is not low.
    pub to_buy: u64,
    /// Send it back with a full edit.
    pub version: i32,
    pub updated_by_email: Option<String>,
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
    /// CIEDE2000 distance to the colour asked for with `closest`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<f64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ThreadBody {
    pub thread: ThreadView,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ThreadPage {
    pub threads: Vec<ThreadView>,
    /// How many entries match, over all pages.
    pub total: usize,
    pub page: usize,
    pub per_page: usize,
}

/// A new entry, or a full edit of one: a catalogue thread (`line`, `code`) or a custom one
/// (`name`, `colour`).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ThreadInput {
    #[schema(example = "madeira-polyneon")]
    pub line: Option<String>,
    #[schema(example = "1800")]
    pub code: Option<String>,
    pub name: Option<String>,
    pub colour: Option<String>,
    #[schema(example = 2.5)]
    pub quantity: Option<f64>,
    pub spool_length_m: Option<u32>,
    #[schema(example = "Shelf A")]
    pub location: Option<String>,
    #[schema(example = 1)]
    pub reorder_point: Option<f64>,
    pub cost_per_spool: Option<f64>,
    pub notes: Option<String>,
    /// For a full edit: the `version` the edit started from.
    #[schema(example = 1)]
    pub version: Option<i32>,
}

/// List filters, all optional.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct ListParams {
    /// Code (prefix), name, line, location, or an exact `#RRGGBB`.
    pub q: Option<String>,
    /// `#RRGGBB`: nearest first, each with its `distance`.
    pub closest: Option<String>,
    pub line: Option<String>,
    /// polyester, rayon, cotton, wool-blend, nylon, metallic, acrylic or other.
    pub fibre: Option<String>,
    /// Part of the storage location, whatever its case.
    pub location: Option<String>,
    /// Only low entries (see `low` of a thread): the shopping list.
    pub low: Option<bool>,
    /// code (default), name, quantity, location or updated.
    pub sort: Option<String>,
    /// asc (default) or desc.
    pub order: Option<String>,
    /// 1 to 20,000; 1 when not given.
    pub page: Option<usize>,
    /// At most 200; 50 when not given.
    pub per_page: Option<usize>,
}

/// Adds one entry (members, admins and owners).
#[utoipa::path(
    post, path = "/teams/{team_id}/threads", operation_id = "create_thread", tag = "inventory", request_body = ThreadInput,
    responses(
        (status = 201, body = ThreadBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 409, description = "`already_in_inventory`: edit that entry instead", body = ErrorBody),
        (status = 422, description = "`validation_failed`, naming each field", body = ErrorBody),
    ),
)]
pub async fn create(
    State(state): State<AppState>,
    member: TeamEditor,
    ApiJson(input): ApiJson<ThreadInput>,
) -> Result<Response, AppError> {
    let entry = parse_input(&input)?;
    let thread = threads::create(&state.db, member.team.id, &member.user, &entry).await?;
    let team_default = member.default_reorder_point;
    Ok((StatusCode::CREATED, Json(ThreadBody { thread: view(&thread, None, team_default) })).into_response())
}

/// Lists the team's threads: search, filters, sorting and pages (every member).
#[utoipa::path(
    get, path = "/teams/{team_id}/threads", operation_id = "list_threads", tag = "inventory",
    params(ListParams),
    responses(
        (status = 200, body = ThreadPage),
        (status = 422, description = "`validation_failed`: a filter that cannot be read", body = ErrorBody),
    ),
)]
pub async fn list(
    State(state): State<AppState>,
    member: TeamViewer,
    ApiQuery(params): ApiQuery<ListParams>,
) -> Result<Response, AppError> {
    let team_default = member.default_reorder_point;
    let query = search_query(&params, team_default)?;
    // The search runs over the team's entries as this server keeps them (thread_cache); the
    // page's entries are read whole.
    let team = state.threads.threads(&state.db, &member.team).await?.ok_or_else(team_gone)?;
    let stock: Vec<Stock<'_>> = team
        .threads
        .iter()
        .map(|thread| Stock { entry: &thread.entry, updated_at: thread.updated_at })
        .collect();
    let page = search::search(Catalogue::builtin(), &stock, &query);
    let ids = page.hits.iter().map(|&(position, _)| team.threads[position].id).collect();
    let mut whole = threads::page(&state.db, member.team.id, ids).await?;
    // An entry removed since the copy was read is left out of the page.
    let (shown, distances): (Vec<_>, Vec<_>) = page
        .hits
        .iter()
        .filter_map(|&(position, distance)| {
            whole.remove(&team.threads[position].id).map(|thread| (thread, distance))
        })
        .unzip();
    let threads =
        shown.iter().zip(distances).map(|(thread, distance)| view(thread, distance, team_default)).collect();
    let page = ThreadPage { threads, total: page.total, page: query.page, per_page: query.per_page };
    // Written into a buffer of about the page's size: axum's `Json` starts at 128 bytes and
    // doubles, and copied a page of fifty entries several times over as it grew.
    let mut body = Vec::with_capacity(ENTRY_JSON_BYTES * (page.threads.len() + 1));
    serde_json::to_writer(&mut body, &page).map_err(anyhow::Error::from)?;
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

/// The entries `ids` names: one that is not an id names no entry (404), as one the team does
/// not have.
fn thread_ids(ids: &[String]) -> Result<Vec<ThreadPublicId>, AppError> {
    ids.iter().map(|id| id.parse().map_err(|_| AppError::NotFound(threads::NOT_FOUND.to_owned()))).collect()
}

/// The answer for a team removed while the request was under way.
fn team_gone() -> AppError {
    AppError::NotFound(TEAM_NOT_FOUND.to_owned())
}

/// About the length of one entry of the list in JSON.
const ENTRY_JSON_BYTES: usize = 512;

/// A catalogue thread the team owns, as the converter's "only threads we own" needs it.
#[derive(Debug, Serialize, ToSchema)]
pub struct OwnedThread {
    pub line: String,
    pub code: String,
    pub quantity: f64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OwnedBody {
    pub threads: Vec<OwnedThread>,
}

/// Every catalogue thread the team owns with its quantity, in one compact answer (custom threads
/// have no catalogue colour to convert to, so they are left out). Every member.
#[utoipa::path(
    get, path = "/teams/{team_id}/threads/owned", tag = "inventory",
    responses((status = 200, body = OwnedBody)),
)]
pub async fn owned(State(state): State<AppState>, member: TeamViewer) -> Result<Json<OwnedBody>, AppError> {
    let team = state.threads.threads(&state.db, &member.team).await?.ok_or_else(team_gone)?;
    let threads = team
        .threads
        .iter()
        .filter_map(|thread| match &thread.entry.source {
            ThreadSource::Catalogue { line, code } => Some(OwnedThread {
                line: line.clone(),
                code: code.clone(),
                quantity: thread.entry.quantity.as_f64(),
            }),
            ThreadSource::Custom { .. } => None,
        })
        .collect();
    Ok(Json(OwnedBody { threads }))
}

/// The most colours one closest request names: a design's threads, which the design readers cap.
pub const MAX_CLOSEST_COLOURS: usize = design::MAX_THREADS;

/// The colours of a closest request.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct ClosestParams {
    /// 1 to 256 colours, each `#RRGGBB` (the `#` may be left out), separated by commas.
    #[param(example = "#E0115F,#FFFFFF")]
    pub colours: Option<String>,
}

/// The team's thread nearest one colour asked for.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClosestThread {
    /// The colour asked for, `#RRGGBB`.
    pub colour: String,
    /// The team's thread nearest it, with its `distance`: the one `?closest=` lists first. Null
    /// when the team has no thread.
    pub thread: Option<ThreadView>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ClosestBody {
    /// One for each colour asked for, in the order asked.
    pub closest: Vec<ClosestThread>,
}

/// The team's thread nearest each of several colours, in one request: a design's threads, which
/// the pricing calculator looks up together. For each colour, the thread the list's
/// `?closest=` puts first (every member).
#[utoipa::path(
    get, path = "/teams/{team_id}/threads/closest", operation_id = "closest_threads", tag = "inventory",
    params(ClosestParams),
    responses(
        (status = 200, body = ClosestBody),
        (status = 422, description = "`validation_failed`: no colour, more than 256, or one that is not `#RRGGBB` (named `colours[i]`)", body = ErrorBody),
        (status = 503, description = "`server_busy`: too many large searches, conversions and imports at once; try again after `Retry-After` seconds", body = ErrorBody),
    ),
)]
pub async fn closest(
    State(state): State<AppState>,
    member: TeamViewer,
    ApiQuery(params): ApiQuery<ClosestParams>,
) -> Result<Json<ClosestBody>, AppError> {
    let colours = closest_colours(params.colours.as_deref().unwrap_or_default())?;
    let team = state.threads.threads(&state.db, &member.team).await?.ok_or_else(team_gone)?;
    // Up to 256 colours, each against every entry: CPU work, off the async workers.
    let nearest = state
        .heavy_work
        .run({
            let (team, colours) = (Arc::clone(&team), colours.clone());
            move || {
                let stock: Vec<Stock<'_>> = team
                    .threads
                    .iter()
                    .map(|thread| Stock { entry: &thread.entry, updated_at: thread.updated_at })
                    .collect();
                search::nearest(Catalogue::builtin(), &stock, &colours)
            }
        })
        .await?;
    let ids = nearest.iter().flatten().map(|&(position, _)| team.threads[position].id).collect();
    let whole = threads::page(&state.db, member.team.id, ids).await?;
    let team_default = member.default_reorder_point;
    let closest = colours
        .iter()
        .zip(nearest)
        .map(|(colour, found)| ClosestThread {
            colour: colour.to_hex(),
            // An entry removed since the copy was read is not shown.
            thread: found.and_then(|(position, distance)| {
                whole.get(&team.threads[position].id).map(|thread| view(thread, distance, team_default))
            }),
        })
        .collect();
    Ok(Json(ClosestBody { closest }))
}

/// The colours of a closest request: 1 to [`MAX_CLOSEST_COLOURS`], each named where it is wrong.
fn closest_colours(text: &str) -> Result<Vec<Rgb8>, AppError> {
    let parts: Vec<&str> = text.split(',').map(str::trim).filter(|part| !part.is_empty()).collect();
    if parts.is_empty() || parts.len() > MAX_CLOSEST_COLOURS {
        return Err(AppError::Validation(vec![FieldError::new(
            "colours",
            if parts.is_empty() { "required" } else { "too_many" },
            format!("Give 1 to {MAX_CLOSEST_COLOURS} colours as #RRGGBB, separated by commas."),
        )]));
    }
    let mut colours = Vec::with_capacity(parts.len());
    let mut errors = Vec::new();
    for (index, part) in parts.iter().enumerate() {
        match Rgb8::parse_hex(part) {
            Ok(colour) => colours.push(colour),
            Err(_) => errors.push(FieldError::new(
                format!("colours[{index}]"),
                "bad_colour",
                format!("\"{part}\" is not a colour; give it as #RRGGBB."),
            )),
        }
    }
    if errors.is_empty() { Ok(colours) } else { Err(AppError::Validation(errors)) }
}

/// One entry (every member).
#[utoipa::path(
    get, path = "/teams/{team_id}/threads/{thread_id}", operation_id = "get_thread", tag = "inventory",
    params(("thread_id" = String, Path)),
    responses((status = 200, body = ThreadBody), (status = 404, description = "No such thread in this team", body = ErrorBody)),
)]
pub async fn get(
    State(state): State<AppState>,
    member: TeamViewer,
    PathId(thread_id): PathId<ThreadPublicId>,
) -> Result<Json<ThreadBody>, AppError> {
    let thread = threads::get(&state.db, member.team.id, &thread_id).await?;
    let team_default = member.default_reorder_point;
    Ok(Json(ThreadBody { thread: view(&thread, None, team_default) }))
}

/// A full edit, made from `version` (members, admins and owners).
#[utoipa::path(
    put, path = "/teams/{team_id}/threads/{thread_id}", operation_id = "update_thread", tag = "inventory", request_body = ThreadInput,
    params(("thread_id" = String, Path)),
    responses(
        (status = 200, body = ThreadBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such thread in this team", body = ErrorBody),
        (status = 409, description = "`edit_conflict`: changed by someone else since `version`; or `already_in_inventory`", body = ErrorBody),
        (status = 422, description = "`validation_failed`, naming each field", body = ErrorBody),
    ),
)]
pub async fn update(
    State(state): State<AppState>,
    member: TeamEditor,
    PathId(thread_id): PathId<ThreadPublicId>,
    ApiJson(input): ApiJson<ThreadInput>,
) -> Result<Json<ThreadBody>, AppError> {
    let Some(version) = input.version else {
        return Err(AppError::Validation(vec![FieldError::new(
            "version",
            "required",
            "Send the `version` of the entry the edit was made from.",
        )]));
    };
    let version = super::edited_version(version)?;
    let entry = parse_input(&input)?;
    // Only the version the edit was made from is overwritten; anything newer stays.
    let thread = threads::edit(&state.db, member.team.id, &member.user, &thread_id, version, &entry).await?;
    let team_default = member.default_reorder_point;
    Ok(Json(ThreadBody { thread: view(&thread, None, team_default) }))
}

/// A change of quantity by `delta` (e.g. -1 for a spool used up, 0.5 for a cone put back).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AdjustInput {
    pub delta: f64,
}

/// Changes the quantity by a relative amount, so two people tapping at once both count
/// (members, admins and owners).
#[utoipa::path(
    post, path = "/teams/{team_id}/threads/{thread_id}/adjust", tag = "inventory", request_body = AdjustInput,
    params(("thread_id" = String, Path), IdempotencyKeyHeader),
    responses(
        (status = 200, body = ThreadBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such thread in this team", body = ErrorBody),
        (status = 422, description = "`validation_failed` (delta), or `negative_quantity`; `idempotency_key_reused`", body = ErrorBody),
    ),
)]
pub async fn adjust(
    State(state): State<AppState>,
    member: TeamEditor,
    PathId(thread_id): PathId<ThreadPublicId>,
    KeyedJson { key, body: input }: KeyedJson<AdjustInput>,
) -> Result<Response, AppError> {
    let magnitude = Hundredths::from_f64(input.delta.abs()).map_err(|error| {
        AppError::Validation(vec![FieldError::new("delta", "bad_number", format!("The change {error}."))])
    })?;
    let delta = if input.delta < 0.0 { -magnitude.hundredths() } else { magnitude.hundredths() };
    let team_default = member.default_reorder_point;
    let answer = write_keys::once(&state.db, member.key_owner(), key.as_ref(), async |txn| {
        let thread = threads::adjust(txn, member.team.id, &member.user, &thread_id, delta).await?;
        Ok(ThreadBody { thread: view(&thread, None, team_default) })
    })
    .await?;
    Ok(answered(StatusCode::OK, answer))
}

/// A count typed into the list: `quantity`, replacing `expected`, the count shown when it was typed.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SetQuantityInput {
    pub quantity: f64,
    pub expected: f64,
}

/// Sets the quantity to a typed count if it is still the one shown: a teammate's change made
/// since is never overwritten (members, admins and owners).
#[utoipa::path(
    post, path = "/teams/{team_id}/threads/{thread_id}/quantity", tag = "inventory", request_body = SetQuantityInput,
    params(("thread_id" = String, Path), IdempotencyKeyHeader),
    responses(
        (status = 200, body = ThreadBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such thread in this team", body = ErrorBody),
        (status = 409, description = "`quantity_changed`: the count is no longer `expected`; the message names both", body = ErrorBody),
        (status = 422, description = "`validation_failed`: `quantity` or `expected` is not an amount of 0 or more; `idempotency_key_reused`", body = ErrorBody),
    ),
)]
pub async fn set_quantity(
    State(state): State<AppState>,
    member: TeamEditor,
    PathId(thread_id): PathId<ThreadPublicId>,
    KeyedJson { key, body: input }: KeyedJson<SetQuantityInput>,
) -> Result<Response, AppError> {
    let amount = |field: &str, value: f64| {
        Hundredths::from_f64(value)
            .map_err(|error| FieldError::new(field, "bad_number", format!("The count {error}.")))
    };
    let (quantity, expected) = match (amount("quantity", input.quantity), amount("expected", input.expected))
    {
        (Ok(quantity), Ok(expected)) => (quantity, expected),
        (quantity, expected) => {
            return Err(AppError::Validation(
                [quantity.err(), expected.err()].into_iter().flatten().collect(),
            ));
        }
    };
    let team_default = member.default_reorder_point;
    let answer = write_keys::once(&state.db, member.key_owner(), key.as_ref(), async |txn| {
        let thread =
            threads::set_quantity(txn, member.team.id, &member.user, &thread_id, expected, quantity).await?;
        Ok(ThreadBody { thread: view(&thread, None, team_default) })
    })
    .await?;
    Ok(answered(StatusCode::OK, answer))
}

/// The most entries one change of many sets at once.
pub const MAX_CHANGED_AT_ONCE: usize = 500;

/// The same location and/or reorder point for several entries: a field left out stays as it is;
/// `reorder_point: null` removes the entries' own points (the team's default then applies).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ManyInput {
    /// The entries' ids, 1 to 500.
    pub ids: Vec<String>,
    #[serde(default)]
    pub location: Option<String>,
    /// Left out: unchanged; `null`: removed; a number: set.
    #[serde(default, deserialize_with = "given")]
    #[schema(value_type = Option<f64>)]
    pub reorder_point: Option<serde_json::Value>,
}

/// A field that was given, `null` included (serde reads a `null` `Option` as not given).
fn given<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<serde_json::Value>, D::Error> {
    serde::Deserialize::deserialize(deserializer).map(Some)
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ManyResult {
    pub threads: Vec<ThreadView>,
}

/// Sets the same location and/or reorder point on several entries at once, all or none
/// (members, admins and owners).
#[utoipa::path(
    patch, path = "/teams/{team_id}/threads", tag = "inventory", request_body = ManyInput,
    responses(
        (status = 200, body = ManyResult),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "One of the ids is no thread of this team: nothing changed", body = ErrorBody),
        (status = 422, description = "`validation_failed`: `ids` (1 to 500), `location` (at most 100 characters), `reorder_point` (an amount of 0 or more, or null)", body = ErrorBody),
    ),
)]
pub async fn change_many(
    State(state): State<AppState>,
    member: TeamEditor,
    ApiJson(input): ApiJson<ManyInput>,
) -> Result<Json<ManyResult>, AppError> {
    let mut problems = Vec::new();
    if input.ids.is_empty() || input.ids.len() > MAX_CHANGED_AT_ONCE {
        problems.push(FieldError::new(
            "ids",
            "bad_count",
            format!("Choose 1 to {MAX_CHANGED_AT_ONCE} threads."),
        ));
    }
    let location = input.location.map(|text| text.trim().to_owned());
    if location.as_ref().is_some_and(|text| text.chars().count() > LOCATION_MAX_CHARS) {
        problems.push(FieldError::new(
            "location",
            "too_long",
            format!("Use at most {LOCATION_MAX_CHARS} characters."),
        ));
    }
    let reorder_point = match input.reorder_point {
        None => None,
        Some(serde_json::Value::Null) => Some(None),
        Some(value) => {
            if let Some(Ok(point)) = value.as_f64().map(Hundredths::from_f64) {
                Some(Some(point))
            } else {
                problems.push(FieldError::new(
                    "reorder_point",
                    "bad_number",
                    "Give the reorder point as a number of 0 or more.",
                ));
                None
            }
        }
    };
    if location.is_none() && reorder_point.is_none() && problems.is_empty() {
        problems.push(FieldError::new("location", "required", "Give a location or a reorder point to set."));
    }
    if !problems.is_empty() {
        return Err(AppError::Validation(problems));
    }
    let changes = threads::ManyChanges { location, reorder_point };
    let threads =
        threads::change_many(&state.db, member.team.id, member.user.id, &thread_ids(&input.ids)?, &changes)
            .await?;
    let team_default = member.default_reorder_point;
    Ok(Json(ManyResult { threads: threads.iter().map(|thread| view(thread, None, team_default)).collect() }))
}

/// Removes an entry (members, admins and owners).
#[utoipa::path(
    delete, path = "/teams/{team_id}/threads/{thread_id}", operation_id = "delete_thread", tag = "inventory",
    params(("thread_id" = String, Path)),
    responses(
        (status = 204, description = "Removed"),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such thread in this team", body = ErrorBody),
    ),
)]
pub async fn delete(
    State(state): State<AppState>,
    member: TeamEditor,
    PathId(thread_id): PathId<ThreadPublicId>,
) -> Result<StatusCode, AppError> {
    threads::delete(&state.db, member.team.id, &thread_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Many codes of one line at once, e.g. pasted from a pattern's colour list.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BulkInput {
    #[schema(example = "madeira-polyneon")]
    pub line: String,
    /// Codes, at most 500; or one text with codes separated by commas, spaces or lines.
    #[schema(example = json!(["1801", "1802", "1803"]))]
    pub codes: Vec<String>,
    /// Spools of each; 1 when not given.
    #[serde(default)]
    pub quantity: Option<f64>,
    /// true: add the codes the line has and list the others in `unknown`, rather than refuse
    /// them all for one unknown code (false, the default).
    #[serde(default)]
    pub skip_unknown: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BulkResult {
    pub added: Vec<ThreadView>,
    /// Codes already in the inventory, left as they were.
    pub already_owned: Vec<String>,
    /// With `skip_unknown`: the codes the line does not have, left out.
    pub unknown: Vec<String>,
}

/// Adds many catalogue threads of one line; codes already owned are left alone. Unknown codes
/// refuse the whole request, naming each, unless `skip_unknown` asks to add the rest (members,
/// admins and owners).
#[utoipa::path(
    post, path = "/teams/{team_id}/threads/bulk", tag = "inventory", request_body = BulkInput,
    responses(
        (status = 201, body = BulkResult),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 422, description = "`validation_failed`: `codes[i]` for each unknown code (with `skip_unknown`, only when no code is known)", body = ErrorBody),
    ),
)]
pub async fn bulk(
    State(state): State<AppState>,
    member: TeamEditor,
    ApiJson(input): ApiJson<BulkInput>,
) -> Result<Response, AppError> {
    let codes: Vec<String> = input
        .codes
        .iter()
        .flat_map(|text| text.split(|c: char| c == ',' || c == ';' || c.is_whitespace()))
        .map(str::trim)
        .filter(|code| !code.is_empty())
        .map(str::to_owned)
        .collect();
    if codes.is_empty() || codes.len() > MAX_BULK_CODES {
        return Err(AppError::Validation(vec![FieldError::new(
            "codes",
            if codes.is_empty() { "required" } else { "too_many" },
            format!("List 1 to {MAX_BULK_CODES} codes."),
        )]));
    }
    let quantity = input.quantity.unwrap_or(1.0);
    let mut entries: Vec<ThreadEntry> = Vec::new();
    let mut problems = Vec::new();
    let mut unknown = Vec::new();
    let skip_unknown = input.skip_unknown;
    for (index, code) in codes.iter().enumerate() {
        let input = ThreadInput {
            line: Some(input.line.clone()),
            code: Some(code.clone()),
            quantity: Some(quantity),
            ..ThreadInput::default()
        };
        match draft_of(&input).parse(Catalogue::builtin()) {
            Ok(entry) if !entries.iter().any(|e| e.source.identity() == entry.source.identity()) => {
                entries.push(entry);
            }
            Ok(_) => {}
            Err(found) if skip_unknown && found.iter().all(|p| p.field == "code") => {
                unknown.push(code.clone());
            }
            Err(found) => problems.extend(found.into_iter().map(|p| {
                let field = if p.field == "code" { format!("codes[{index}]") } else { p.field.to_owned() };
                FieldError::new(field, p.code, p.message)
            })),
        }
    }
    if entries.is_empty() && !unknown.is_empty() {
        return Err(AppError::Validation(vec![FieldError::new(
            "codes",
            "not_found",
            format!("None of these codes is in the line: {}.", unknown.join(", ")),
        )]));
    }
    if !problems.is_empty() {
        problems.dedup_by(|a, b| a.field == b.field && a.code == b.code);
        return Err(AppError::Validation(problems));
    }
    let (added, already) = threads::add_missing(&state.db, member.team.id, &member.user, entries).await?;
    let team_default = member.default_reorder_point;
    let added = added.iter().map(|thread| view(thread, None, team_default)).collect();
    let already_owned = already
        .into_iter()
        .filter_map(|entry| match entry.source {
            ThreadSource::Catalogue { code, .. } => Some(code),
            ThreadSource::Custom { .. } => None,
        })
        .collect();
    Ok((StatusCode::CREATED, Json(BulkResult { added, already_owned, unknown })).into_response())
}

/// The inventory, or with the list's filters a part of it (`low=true`: the shopping list), as
/// CSV for a spreadsheet (every member).
#[utoipa::path(
    get, path = "/teams/{team_id}/threads/export.csv", tag = "inventory",
    params(ListParams),
    responses(
        (status = 200, description = "CSV, with the columns import reads", content_type = "text/csv", body = String),
    ),
)]
pub async fn export(
    State(state): State<AppState>,
    member: TeamViewer,
    ApiQuery(params): ApiQuery<ListParams>,
) -> Result<Response, AppError> {
    let body = csv_of(&state, member.team.id, member.default_reorder_point, &params).await?;
    let name = if params.low == Some(true) { "shopping-list" } else { "threads" };
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
            (header::CONTENT_DISPOSITION, format!("attachment; filename=\"{name}.csv\"")),
        ],
        body,
    )
        .into_response())
}

/// The team's threads the list's filters choose, every page in the list's order, as the CSV
/// the import reads back (also the `threads.csv` of a team's archive).
pub(crate) async fn csv_of(
    state: &AppState,
    team_id: TeamId,
    team_default: Option<Hundredths>,
    params: &ListParams,
) -> Result<String, AppError> {
    let mut query = search_query(params, team_default)?;
    query.page = 1;
    query.per_page = usize::MAX;
    let mut entries = threads::all(&state.db, team_id).await?;
    entries.sort_by_cached_key(|(entry, _)| search::code_order(entry));
    let stock: Vec<Stock<'_>> =
        entries.iter().map(|(entry, updated_at)| Stock { entry, updated_at: *updated_at }).collect();
    let mut chosen = Vec::new();
    // Pages of the search's maximum size, in the search's order.
    for page in 1.. {
        let found = search::search(
            Catalogue::builtin(),
            &stock,
            &search::Query { page, per_page: MAX_PER_PAGE, ..query.clone() },
        );
        if found.hits.is_empty() {
            break;
        }
        chosen.extend(found.hits.into_iter().map(|(index, _)| entries[index].0.clone()));
    }
    Ok(csv::write(&chosen, Catalogue::builtin()))
}

/// A CSV file to import: previewed, or (`commit`) written: all rows or none, or with
/// `skip_invalid` the rows without problems.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportInput {
    /// The file's text (UTF-8; a byte-order mark, `;` or tab separators and quoted fields are fine).
    #[schema(example = "line,code,quantity\nmadeira-polyneon,1805,2\n")]
    pub csv: String,
    /// false (default): only check and preview; true: write, if every row is valid.
    #[serde(default)]
    pub commit: bool,
    /// With `commit`: write the rows without problems and skip the others (listed with their
    /// problems), rather than refuse the file.
    #[serde(default)]
    pub skip_invalid: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ImportRowView {
    /// The row's line in the file (the header is line 1).
    pub line: usize,
    pub thread_line: String,
    pub code: String,
    pub name: String,
    pub quantity: String,
    /// add (new to the inventory) or update (replaces the entry for that thread).
    pub action: Option<String>,
    pub problems: Vec<FieldError>,
    /// What the row says that the catalogue says otherwise (`name_differs`, `colour_differs`):
    /// the catalogue's name and colour are imported.
    pub warnings: Vec<FieldError>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ImportResult {
    pub rows: Vec<ImportRowView>,
    /// Header cells matching no column; their values are not imported.
    pub ignored_columns: Vec<String>,
    /// Every row is valid: the import can be written.
    pub valid: bool,
    /// Whether it was written (`commit` and valid).
    pub committed: bool,
    pub added: usize,
    pub updated: usize,
    /// Rows with problems, left out of a `skip_invalid` import.
    pub skipped: usize,
}

/// Checks a CSV file and shows what it would do; with `commit`, writes it in one transaction,
/// adding new threads and replacing the entries of threads already there (members, admins and
/// owners).
#[utoipa::path(
    post, path = "/teams/{team_id}/threads/import", tag = "inventory", request_body = ImportInput,
    responses(
        (status = 200, description = "The preview (and, with `commit`, the result)", body = ImportResult),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 422, description = "`import_unreadable`: no header, empty or too long; `import_invalid`: `commit` with rows that have problems (with `skip_invalid`, only when no row is valid)", body = ErrorBody),
        (status = 503, description = "`server_busy`: too many large conversions and imports at once; try again after `Retry-After` seconds", body = ErrorBody),
    ),
)]
pub async fn import(
    State(state): State<AppState>,
    member: TeamEditor,
    ApiJson(input): ApiJson<ImportInput>,
) -> Result<Json<ImportResult>, AppError> {
    // Reading and checking up to 10,000 rows: CPU work, off the async workers.
    let text = input.csv;
    let preview = state
        .heavy_work
        .run(move || csv::read(&text, Catalogue::builtin()))
        .await?
        .map_err(|error| AppError::rejected("import_unreadable", error.to_string()))?;
    if !input.commit {
        // A preview only reads: it must not wait for, or hold, the write lock.
        let existing = threads::identities(&state.db, member.team.id).await?;
        return Ok(Json(import_result(&preview, &existing)));
    }
    let bad = preview.rows.iter().filter(|row| !row.problems.is_empty()).count();
    let entries = match preview.entries() {
        Some(entries) => entries,
        None if input.skip_invalid && bad < preview.rows.len() => preview.valid_entries(),
        None if input.skip_invalid => {
            return Err(AppError::rejected(
                "import_invalid",
                "Every row has problems, so nothing was imported. Fix them and import again.",
            ));
        }
        None => {
            let rows = if bad == 1 { "1 row has".to_owned() } else { format!("{bad} rows have") };
            return Err(AppError::rejected(
                "import_invalid",
                format!(
                    "{rows} problems, so nothing was imported. Fix them, or import the other rows alone."
                ),
            ));
        }
    };
    let existing = threads::import(&state.db, member.team.id, member.user.id, &entries).await?;
    let mut result = import_result(&preview, &existing);
    result.committed = true;
    result.skipped = bad;
    Ok(Json(result))
}

// ---- Between rows, entries and views -----------------------------------------------------

fn import_result(preview: &ImportPreview, existing: &HashSet<String>) -> ImportResult {
    let mut added = 0;
    let mut updated = 0;
    let rows = preview
        .rows
        .iter()
        .map(|row| {
            let action = row.entry.as_ref().map(|entry| {
                if existing.contains(&entry.source.identity()) {
                    updated += 1;
                    "update"
                } else {
                    added += 1;
                    "add"
                }
            });
            ImportRowView {
                line: row.line,
                thread_line: row.draft.line.clone(),
                code: row.draft.code.clone(),
                name: row.draft.name.clone(),
                quantity: row.draft.quantity.clone(),
                action: action.map(str::to_owned),
                problems: row.problems.iter().map(field_error).collect(),
                warnings: row.warnings.iter().map(field_error).collect(),
            }
        })
        .collect();
    ImportResult {
        rows,
        ignored_columns: preview.ignored_columns.clone(),
        valid: preview.is_valid(),
        committed: false,
        added,
        updated,
        skipped: 0,
    }
}

fn field_error(problem: &FieldProblem) -> FieldError {
    FieldError::new(problem.field, problem.code, problem.message.clone())
}

/// The input as the core's draft: numbers written as the exact amounts they stand for.
fn draft_of(input: &ThreadInput) -> ThreadDraft {
    let amount = |value: Option<f64>| match value {
        None => String::new(),
        Some(number) => Hundredths::from_f64(number).map_or_else(|_| number.to_string(), |a| a.to_string()),
    };
    ThreadDraft {
        line: input.line.clone().unwrap_or_default(),
        code: input.code.clone().unwrap_or_default(),
        name: input.name.clone().unwrap_or_default(),
        colour: input.colour.clone().unwrap_or_default(),
        quantity: amount(input.quantity),
        spool_length_m: input.spool_length_m.map(|m| m.to_string()).unwrap_or_default(),
        location: input.location.clone().unwrap_or_default(),
        reorder_point: amount(input.reorder_point),
        cost_per_spool: amount(input.cost_per_spool),
        notes: input.notes.clone().unwrap_or_default(),
    }
}

fn parse_input(input: &ThreadInput) -> Result<ThreadEntry, AppError> {
    draft_of(input)
        .parse(Catalogue::builtin())
        .map_err(|problems| AppError::Validation(problems.iter().map(field_error).collect()))
}

/// The search `params` ask for; `team_default`: the team's default reorder point.
fn search_query(params: &ListParams, team_default: Option<Hundredths>) -> Result<search::Query, AppError> {
    let mut errors = Vec::new();
    let closest = match params.closest.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
        None => None,
        Some(raw) => Rgb8::parse_hex(raw)
            .map_err(|_| errors.push(FieldError::new("closest", "bad_colour", "Give the colour as #RRGGBB.")))
            .ok(),
    };
    let fibre = match params.fibre.as_deref().filter(|f| !f.is_empty()) {
        None => None,
        Some(raw) => {
            let found = Fibre::ALL.into_iter().find(|fibre| fibre.as_str() == raw);
            if found.is_none() {
                errors.push(FieldError::new(
                    "fibre",
                    "invalid",
                    format!("\"{raw}\" is not a fibre the catalogue knows."),
                ));
            }
            found
        }
    };
    let sort = match params.sort.as_deref().unwrap_or("code") {
        "code" => SortKey::Code,
        "name" => SortKey::Name,
        "quantity" => SortKey::Quantity,
        "location" => SortKey::Location,
        "updated" => SortKey::Updated,
        _ => {
            errors.push(FieldError::new(
                "sort",
                "invalid",
                "Sort by code, name, quantity, location or updated.",
            ));
            SortKey::Code
        }
    };
    let descending = match params.order.as_deref().unwrap_or("asc") {
        "asc" => false,
        "desc" => true,
        _ => {
            errors.push(FieldError::new("order", "invalid", "The order is asc or desc."));
            false
        }
    };
    if !errors.is_empty() {
        return Err(AppError::Validation(errors));
    }
    Ok(search::Query {
        text: params.q.clone().unwrap_or_default(),
        closest_to: closest,
        line: params.line.clone().filter(|l| !l.is_empty()),
        fibre,
        location: params.location.clone().filter(|l| !l.is_empty()),
        low_only: params.low.unwrap_or(false),
        default_reorder_point: team_default,
        sort,
        descending,
        // No inventory has a page past its largest size, even in pages of one; bounded as the
        // page size is, so no offset computed from it comes near overflowing.
        page: params.page.unwrap_or(1).clamp(1, usize::try_from(MAX_THREADS).unwrap_or(usize::MAX)),
        per_page: params.per_page.unwrap_or(50).clamp(1, MAX_PER_PAGE),
    })
}

/// The entry as the app shows it; `team_default`: the team's default reorder point.
fn view(thread: &Thread, distance: Option<f64>, team_default: Option<Hundredths>) -> ThreadView {
    let catalogue = Catalogue::builtin();
    let entry = &thread.entry;
    // Not the whole draft, whose amounts are written out as text: the list shows fifty at once.
    let (name, colour) = entry.name_and_colour(catalogue);
    let (line, code) = match &entry.source {
        ThreadSource::Catalogue { line, code } => (Some(line.clone()), Some(code.clone())),
        ThreadSource::Custom { .. } => (None, None),
    };
    let line_index = line.as_deref().and_then(|line| catalogue.line_by_id(line).ok());
    ThreadView {
        id: thread.public_id.clone(),
        line,
        line_name: line_index.map(|index| catalogue.line(index).display_name()),
        code,
        name,
        colour: if colour.is_empty() { thread.stored_colour.clone() } else { colour },
        fibre: line_index.and_then(|index| catalogue.line(index).fibre),
        quantity: entry.quantity.as_f64(),
        spool_length_m: entry.spool_length_m,
        location: entry.location.clone(),
        reorder_point: entry.reorder_point.map(Hundredths::as_f64),
        cost_per_spool: entry.cost_per_spool.map(Hundredths::as_f64),
        notes: entry.notes.clone(),
        low: entry.is_low(team_default),
        to_buy: entry.to_buy(team_default),
        version: thread.version,
        updated_by_email: thread.updated_by_email.clone(),
        updated_at: thread.updated_at,
        distance,
    }
}
