//! Saved quotes of the pricing calculator: `/api/v2/teams/{team_id}/quotes...`. Every member
//! reads; members, admins and owners save, duplicate and remove.
//!
//! The browser prices a job with the WebAssembly core and sends the inputs with the result it
//! showed. The server prices the same inputs with the same core (`bobbin_core::pricing::price`)
//! and refuses the quote (`422 quote_mismatch`) unless the results are equal, so a saved quote is
//! always what the rules give, never a figure a client made up.
#![expect(unused_qualifications, reason = "utoipa's generated code for `IntoParams`")]

use std::collections::HashMap;

use axum::{
    Json,
    extract::State,
    http::StatusCode,
    response::{IntoResponse, Response},
};
use bobbin_core::{
    pricing::{self, Job, Quote, Rates},
    team::Action,
};
use sea_orm::{
    ActiveModelTrait as _, ActiveValue::Set, ColumnTrait as _, ConnectionTrait, EntityTrait as _,
    PaginatorTrait as _, QueryFilter as _, QueryOrder as _,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use time::OffsetDateTime;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use crate::{
    entity::quote,
    error::{AppError, ErrorBody, FieldError},
    extract::{ApiJson, ApiPath, ApiQuery, TeamMember},
    routes::{emails_of, stored_as, teams::new_public_id},
    state::AppState,
};

/// The most quotes one team keeps.
pub const MAX_QUOTES: u64 = 10_000;
/// The longest quote name, in characters.
const NAME_MAX: usize = 200;
/// The largest `design` object (its file name and figures), in bytes of JSON.
const DESIGN_MAX_BYTES: usize = 4 * 1024;
const MAX_PER_PAGE: u64 = 100;
/// The last page anyone can need: a team keeps at most [`MAX_QUOTES`], so even pages of one
/// quote end here. Bounding the page keeps the offset (`(page - 1) * per_page`, which the
/// paginator computes unchecked) far from overflowing; a page of 2^63 answered 500.
const MAX_PAGE: u64 = MAX_QUOTES;
const NOT_FOUND: &str = "There is no such quote in this team.";

/// A quote to save: what was priced, and the result the calculator showed.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct QuoteInput {
    /// What the quote is for, e.g. "Café Rosa: 50 polos".
    pub name: String,
    /// ISO 4217, e.g. `EUR`: the figures are rounded to its minor unit.
    pub currency: String,
    /// The price list used (`bobbin_core::pricing::Rates`).
    #[schema(value_type = Object)]
    pub rates: Rates,
    /// The job (`bobbin_core::pricing::Job`).
    #[schema(value_type = Object)]
    pub job: Job,
    /// The design file's name and figures, if the stitch count came from one (at most 4 KiB).
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub design: Option<Value>,
    /// The result the calculator showed (`bobbin_core::pricing::Quote`).
    #[schema(value_type = Object)]
    pub result: Quote,
}

/// A quote in the list.
#[derive(Debug, Serialize, ToSchema)]
pub struct QuoteSummary {
    pub id: String,
    pub name: String,
    pub currency: String,
    pub quantity: u32,
    /// Decimal text, e.g. `"7.12"`.
    pub per_piece: String,
    pub total: String,
    pub created_by_email: Option<String>,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

/// A quote with everything needed to reopen it.
#[derive(Debug, Serialize, ToSchema)]
pub struct QuoteView {
    #[serde(flatten)]
    pub summary: QuoteSummary,
    #[schema(value_type = Object)]
    pub rates: Rates,
    #[schema(value_type = Object)]
    pub job: Job,
    #[schema(value_type = Option<Object>)]
    pub design: Option<Value>,
    #[schema(value_type = Object)]
    pub result: Quote,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct QuoteBody {
    pub quote: QuoteView,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct QuotePage {
    pub quotes: Vec<QuoteSummary>,
    pub total: u64,
    pub page: u64,
    pub per_page: u64,
}

/// Which page of the list, newest first.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct ListParams {
    /// Part of the name.
    pub q: Option<String>,
    /// 1 to 10,000; 1 when not given.
    pub page: Option<u64>,
    /// At most 100; 20 when not given.
    pub per_page: Option<u64>,
}

/// What is stored as the quote's `input`.
#[derive(Debug, Serialize, Deserialize)]
struct Stored {
    rates: Rates,
    job: Job,
    design: Option<Value>,
}

/// The team's quotes, newest first (every member).
#[utoipa::path(
    get, path = "/teams/{team_id}/quotes", tag = "quotes",
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`"), ListParams),
    responses((status = 200, body = QuotePage), (status = 404, description = "No such team, or not a member", body = ErrorBody)),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn list(
    State(state): State<AppState>,
    member: TeamMember,
    ApiQuery(params): ApiQuery<ListParams>,
) -> Result<Json<QuotePage>, AppError> {
    let page = params.page.unwrap_or(1).clamp(1, MAX_PAGE);
    let per_page = params.per_page.unwrap_or(20).clamp(1, MAX_PER_PAGE);
    let mut query = quote::Entity::find().filter(quote::Column::TeamId.eq(member.team.id));
    if let Some(text) = params.q.as_deref().map(str::trim).filter(|q| !q.is_empty()) {
        query = query.filter(name_contains(text));
    }
    let pages = query
        .order_by_desc(quote::Column::CreatedAt)
        .order_by_desc(quote::Column::Id)
        .paginate(&state.db, per_page);
    let total = pages.num_items().await?;
    let rows = pages.fetch_page(page - 1).await?;
    let emails = emails_of(&state.db, rows.iter().filter_map(|row| row.created_by)).await?;
    let quotes = rows.iter().map(|row| summary(row, &emails)).collect::<Result<_, _>>()?;
    Ok(Json(QuotePage { quotes, total, page, per_page }))
}

/// Saves a quote, once the server's own pricing of its inputs gives the same result (members,
/// admins and owners).
#[utoipa::path(
    post, path = "/teams/{team_id}/quotes", tag = "quotes", request_body = QuoteInput,
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`")),
    responses(
        (status = 201, body = QuoteBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such team, or not a member", body = ErrorBody),
        (status = 422, description = "`validation_failed`, naming each field; `quote_mismatch`: the result is not what the inputs give; `too_many_quotes`", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn create(
    State(state): State<AppState>,
    member: TeamMember,
    ApiJson(input): ApiJson<QuoteInput>,
) -> Result<Response, AppError> {
    member.require(Action::EditContent)?;
    let name = parse_name(&input.name)?;
    let currency = parse_currency(&input.currency)?;
    if input.design.as_ref().is_some_and(|design| design.to_string().len() > DESIGN_MAX_BYTES) {
        return Err(AppError::Validation(vec![FieldError::new(
            "design",
            "too_large",
            format!("The design's details may be at most {DESIGN_MAX_BYTES} bytes."),
        )]));
    }
    let result = reprice(&input.rates, &input.job, &currency)?;
    if result != input.result {
        return Err(AppError::rejected(
            "quote_mismatch",
            format!(
                "These inputs give {} a piece and {} in all, not the {} and {} sent. Reload the calculator and save again.",
                result.per_piece, result.total, input.result.per_piece, input.result.total
            ),
        ));
    }
    let stored = Stored { rates: input.rates, job: input.job, design: input.design };
    let row = crate::db::committed(&state.db, async |txn| {
        insert(txn, &member, name, currency, &stored, &result).await
    })
    .await?;
    created(&state.db, row).await
}

/// One quote with its inputs and result (every member).
#[utoipa::path(
    get, path = "/teams/{team_id}/quotes/{quote_id}", tag = "quotes",
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`"), ("quote_id" = String, Path)),
    responses((status = 200, body = QuoteBody), (status = 404, description = "No such quote in this team", body = ErrorBody)),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn get(
    State(state): State<AppState>,
    member: TeamMember,
    ApiPath((_team, quote_id)): ApiPath<(String, String)>,
) -> Result<Json<QuoteBody>, AppError> {
    let row = find(&state.db, member.team.id, &quote_id).await?;
    let emails = emails_of(&state.db, row.created_by.into_iter()).await?;
    Ok(Json(QuoteBody { quote: view(&row, &emails)? }))
}

/// Saves a copy of a quote, named "Copy of ...", priced again from its inputs (members, admins
/// and owners).
#[utoipa::path(
    post, path = "/teams/{team_id}/quotes/{quote_id}/duplicate", tag = "quotes",
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`"), ("quote_id" = String, Path)),
    responses(
        (status = 201, body = QuoteBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such quote in this team", body = ErrorBody),
        (status = 422, description = "`too_many_quotes`", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn duplicate(
    State(state): State<AppState>,
    member: TeamMember,
    ApiPath((_team, quote_id)): ApiPath<(String, String)>,
) -> Result<Response, AppError> {
    member.require(Action::EditContent)?;
    let original = find(&state.db, member.team.id, &quote_id).await?;
    let stored = stored_of(&original)?;
    let result = reprice(&stored.rates, &stored.job, &original.currency)?;
    let name: String = format!("Copy of {}", original.name).chars().take(NAME_MAX).collect();
    let row = crate::db::committed(&state.db, async |txn| {
        insert(txn, &member, name, original.currency.clone(), &stored, &result).await
    })
    .await?;
    created(&state.db, row).await
}

/// Removes a quote (members, admins and owners).
#[utoipa::path(
    delete, path = "/teams/{team_id}/quotes/{quote_id}", tag = "quotes",
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`"), ("quote_id" = String, Path)),
    responses(
        (status = 204, description = "Removed"),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such quote in this team", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn delete(
    State(state): State<AppState>,
    member: TeamMember,
    ApiPath((_team, quote_id)): ApiPath<(String, String)>,
) -> Result<StatusCode, AppError> {
    member.require(Action::EditContent)?;
    let row = find(&state.db, member.team.id, &quote_id).await?;
    quote::Entity::delete_by_id(row.id).exec(&state.db).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Names holding `text`, without regard to case on both databases (PostgreSQL's `LIKE` minds
/// case, SQLite's does not); `%` and `_` are letters to look for, not wildcards.
fn name_contains(text: &str) -> sea_orm::sea_query::SimpleExpr {
    // Imported here only: `ExprTrait` would otherwise shadow `Ord::max` on numbers.
    use sea_orm::sea_query::{Expr, ExprTrait as _, Func, LikeExpr};
    let escaped = text.to_lowercase().replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
    Expr::expr(Func::lower(Expr::col(quote::Column::Name)))
        .like(LikeExpr::new(format!("%{escaped}%")).escape('\\'))
}

fn parse_name(raw: &str) -> Result<String, AppError> {
    let name = raw.trim();
    let problem = if name.is_empty() {
        Some(("required", "Name the quote, e.g. the customer and the job.".to_owned()))
    } else if name.chars().count() > NAME_MAX {
        Some(("too_long", format!("Use at most {NAME_MAX} characters.")))
    } else {
        None
    };
    match problem {
        Some((code, message)) => Err(AppError::Validation(vec![FieldError::new("name", code, message)])),
        None => Ok(name.to_owned()),
    }
}

fn parse_currency(raw: &str) -> Result<String, AppError> {
    if pricing::is_currency_code(raw) {
        Ok(raw.to_owned())
    } else {
        Err(AppError::Validation(vec![FieldError::new(
            "currency",
            "invalid",
            "Give the currency as its three-letter ISO 4217 code, such as EUR or USD.",
        )]))
    }
}

/// The core's price of the inputs, or their problems as field errors.
fn reprice(rates: &Rates, job: &Job, currency: &str) -> Result<Quote, AppError> {
    pricing::price(rates, job, pricing::minor_unit_decimals(currency)).map_err(|problems| {
        AppError::Validation(
            problems
                .into_iter()
                .map(|problem| FieldError::new(problem.field, problem.code, problem.message))
                .collect(),
        )
    })
}

async fn insert(
    db: &impl ConnectionTrait,
    member: &TeamMember,
    name: String,
    currency: String,
    stored: &Stored,
    result: &Quote,
) -> Result<quote::Model, AppError> {
    let count = quote::Entity::find().filter(quote::Column::TeamId.eq(member.team.id)).count(db).await?;
    if count >= MAX_QUOTES {
        return Err(AppError::rejected(
            "too_many_quotes",
            format!("A team keeps at most {MAX_QUOTES} quotes: remove old ones first."),
        ));
    }
    let row = quote::ActiveModel {
        id: Set(Uuid::new_v4()),
        public_id: Set(new_public_id()),
        team_id: Set(member.team.id),
        name: Set(name),
        currency: Set(currency),
        quantity: Set(stored_as("job.quantity", stored.job.quantity)?),
        per_piece: Set(result.per_piece.to_string()),
        total: Set(result.total.to_string()),
        input: Set(to_json(stored)?),
        result: Set(to_json(result)?),
        created_by: Set(Some(member.user.id)),
        created_at: Set(OffsetDateTime::now_utc()),
    }
    .insert(db)
    .await?;
    Ok(row)
}

/// JSON text of what is stored; a failure here is a bug, not the caller's mistake.
fn to_json(value: &impl Serialize) -> Result<String, AppError> {
    serde_json::to_string(value).map_err(|error| AppError::Internal(error.into()))
}

async fn created(db: &impl ConnectionTrait, row: quote::Model) -> Result<Response, AppError> {
    let emails = emails_of(db, row.created_by.into_iter()).await?;
    Ok((StatusCode::CREATED, Json(QuoteBody { quote: view(&row, &emails)? })).into_response())
}

async fn find(db: &impl ConnectionTrait, team_id: Uuid, public_id: &str) -> Result<quote::Model, AppError> {
    quote::Entity::find()
        .filter(quote::Column::TeamId.eq(team_id))
        .filter(quote::Column::PublicId.eq(public_id))
        .one(db)
        .await?
        .ok_or_else(|| AppError::NotFound(NOT_FOUND.to_owned()))
}

fn broken(row: &quote::Model, what: &str, error: impl std::fmt::Display) -> AppError {
    AppError::Internal(anyhow::anyhow!("quote {}: {what}: {error}", row.id))
}

fn summary(row: &quote::Model, emails: &HashMap<Uuid, String>) -> Result<QuoteSummary, AppError> {
    Ok(QuoteSummary {
        id: row.public_id.clone(),
        name: row.name.clone(),
        currency: row.currency.clone(),
        quantity: u32::try_from(row.quantity).map_err(|error| broken(row, "quantity", error))?,
        per_piece: row.per_piece.clone(),
        total: row.total.clone(),
        created_by_email: row.created_by.and_then(|id| emails.get(&id).cloned()),
        created_at: row.created_at,
    })
}

fn stored_of(row: &quote::Model) -> Result<Stored, AppError> {
    serde_json::from_str(&row.input).map_err(|error| broken(row, "input", error))
}

fn view(row: &quote::Model, emails: &HashMap<Uuid, String>) -> Result<QuoteView, AppError> {
    let stored = stored_of(row)?;
    let result = serde_json::from_str(&row.result).map_err(|error| broken(row, "result", error))?;
    Ok(QuoteView {
        summary: summary(row, emails)?,
        rates: stored.rates,
        job: stored.job,
        design: stored.design,
        result,
    })
}
