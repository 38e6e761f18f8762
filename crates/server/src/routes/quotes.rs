//! Saved quotes of the pricing calculator: `/api/v2/teams/{team_id}/quotes...`. Every member
//! reads; members, admins and owners save, duplicate and remove.
//!
//! The browser prices a job with the WebAssembly core and sends the inputs with the result it
//! showed. The server prices the same inputs with the same core (`bobbin_core::pricing::price`)
//! and refuses the quote (`422 quote_mismatch`) unless the results are equal, so a saved quote is
//! always what the rules give, never a figure a client made up.
#![expect(unused_qualifications, reason = "utoipa's generated code for `IntoParams`")]

use axum::{Json, extract::State, http::StatusCode, response::Response};
use bobbin_core::pricing::{self, Job, Quote, Rates};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{entity::ids::QuotePublicId, extract::PathId};
use crate::{
    error::{AppError, ErrorBody, FieldError},
    extract::{ApiQuery, IdempotencyKeyHeader, KeyedJson, TeamEditor, TeamViewer, answered},
    repo::{
        quotes::{self, MAX_QUOTES, QuoteSummary, QuoteView, SavedDesign, Stored, StoredDesign},
        write_keys,
    },
    state::AppState,
};

/// The longest quote name, in characters.
const NAME_MAX: usize = 200;
/// The largest `design` object (its file name and figures), in bytes of JSON.
const DESIGN_MAX_BYTES: usize = 4 * 1024;
const MAX_PER_PAGE: u64 = 100;
/// The last page anyone can need: a team keeps at most [`MAX_QUOTES`], so even pages of one
/// quote end here. Bounding the page keeps the offset (`(page - 1) * per_page`, which the
/// paginator computes unchecked) far from overflowing; a page of 2^63 answered 500.
const MAX_PAGE: u64 = MAX_QUOTES;

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
    /// The design file's name and figures, if the stitch count came from one (at most 4 KiB
    /// as JSON).
    #[serde(default)]
    pub design: Option<SavedDesign>,
    /// The result the calculator showed (`bobbin_core::pricing::Quote`).
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

/// The team's quotes, newest first (every member).
#[utoipa::path(
    get, path = "/teams/{team_id}/quotes", operation_id = "list_quotes", tag = "quotes",
    params(ListParams),
    responses((status = 200, body = QuotePage)),
)]
pub async fn list(
    State(state): State<AppState>,
    member: TeamViewer,
    ApiQuery(params): ApiQuery<ListParams>,
) -> Result<Json<QuotePage>, AppError> {
    let page = params.page.unwrap_or(1).clamp(1, MAX_PAGE);
    let per_page = params.per_page.unwrap_or(20).clamp(1, MAX_PER_PAGE);
    let text = params.q.as_deref().map(str::trim).filter(|q| !q.is_empty());
    let (quotes, total) = quotes::page(&state.db, member.team.id, text, page, per_page).await?;
    Ok(Json(QuotePage { quotes, total, page, per_page }))
}

/// Saves a quote, once the server's own pricing of its inputs gives the same result (members,
/// admins and owners).
#[utoipa::path(
    post, path = "/teams/{team_id}/quotes", operation_id = "create_quote", tag = "quotes", request_body = QuoteInput,
    params(IdempotencyKeyHeader),
    responses(
        (status = 201, body = QuoteBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 422, description = "`validation_failed`, naming each field; `quote_mismatch`: the result is not what the inputs give; `no_such_design`: `design.id` is no file of the team's library; `too_many_quotes`; `idempotency_key_reused`", body = ErrorBody),
    ),
)]
pub async fn create(
    State(state): State<AppState>,
    member: TeamEditor,
    KeyedJson { key, body: input }: KeyedJson<QuoteInput>,
) -> Result<Response, AppError> {
    let name = parse_name(&input.name)?;
    let currency = parse_currency(&input.currency)?;
    if input.design.as_ref().is_some_and(|design| json_len(design) > DESIGN_MAX_BYTES) {
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
    let stored = Stored { rates: input.rates, job: input.job, design: input.design.map(StoredDesign::Saved) };
    let (team_id, user_id) = (member.team.id, member.user.id);
    let answer = write_keys::once(&state.db, member.key_owner(), key.as_ref(), async |txn| {
        quotes::check_library_design(txn, team_id, &stored).await?;
        let quote = quotes::save(txn, team_id, user_id, name, currency, &stored, &result).await?;
        Ok(QuoteBody { quote })
    })
    .await?;
    Ok(answered(StatusCode::CREATED, answer))
}

/// One quote with its inputs and result (every member).
#[utoipa::path(
    get, path = "/teams/{team_id}/quotes/{quote_id}", operation_id = "get_quote", tag = "quotes",
    params(("quote_id" = String, Path)),
    responses((status = 200, body = QuoteBody), (status = 404, description = "No such quote in this team", body = ErrorBody)),
)]
pub async fn get(
    State(state): State<AppState>,
    member: TeamViewer,
    PathId(quote_id): PathId<QuotePublicId>,
) -> Result<Json<QuoteBody>, AppError> {
    Ok(Json(QuoteBody { quote: quotes::get(&state.db, member.team.id, &quote_id).await? }))
}

/// Saves a copy of a quote, named "Copy of ...", priced again from its inputs (members, admins
/// and owners). A design saved before designs were checked, of another shape, is not copied.
#[utoipa::path(
    post, path = "/teams/{team_id}/quotes/{quote_id}/duplicate", tag = "quotes",
    params(("quote_id" = String, Path)),
    responses(
        (status = 201, body = QuoteBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such quote in this team", body = ErrorBody),
        (status = 422, description = "`too_many_quotes`", body = ErrorBody),
    ),
)]
pub async fn duplicate(
    State(state): State<AppState>,
    member: TeamEditor,
    PathId(quote_id): PathId<QuotePublicId>,
) -> Result<Response, AppError> {
    let original = quotes::get(&state.db, member.team.id, &quote_id).await?;
    let result = reprice(&original.rates, &original.job, &original.summary.currency)?;
    let name: String = format!("Copy of {}", original.summary.name).chars().take(NAME_MAX).collect();
    let design = original.design.and_then(StoredDesign::saved).map(StoredDesign::Saved);
    let stored = Stored { rates: original.rates, job: original.job, design };
    let (team_id, user_id, currency) = (member.team.id, member.user.id, original.summary.currency);
    let answer = write_keys::once(&state.db, member.key_owner(), None, async |txn| {
        let quote = quotes::save(txn, team_id, user_id, name, currency, &stored, &result).await?;
        Ok(QuoteBody { quote })
    })
    .await?;
    Ok(answered(StatusCode::CREATED, answer))
}

/// Removes a quote (members, admins and owners).
#[utoipa::path(
    delete, path = "/teams/{team_id}/quotes/{quote_id}", operation_id = "delete_quote", tag = "quotes",
    params(("quote_id" = String, Path)),
    responses(
        (status = 204, description = "Removed"),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such quote in this team", body = ErrorBody),
    ),
)]
pub async fn delete(
    State(state): State<AppState>,
    member: TeamEditor,
    PathId(quote_id): PathId<QuotePublicId>,
) -> Result<StatusCode, AppError> {
    quotes::delete(&state.db, member.team.id, &quote_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The length of `value` as compact JSON.
fn json_len(value: &impl Serialize) -> usize {
    serde_json::to_vec(value).map_or(usize::MAX, |json| json.len())
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
