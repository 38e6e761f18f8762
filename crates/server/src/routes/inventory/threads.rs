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

use std::collections::HashMap;

use axum::{
    Json,
    extract::State,
    http::{StatusCode, header},
    response::{IntoResponse, Response},
};
use bobbin_core::{
    catalogue::{Catalogue, Fibre},
    colour::Rgb8,
    inventory::{
        FieldProblem, Hundredths, ThreadDraft, ThreadEntry, ThreadSource,
        csv::{self, ImportPreview},
        search::{self, MAX_PER_PAGE, SortKey, Stock},
    },
    team::Action,
};
use sea_orm::{
    ActiveModelTrait as _, ActiveValue::Set, ColumnTrait as _, ConnectionTrait, DbErr, EntityTrait as _,
    FromQueryResult, PaginatorTrait as _, QueryFilter as _, QuerySelect as _, UpdateMany, prelude::Expr,
    sea_query::ExprTrait as _,
};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::thread_cache::touch;
use crate::{
    entity::inventory_thread,
    error::{AppError, ErrorBody, FieldError},
    extract::{ApiJson, ApiPath, ApiQuery, TeamMember},
    routes::{emails_of, stored_as, teams::new_public_id},
    state::AppState,
};

/// The most entries one team's thread inventory may hold.
pub const MAX_THREADS: u64 = 20_000;
/// The most codes one bulk add may list.
const MAX_BULK_CODES: usize = 500;
const NOT_FOUND: &str = "There is no such thread in this team's inventory.";

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
    /// At or below the reorder point.
    pub low: bool,
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
    /// Only entries at or below their reorder point: the shopping list.
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
    post, path = "/teams/{team_id}/threads", tag = "inventory", request_body = ThreadInput,
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`")),
    responses(
        (status = 201, body = ThreadBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such team, or not a member", body = ErrorBody),
        (status = 409, description = "`already_in_inventory`: edit that entry instead", body = ErrorBody),
        (status = 422, description = "`validation_failed`, naming each field", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn create(
    State(state): State<AppState>,
    member: TeamMember,
    ApiJson(input): ApiJson<ThreadInput>,
) -> Result<Response, AppError> {
    member.require(Action::EditContent)?;
    let entry = parse_input(&input)?;
    let txn = crate::db::begin_write(&state.db).await?;
    check_room(&txn, member.team.id, 1).await?;
    let row = insert(&txn, member.team.id, member.user.id, &entry).await?;
    touch(&txn, member.team.id).await?;
    txn.commit().await?;
    let view = view_of(&state.db, row, None).await?;
    Ok((StatusCode::CREATED, Json(ThreadBody { thread: view })).into_response())
}

/// Lists the team's threads: search, filters, sorting and pages (every member).
#[utoipa::path(
    get, path = "/teams/{team_id}/threads", tag = "inventory",
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`"), ListParams),
    responses(
        (status = 200, body = ThreadPage),
        (status = 404, description = "No such team, or not a member", body = ErrorBody),
        (status = 422, description = "`validation_failed`: a filter that cannot be read", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn list(
    State(state): State<AppState>,
    member: TeamMember,
    ApiQuery(params): ApiQuery<ListParams>,
) -> Result<Json<ThreadPage>, AppError> {
    let query = search_query(&params)?;
    // The search runs over the team's entries as this server keeps them (thread_cache); whole
    // rows are read for the page's hits only.
    let team = state.threads.threads(&state.db, &member.team).await?;
    let stock: Vec<Stock<'_>> = team
        .threads
        .iter()
        .map(|thread| Stock { entry: &thread.entry, updated_at: thread.updated_at })
        .collect();
    let page = search::search(Catalogue::builtin(), &stock, &query);
    let ids: Vec<Uuid> = page.hits.iter().map(|&(index, _)| team.threads[index].id).collect();
    let mut full: HashMap<Uuid, inventory_thread::Model> = inventory_thread::Entity::find()
        .filter(inventory_thread::Column::Id.is_in(ids))
        .all(&state.db)
        .await?
        .into_iter()
        .map(|row| (row.id, row))
        .collect();
    let emails = emails_of(&state.db, full.values().filter_map(|row| row.updated_by)).await?;
    let mut threads = Vec::with_capacity(page.hits.len());
    for &(index, distance) in &page.hits {
        // An entry removed between the two reads is left out of the page.
        if let Some(row) = full.remove(&team.threads[index].id) {
            threads.push(view(&row, &entry_of(&row)?, &emails, distance));
        }
    }
    Ok(Json(ThreadPage { threads, total: page.total, page: query.page, per_page: query.per_page }))
}

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
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`")),
    responses((status = 200, body = OwnedBody), (status = 404, description = "No such team, or not a member", body = ErrorBody)),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn owned(State(state): State<AppState>, member: TeamMember) -> Result<Json<OwnedBody>, AppError> {
    let team = state.threads.threads(&state.db, &member.team).await?;
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

/// One entry (every member).
#[utoipa::path(
    get, path = "/teams/{team_id}/threads/{thread_id}", tag = "inventory",
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`"), ("thread_id" = String, Path)),
    responses((status = 200, body = ThreadBody), (status = 404, description = "No such thread in this team", body = ErrorBody)),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn get(
    State(state): State<AppState>,
    member: TeamMember,
    ApiPath((_team, thread_id)): ApiPath<(String, String)>,
) -> Result<Json<ThreadBody>, AppError> {
    let row = find(&state.db, member.team.id, &thread_id).await?;
    Ok(Json(ThreadBody { thread: view_of(&state.db, row, None).await? }))
}

/// A full edit, made from `version` (members, admins and owners).
#[utoipa::path(
    put, path = "/teams/{team_id}/threads/{thread_id}", tag = "inventory", request_body = ThreadInput,
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`"), ("thread_id" = String, Path)),
    responses(
        (status = 200, body = ThreadBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such thread in this team", body = ErrorBody),
        (status = 409, description = "`edit_conflict`: changed by someone else since `version`; or `already_in_inventory`", body = ErrorBody),
        (status = 422, description = "`validation_failed`, naming each field", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn update(
    State(state): State<AppState>,
    member: TeamMember,
    ApiPath((_team, thread_id)): ApiPath<(String, String)>,
    ApiJson(input): ApiJson<ThreadInput>,
) -> Result<Json<ThreadBody>, AppError> {
    member.require(Action::EditContent)?;
    let Some(version) = input.version else {
        return Err(AppError::Validation(vec![FieldError::new(
            "version",
            "required",
            "Send the `version` of the entry the edit was made from.",
        )]));
    };
    let version = super::edited_version(version)?;
    let entry = parse_input(&input)?;
    let current = find(&state.db, member.team.id, &thread_id).await?;
    // Only the version the edit was made from is overwritten; anything newer stays.
    let txn = crate::db::begin_write(&state.db).await?;
    let result = change(current.id, member.user.id)
        .set(active_of(&entry)?)
        .filter(inventory_thread::Column::Version.eq(version))
        .exec(&txn)
        .await
        .map_err(duplicate_entry)?;
    super::unless_changed_meanwhile(result.rows_affected, "thread")?;
    touch(&txn, member.team.id).await?;
    txn.commit().await?;
    let row = find(&state.db, member.team.id, &thread_id).await?;
    Ok(Json(ThreadBody { thread: view_of(&state.db, row, None).await? }))
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
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`"), ("thread_id" = String, Path)),
    responses(
        (status = 200, body = ThreadBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such thread in this team", body = ErrorBody),
        (status = 422, description = "`validation_failed` (delta), or `negative_quantity`", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn adjust(
    State(state): State<AppState>,
    member: TeamMember,
    ApiPath((_team, thread_id)): ApiPath<(String, String)>,
    ApiJson(input): ApiJson<AdjustInput>,
) -> Result<Json<ThreadBody>, AppError> {
    member.require(Action::EditContent)?;
    let magnitude = Hundredths::from_f64(input.delta.abs()).map_err(|error| {
        AppError::Validation(vec![FieldError::new("delta", "bad_number", format!("The change {error}."))])
    })?;
    let delta = if input.delta < 0.0 { -magnitude.hundredths() } else { magnitude.hundredths() };
    let current = find(&state.db, member.team.id, &thread_id).await?;
    let txn = crate::db::begin_write(&state.db).await?;
    let result = change(current.id, member.user.id)
        .col_expr(
            inventory_thread::Column::Quantity,
            Expr::col(inventory_thread::Column::Quantity).add(delta),
        )
        .filter(Expr::col(inventory_thread::Column::Quantity).add(delta).gte(0))
        .filter(
            Expr::col(inventory_thread::Column::Quantity)
                .add(delta)
                .lte(bobbin_core::inventory::amount::MAX_HUNDREDTHS),
        )
        .exec(&txn)
        .await?;
    if result.rows_affected == 0 {
        return Err(AppError::rejected(
            "negative_quantity",
            "That would leave fewer than zero spools. Check the count on the shelf and set it with an edit.",
        ));
    }
    touch(&txn, member.team.id).await?;
    txn.commit().await?;
    let row = find(&state.db, member.team.id, &thread_id).await?;
    Ok(Json(ThreadBody { thread: view_of(&state.db, row, None).await? }))
}

/// Removes an entry (members, admins and owners).
#[utoipa::path(
    delete, path = "/teams/{team_id}/threads/{thread_id}", tag = "inventory",
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`"), ("thread_id" = String, Path)),
    responses(
        (status = 204, description = "Removed"),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such thread in this team", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn delete(
    State(state): State<AppState>,
    member: TeamMember,
    ApiPath((_team, thread_id)): ApiPath<(String, String)>,
) -> Result<StatusCode, AppError> {
    member.require(Action::EditContent)?;
    let row = find(&state.db, member.team.id, &thread_id).await?;
    let txn = crate::db::begin_write(&state.db).await?;
    inventory_thread::Entity::delete_by_id(row.id).exec(&txn).await?;
    touch(&txn, member.team.id).await?;
    txn.commit().await?;
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
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BulkResult {
    pub added: Vec<ThreadView>,
    /// Codes already in the inventory, left as they were.
    pub already_owned: Vec<String>,
}

/// Adds many catalogue threads of one line; codes already owned are left alone. Unknown codes
/// refuse the whole request, naming each (members, admins and owners).
#[utoipa::path(
    post, path = "/teams/{team_id}/threads/bulk", tag = "inventory", request_body = BulkInput,
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`")),
    responses(
        (status = 201, body = BulkResult),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such team, or not a member", body = ErrorBody),
        (status = 422, description = "`validation_failed`: `codes[i]` for each unknown code", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn bulk(
    State(state): State<AppState>,
    member: TeamMember,
    ApiJson(input): ApiJson<BulkInput>,
) -> Result<Response, AppError> {
    member.require(Action::EditContent)?;
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
            Err(found) => problems.extend(found.into_iter().map(|p| {
                let field = if p.field == "code" { format!("codes[{index}]") } else { p.field.to_owned() };
                FieldError::new(field, p.code, p.message)
            })),
        }
    }
    if !problems.is_empty() {
        problems.dedup_by(|a, b| a.field == b.field && a.code == b.code);
        return Err(AppError::Validation(problems));
    }
    let txn = crate::db::begin_write(&state.db).await?;
    let owned: Vec<String> = inventory_thread::Entity::find()
        .filter(inventory_thread::Column::TeamId.eq(member.team.id))
        .filter(inventory_thread::Column::Identity.is_in(entries.iter().map(|e| e.source.identity())))
        .all(&txn)
        .await?
        .into_iter()
        .map(|row| row.identity)
        .collect();
    let (already, new): (Vec<ThreadEntry>, Vec<ThreadEntry>) =
        entries.into_iter().partition(|entry| owned.contains(&entry.source.identity()));
    check_room(&txn, member.team.id, new.len()).await?;
    let mut rows = Vec::with_capacity(new.len());
    for entry in &new {
        rows.push(insert(&txn, member.team.id, member.user.id, entry).await?);
    }
    touch(&txn, member.team.id).await?;
    txn.commit().await?;
    let emails = emails_of(&state.db, [member.user.id].into_iter()).await?;
    let added = rows.iter().zip(&new).map(|(row, entry)| view(row, entry, &emails, None)).collect();
    let already_owned = already
        .into_iter()
        .filter_map(|entry| match entry.source {
            ThreadSource::Catalogue { code, .. } => Some(code),
            ThreadSource::Custom { .. } => None,
        })
        .collect();
    Ok((StatusCode::CREATED, Json(BulkResult { added, already_owned })).into_response())
}

/// The inventory, or with the list's filters a part of it (`low=true`: the shopping list), as
/// CSV for a spreadsheet (every member).
#[utoipa::path(
    get, path = "/teams/{team_id}/threads/export.csv", tag = "inventory",
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`"), ListParams),
    responses(
        (status = 200, description = "CSV, with the columns import reads", content_type = "text/csv", body = String),
        (status = 404, description = "No such team, or not a member", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn export(
    State(state): State<AppState>,
    member: TeamMember,
    ApiQuery(params): ApiQuery<ListParams>,
) -> Result<Response, AppError> {
    let mut query = search_query(&params)?;
    query.page = 1;
    query.per_page = usize::MAX;
    let rows = inventory_thread::Entity::find()
        .filter(inventory_thread::Column::TeamId.eq(member.team.id))
        .all(&state.db)
        .await?;
    let entries = rows.iter().map(entry_of).collect::<Result<Vec<_>, _>>()?;
    let stock: Vec<Stock<'_>> = entries
        .iter()
        .zip(&rows)
        .map(|(entry, row)| Stock { entry, updated_at: row.updated_at.unix_timestamp() })
        .collect();
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
        chosen.extend(found.hits.into_iter().map(|(index, _)| entries[index].clone()));
    }
    let body = csv::write(&chosen, Catalogue::builtin());
    let name = if params.low == Some(true) { "shopping-list" } else { "threads" };
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
            (header::CONTENT_DISPOSITION, format!("attachment; filename=\"{name}.csv\"")),
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ],
        body,
    )
        .into_response())
}

/// A CSV file to import: previewed, or (`commit`) written, all rows or none.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportInput {
    /// The file's text (UTF-8; a byte-order mark, `;` or tab separators and quoted fields are fine).
    #[schema(example = "line,code,quantity\nmadeira-polyneon,1805,2\n")]
    pub csv: String,
    /// false (default): only check and preview; true: write, if every row is valid.
    #[serde(default)]
    pub commit: bool,
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
}

/// Checks a CSV file and shows what it would do; with `commit`, writes it in one transaction,
/// adding new threads and replacing the entries of threads already there (members, admins and
/// owners).
#[utoipa::path(
    post, path = "/teams/{team_id}/threads/import", tag = "inventory", request_body = ImportInput,
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`")),
    responses(
        (status = 200, description = "The preview (and, with `commit`, the result)", body = ImportResult),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such team, or not a member", body = ErrorBody),
        (status = 422, description = "`import_unreadable`: no header, empty or too long; `import_invalid`: `commit` with rows that have problems", body = ErrorBody),
        (status = 503, description = "`server_busy`: too many large conversions and imports at once; try again after `Retry-After` seconds", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn import(
    State(state): State<AppState>,
    member: TeamMember,
    ApiJson(input): ApiJson<ImportInput>,
) -> Result<Json<ImportResult>, AppError> {
    member.require(Action::EditContent)?;
    // Reading and checking up to 10,000 rows: CPU work, off the async workers.
    let text = input.csv;
    let preview = state
        .heavy_work
        .run(move || csv::read(&text, Catalogue::builtin()))
        .await?
        .map_err(|error| AppError::rejected("import_unreadable", error.to_string()))?;
    if !input.commit {
        // A preview only reads: it must not wait for, or hold, the write lock.
        let existing = entries_by_identity(&state.db, member.team.id).await?;
        return Ok(Json(import_result(&preview, &existing)));
    }
    let txn = crate::db::begin_write(&state.db).await?;
    let existing = entries_by_identity(&txn, member.team.id).await?;
    let mut result = import_result(&preview, &existing);
    let Some(entries) = preview.entries() else {
        let bad = preview.rows.iter().filter(|row| !row.problems.is_empty()).count();
        return Err(AppError::rejected(
            "import_invalid",
            format!("{bad} row(s) have problems, so nothing was imported. Fix them and import again."),
        ));
    };
    check_room(&txn, member.team.id, result.added).await?;
    for entry in &entries {
        match existing.get(&entry.source.identity()) {
            Some(row) => {
                change(row.id, member.user.id).set(active_of(entry)?).exec(&txn).await?;
            }
            None => {
                insert(&txn, member.team.id, member.user.id, entry).await?;
            }
        }
    }
    touch(&txn, member.team.id).await?;
    txn.commit().await?;
    result.committed = true;
    Ok(Json(result))
}

/// The team's entries, by the identity an import matches them on.
async fn entries_by_identity(
    db: &impl ConnectionTrait,
    team_id: Uuid,
) -> Result<HashMap<String, inventory_thread::Model>, DbErr> {
    let rows =
        inventory_thread::Entity::find().filter(inventory_thread::Column::TeamId.eq(team_id)).all(db).await?;
    Ok(rows.into_iter().map(|row| (row.identity.clone(), row)).collect())
}

// ---- Between rows, entries and views -----------------------------------------------------

fn import_result(
    preview: &ImportPreview,
    existing: &HashMap<String, inventory_thread::Model>,
) -> ImportResult {
    let mut added = 0;
    let mut updated = 0;
    let rows = preview
        .rows
        .iter()
        .map(|row| {
            let action = row.entry.as_ref().map(|entry| {
                if existing.contains_key(&entry.source.identity()) {
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

fn search_query(params: &ListParams) -> Result<search::Query, AppError> {
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
        sort,
        descending,
        // No inventory has a page past its largest size, even in pages of one; bounded as the
        // page size is, so no offset computed from it comes near overflowing.
        page: params.page.unwrap_or(1).clamp(1, usize::try_from(MAX_THREADS).unwrap_or(usize::MAX)),
        per_page: params.per_page.unwrap_or(50).clamp(1, MAX_PER_PAGE),
    })
}

/// The stored row as the core's entry.
fn entry_of(row: &inventory_thread::Model) -> Result<ThreadEntry, AppError> {
    let amount = |value: i64| amount_of(row.id, value);
    Ok(ThreadEntry {
        source: source_of(row.id, row.line_id.as_ref(), row.code.as_ref(), row.name.as_ref(), &row.colour)?,
        quantity: amount(row.quantity)?,
        spool_length_m: row.spool_length_m.and_then(|m| u32::try_from(m).ok()),
        location: row.location.clone(),
        reorder_point: row.reorder_point.map(amount).transpose()?,
        cost_per_spool: row.cost_per_spool.map(amount).transpose()?,
        notes: row.notes.clone(),
    })
}

fn broken_row(id: Uuid, what: &str) -> AppError {
    AppError::Internal(anyhow::anyhow!("inventory row {id}: {what}"))
}

fn amount_of(id: Uuid, value: i64) -> Result<Hundredths, AppError> {
    Hundredths::from_hundredths(value).map_err(|_| broken_row(id, "amount"))
}

fn source_of(
    id: Uuid,
    line_id: Option<&String>,
    code: Option<&String>,
    name: Option<&String>,
    colour: &str,
) -> Result<ThreadSource, AppError> {
    Ok(match (line_id, code) {
        (Some(line), Some(code)) => ThreadSource::Catalogue { line: line.clone(), code: code.clone() },
        _ => ThreadSource::Custom {
            name: name.cloned().unwrap_or_default(),
            colour: Rgb8::parse_hex(colour).map_err(|_| broken_row(id, "colour"))?,
        },
    })
}

/// What the list's search reads of each entry.
#[derive(Debug, FromQueryResult)]
pub(super) struct SearchRow {
    pub(super) id: Uuid,
    line_id: Option<String>,
    code: Option<String>,
    name: Option<String>,
    colour: String,
    quantity: i64,
    location: String,
    reorder_point: Option<i64>,
    updated_at: OffsetDateTime,
}

impl SearchRow {
    const COLUMNS: [inventory_thread::Column; 9] = [
        inventory_thread::Column::Id,
        inventory_thread::Column::LineId,
        inventory_thread::Column::Code,
        inventory_thread::Column::Name,
        inventory_thread::Column::Colour,
        inventory_thread::Column::Quantity,
        inventory_thread::Column::Location,
        inventory_thread::Column::ReorderPoint,
        inventory_thread::Column::UpdatedAt,
    ];

    /// Every entry of the team, with only the columns the search reads: reading every column
    /// took most of a list request (scripts/bench-inventory.mjs).
    pub(super) async fn of_team(db: &impl ConnectionTrait, team_id: Uuid) -> Result<Vec<Self>, DbErr> {
        inventory_thread::Entity::find()
            .select_only()
            .columns(Self::COLUMNS)
            .filter(inventory_thread::Column::TeamId.eq(team_id))
            .into_model()
            .all(db)
            .await
    }

    pub(super) fn updated_at(&self) -> i64 {
        self.updated_at.unix_timestamp()
    }

    /// The entry as far as the search needs it: no spool length, cost or notes.
    pub(super) fn entry(&self) -> Result<ThreadEntry, AppError> {
        Ok(ThreadEntry {
            source: source_of(
                self.id,
                self.line_id.as_ref(),
                self.code.as_ref(),
                self.name.as_ref(),
                &self.colour,
            )?,
            quantity: amount_of(self.id, self.quantity)?,
            spool_length_m: None,
            location: self.location.clone(),
            reorder_point: self.reorder_point.map(|value| amount_of(self.id, value)).transpose()?,
            cost_per_spool: None,
            notes: String::new(),
        })
    }
}

/// A change of the entry `id` by `user`, to which the caller adds what changes. Every change to
/// an entry goes through here, so none forgets to raise the version (a full edit made from an
/// older one is then refused) or to say who changed it and when.
fn change(id: Uuid, user: Uuid) -> UpdateMany<inventory_thread::Entity> {
    inventory_thread::Entity::update_many()
        .col_expr(inventory_thread::Column::Version, super::raised_version(inventory_thread::Column::Version))
        .col_expr(inventory_thread::Column::UpdatedBy, Expr::value(user))
        .col_expr(inventory_thread::Column::UpdatedAt, Expr::value(OffsetDateTime::now_utc()))
        .filter(inventory_thread::Column::Id.eq(id))
}

/// The entry's columns (everything but ids, version and who/when).
fn active_of(entry: &ThreadEntry) -> Result<inventory_thread::ActiveModel, AppError> {
    let catalogue = Catalogue::builtin();
    let (line_id, code, name, colour) = match &entry.source {
        ThreadSource::Catalogue { line, code } => {
            let colour = entry.to_draft(catalogue).colour;
            (Some(line.clone()), Some(code.clone()), None, colour)
        }
        ThreadSource::Custom { name, colour } => (None, None, Some(name.clone()), colour.to_hex()),
    };
    Ok(inventory_thread::ActiveModel {
        identity: Set(entry.source.identity()),
        line_id: Set(line_id),
        code: Set(code),
        name: Set(name),
        colour: Set(colour),
        quantity: Set(entry.quantity.hundredths()),
        spool_length_m: Set(entry.spool_length_m.map(|m| stored_as("spool_length_m", m)).transpose()?),
        location: Set(entry.location.clone()),
        reorder_point: Set(entry.reorder_point.map(Hundredths::hundredths)),
        cost_per_spool: Set(entry.cost_per_spool.map(Hundredths::hundredths)),
        notes: Set(entry.notes.clone()),
        ..Default::default()
    })
}

async fn insert(
    db: &impl ConnectionTrait,
    team_id: Uuid,
    user_id: Uuid,
    entry: &ThreadEntry,
) -> Result<inventory_thread::Model, AppError> {
    let now = OffsetDateTime::now_utc();
    let mut model = active_of(entry)?;
    model.id = Set(Uuid::new_v4());
    model.public_id = Set(new_public_id());
    model.team_id = Set(team_id);
    model.version = Set(1);
    model.updated_by = Set(Some(user_id));
    model.created_at = Set(now);
    model.updated_at = Set(now);
    model.insert(db).await.map_err(duplicate_entry)
}

/// The database's uniqueness of (team, thread) as the API's answer.
fn duplicate_entry(error: sea_orm::DbErr) -> AppError {
    match error.sql_err() {
        Some(sea_orm::SqlErr::UniqueConstraintViolation(_)) => AppError::conflict(
            "already_in_inventory",
            "This thread is already in the inventory: change that entry's quantity instead.",
        ),
        _ => AppError::Database(error),
    }
}

async fn check_room(db: &impl ConnectionTrait, team_id: Uuid, adding: usize) -> Result<(), AppError> {
    let count = inventory_thread::Entity::find()
        .filter(inventory_thread::Column::TeamId.eq(team_id))
        .count(db)
        .await?;
    if count + adding as u64 > MAX_THREADS {
        return Err(AppError::rejected(
            "inventory_full",
            format!("A team's thread inventory holds at most {MAX_THREADS} entries."),
        ));
    }
    Ok(())
}

async fn find(
    db: &impl ConnectionTrait,
    team_id: Uuid,
    public_id: &str,
) -> Result<inventory_thread::Model, AppError> {
    inventory_thread::Entity::find()
        .filter(inventory_thread::Column::TeamId.eq(team_id))
        .filter(inventory_thread::Column::PublicId.eq(public_id))
        .one(db)
        .await?
        .ok_or_else(|| AppError::NotFound(NOT_FOUND.to_owned()))
}

async fn view_of(
    db: &impl ConnectionTrait,
    row: inventory_thread::Model,
    distance: Option<f64>,
) -> Result<ThreadView, AppError> {
    let entry = entry_of(&row)?;
    let emails = emails_of(db, row.updated_by.into_iter()).await?;
    Ok(view(&row, &entry, &emails, distance))
}

fn view(
    row: &inventory_thread::Model,
    entry: &ThreadEntry,
    emails: &HashMap<Uuid, String>,
    distance: Option<f64>,
) -> ThreadView {
    let catalogue = Catalogue::builtin();
    let draft = entry.to_draft(catalogue);
    let line_index = row.line_id.as_deref().and_then(|line| catalogue.line_by_id(line).ok());
    ThreadView {
        id: row.public_id.clone(),
        line: row.line_id.clone(),
        line_name: line_index.map(|index| catalogue.line(index).display_name()),
        code: row.code.clone(),
        name: draft.name,
        colour: if draft.colour.is_empty() { row.colour.clone() } else { draft.colour },
        fibre: line_index.and_then(|index| catalogue.line(index).fibre),
        quantity: entry.quantity.as_f64(),
        spool_length_m: entry.spool_length_m,
        location: entry.location.clone(),
        reorder_point: entry.reorder_point.map(Hundredths::as_f64),
        cost_per_spool: entry.cost_per_spool.map(Hundredths::as_f64),
        notes: entry.notes.clone(),
        low: entry.is_low(),
        version: row.version,
        updated_by_email: row.updated_by.and_then(|id| emails.get(&id).cloned()),
        updated_at: row.updated_at,
        distance,
    }
}
