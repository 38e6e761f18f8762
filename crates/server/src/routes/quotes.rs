//! Quotes: `/api/v2/teams/{team_id}/quotes...`. Every member reads; members, admins and owners
//! save, change, send, withdraw, duplicate and remove (docs/behaviour.md, "Quotes"). The
//! customer's side, reached by a link's token, is [`super::quote_links`].
//!
//! The browser prices a job with the WebAssembly core and sends the inputs with the result it
//! showed. The server prices the same inputs with the same core (`bobbin_core::pricing::price`)
//! and refuses the quote (`422 quote_mismatch`) unless the results are equal, so a saved quote is
//! always what the rules give, never a figure a client made up.
#![expect(unused_qualifications, reason = "utoipa's generated code for `IntoParams`")]

use axum::{
    Json,
    extract::{Path, State},
    http::{StatusCode, header},
    response::{IntoResponse as _, Response},
};
use bobbin_core::{
    pricing::{self, Job, Quote, Rates},
    quote::{MAX_VALID_DAYS, QuoteStatus, Terms, valid_until},
    settings::{self, QuoteSettings},
};
use serde::{Deserialize, Serialize};
use time::{Date, OffsetDateTime};
use utoipa::{IntoParams, ToSchema};

use crate::{
    auth::secret::{random_token, sha256_hex},
    entity::ids::{QuotePublicId, TeamId},
    extract::PathId,
    mail::MailAddress,
    repo::{
        quotes::{Changes, Customer, CustomerQuote, EventView, NewQuote, Shop},
        settings::{self as stored_settings, Scope},
    },
};
use crate::{
    error::{AppError, ErrorBody, FieldError},
    extract::{ApiJson, ApiQuery, IdempotencyKeyHeader, KeyedJson, TeamEditor, TeamViewer, answered},
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
    /// Who it is for, if known when it is saved.
    #[serde(default)]
    pub customer: Option<CustomerInput>,
}

/// Who a quote is for, as typed.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CustomerInput {
    /// At most 200 characters.
    #[serde(default)]
    pub name: String,
    /// At most 200 characters.
    #[serde(default)]
    pub company: String,
    /// Where the quote is e-mailed; may be empty until it is sent by e-mail.
    #[serde(default)]
    pub email: String,
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
    /// Only quotes in this status today (`expired`: waiting on the customer past their date).
    #[param(value_type = Option<QuoteStatus>)]
    pub status: Option<QuoteStatus>,
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
    let (quotes, total) =
        quotes::page(&state.db, member.team.id, text, params.status, page, per_page).await?;
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
    let customer = input.customer.as_ref().map(parse_customer).transpose()?.unwrap_or_default();
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
    let (team_id, user_id) = (member.team.id, member.user.id);
    let new = NewQuote {
        name,
        currency,
        customer,
        terms: Terms::for_job(&input.job, &input.rates),
        valid_until: valid_until(today(), quote_settings(&state, team_id).await?.valid_days),
    };
    let stored = Stored { rates: input.rates, job: input.job, design: input.design.map(StoredDesign::Saved) };
    let answer = write_keys::once(&state.db, member.key_owner(), key.as_ref(), async |txn| {
        quotes::check_library_design(txn, team_id, &stored).await?;
        let quote = quotes::save(txn, team_id, user_id, new, &stored, &result).await?;
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

/// Saves a copy of a quote, named "Copy of ...", priced again from its inputs, as a new draft
/// with the next number, the same customer and terms, and a new validity date (members, admins
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
    let team_id = member.team.id;
    let new = NewQuote {
        name,
        currency: original.summary.currency,
        customer: original.customer,
        terms: original.terms,
        valid_until: valid_until(today(), quote_settings(&state, team_id).await?.valid_days),
    };
    let stored = Stored { rates: original.rates, job: original.job, design };
    let user_id = member.user.id;
    let answer = write_keys::once(&state.db, member.key_owner(), None, async |txn| {
        let quote = quotes::save(txn, team_id, user_id, new, &stored, &result).await?;
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

/// A change of a quote: each field given replaces the quote's; `revision` is the version the
/// editor saw.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct QuotePatch {
    pub revision: u32,
    pub name: Option<String>,
    pub customer: Option<CustomerInput>,
    pub terms: Option<Terms>,
    /// The last day it may be approved: today to a year from today.
    #[schema(value_type = Option<String>, format = Date)]
    #[serde(default, with = "crate::repo::iso_date::option")]
    pub valid_until: Option<Date>,
}

/// Changes a quote, keeping the version before as its customer saw it (members, admins and
/// owners). A sent quote stays with its customer, who sees the new version at their link; an
/// answer they send for the old version is refused (`409 quote_changed`).
#[utoipa::path(
    patch, path = "/teams/{team_id}/quotes/{quote_id}", operation_id = "update_quote", tag = "quotes", request_body = QuotePatch,
    params(("quote_id" = String, Path)),
    responses(
        (status = 200, body = QuoteBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such quote in this team", body = ErrorBody),
        (status = 409, description = "`edit_conflict`: changed since `revision`; `quote_approved`: final", body = ErrorBody),
        (status = 422, description = "`validation_failed`, naming each field", body = ErrorBody),
    ),
)]
pub async fn update(
    State(state): State<AppState>,
    member: TeamEditor,
    PathId(quote_id): PathId<QuotePublicId>,
    ApiJson(patch): ApiJson<QuotePatch>,
) -> Result<Json<QuoteBody>, AppError> {
    let team_id = member.team.id;
    let currency = quotes::currency(&state.db, team_id, &quote_id).await?;
    let mut errors = Vec::new();
    let name = patch.name.as_deref().map(parse_name).transpose().unwrap_or_else(|error| {
        errors.extend(field_errors(error));
        None
    });
    let customer = patch.customer.as_ref().map(parse_customer).transpose().unwrap_or_else(|error| {
        errors.extend(field_errors(error));
        None
    });
    if let Some(terms) = &patch.terms {
        errors.extend(
            terms
                .problems(pricing::minor_unit_decimals(&currency))
                .into_iter()
                .map(|problem| FieldError::new(problem.field, problem.code, problem.message)),
        );
    }
    if let Some(until) = patch.valid_until
        && !(today()..=valid_until(today(), MAX_VALID_DAYS)).contains(&until)
    {
        errors.push(FieldError::new(
            "valid_until",
            "out_of_range",
            format!("Give a date from today to {MAX_VALID_DAYS} days from today."),
        ));
    }
    if !errors.is_empty() {
        return Err(AppError::Validation(errors));
    }
    let changes = Changes { name, customer, terms: patch.terms, valid_until: patch.valid_until };
    let shop = shop_of(&state, &member.team).await?;
    let user_id = member.user.id;
    let quote = crate::db::committed(&state.db, async |txn| {
        quotes::revise(txn, team_id, user_id, &quote_id, patch.revision, changes, &shop).await
    })
    .await?;
    Ok(Json(QuoteBody { quote }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EventsBody {
    /// Newest first, at most 200.
    pub events: Vec<EventView>,
}

/// The quote's history: made, changed, sent, viewed, answered, asked, withdrawn (every member).
#[utoipa::path(
    get, path = "/teams/{team_id}/quotes/{quote_id}/events", operation_id = "quote_events", tag = "quotes",
    params(("quote_id" = String, Path)),
    responses((status = 200, body = EventsBody), (status = 404, description = "No such quote in this team", body = ErrorBody)),
)]
pub async fn events(
    State(state): State<AppState>,
    member: TeamViewer,
    PathId(quote_id): PathId<QuotePublicId>,
) -> Result<Json<EventsBody>, AppError> {
    Ok(Json(EventsBody { events: quotes::events(&state.db, member.team.id, &quote_id).await? }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DocumentBody {
    pub document: CustomerQuote,
}

/// The quote as its customer sees it (every member).
#[utoipa::path(
    get, path = "/teams/{team_id}/quotes/{quote_id}/document", operation_id = "quote_document", tag = "quotes",
    params(("quote_id" = String, Path)),
    responses((status = 200, body = DocumentBody), (status = 404, description = "No such quote in this team", body = ErrorBody)),
)]
pub async fn document(
    State(state): State<AppState>,
    member: TeamViewer,
    PathId(quote_id): PathId<QuotePublicId>,
) -> Result<Json<DocumentBody>, AppError> {
    let row = quotes::row(&state.db, member.team.id, &quote_id).await?;
    let shop = shop_of(&state, &member.team).await?;
    Ok(Json(DocumentBody { document: quotes::customer_quote(&row, &shop)? }))
}

/// The path of an earlier version.
#[derive(Debug, Deserialize)]
pub struct RevisionPath {
    pub quote_id: String,
    pub revision: String,
}

/// An earlier version of the quote as its customer saw it (every member).
#[utoipa::path(
    get, path = "/teams/{team_id}/quotes/{quote_id}/revisions/{revision}", operation_id = "quote_revision", tag = "quotes",
    params(("quote_id" = String, Path), ("revision" = u32, Path)),
    responses((status = 200, body = DocumentBody), (status = 404, description = "No such quote in this team, or no such earlier version", body = ErrorBody)),
)]
pub async fn revision(
    State(state): State<AppState>,
    member: TeamViewer,
    Path(path): Path<RevisionPath>,
) -> Result<Json<DocumentBody>, AppError> {
    let not_found = || AppError::NotFound(quotes::NOT_FOUND.to_owned());
    let quote_id: QuotePublicId = path.quote_id.parse().map_err(|_| not_found())?;
    let revision: u32 = path.revision.parse().map_err(|_| not_found())?;
    Ok(Json(DocumentBody {
        document: quotes::revision(&state.db, member.team.id, &quote_id, revision).await?,
    }))
}

/// How a quote is sent.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SendBody {
    /// E-mail the link to the customer's address; otherwise only make the link, to share by hand.
    pub email: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SentBody {
    pub quote: QuoteView,
    /// The customer's link, shown this once: only its hash is kept.
    pub link: String,
}

/// Makes a new link for the customer, and e-mails it to them if asked (members, admins and
/// owners). A draft or declined quote becomes sent; earlier links keep working until withdrawn.
#[utoipa::path(
    post, path = "/teams/{team_id}/quotes/{quote_id}/send", operation_id = "send_quote", tag = "quotes", request_body = SendBody,
    params(("quote_id" = String, Path)),
    responses(
        (status = 200, body = SentBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such quote in this team", body = ErrorBody),
        (status = 409, description = "`quote_approved`; `quote_expired`: give it a new date first", body = ErrorBody),
        (status = 422, description = "`validation_failed`: `customer.email` is needed to e-mail it", body = ErrorBody),
        (status = 429, description = "`rate_limited`: that address was just sent a quote, or the team has e-mailed 100 quotes in 24 hours", body = ErrorBody),
    ),
)]
pub async fn send(
    State(state): State<AppState>,
    member: TeamEditor,
    PathId(quote_id): PathId<QuotePublicId>,
    ApiJson(body): ApiJson<SendBody>,
) -> Result<Json<SentBody>, AppError> {
    let team_id = member.team.id;
    let row = quotes::row(&state.db, team_id, &quote_id).await?;
    // Refused before an e-mail's turn is spent (the transaction below checks again).
    match quotes::status_of(&row) {
        QuoteStatus::Approved => {
            return Err(AppError::conflict("quote_approved", "This quote is approved already."));
        }
        QuoteStatus::Expired => {
            return Err(AppError::conflict(
                "quote_expired",
                "This quote's validity date has passed: give it a new one before sending it.",
            ));
        }
        _ => {}
    }
    if body.email && quotes::emailed_today(&state.db, team_id).await? >= quotes::EMAILS_PER_DAY {
        return Err(AppError::RateLimited(format!(
            "This team has e-mailed {} quotes in the last 24 hours, the most it may. Make a link and share it instead, or try again tomorrow.",
            quotes::EMAILS_PER_DAY
        )));
    }
    let to = if body.email {
        let address = MailAddress::parse(&row.customer_email).map_err(|_| {
            AppError::Validation(vec![FieldError::new(
                "customer.email",
                "required",
                "Give the customer's e-mail address to e-mail them the quote.",
            )])
        })?;
        crate::auth::rate_limit::check_email(
            &state.db,
            "quote",
            address.as_str(),
            state.auth.config.email_interval,
        )
        .await
        .map_err(|error| {
            AppError::RateLimited(format!(
                "{} has just been sent a quote. {}",
                address.as_str(),
                error.message
            ))
        })?;
        Some(address)
    } else {
        None
    };
    let token = random_token(32);
    let user_id = member.user.id;
    let hash = sha256_hex(&token);
    let to_text = to.as_ref().map(MailAddress::as_str);
    let sent = crate::db::committed(&state.db, async |txn| {
        quotes::send(txn, team_id, user_id, &quote_id, hash, to_text).await
    })
    .await?;
    let link = state.auth.config.site_url.join(&format!("q/{token}")).map_err(anyhow::Error::from)?;
    if let Some(to) = to {
        let shop = shop_of(&state, &member.team).await?;
        let document = quotes::customer_quote(&sent, &shop)?;
        let pdf_link = state
            .auth
            .config
            .site_url
            .join(&format!("api/v2/public/quotes/{token}/pdf"))
            .map_err(anyhow::Error::from)?;
        let mail = quote_mail(&document, &link, &pdf_link);
        let reply_to = MailAddress::parse(&member.user.email).ok();
        state.auth.mailer.send_answerable(&state.db, to.as_str(), reply_to.as_ref(), mail).await?;
    }
    let quote = quotes::get(&state.db, team_id, &quote_id).await?;
    Ok(Json(SentBody { quote, link: link.to_string() }))
}

/// The e-mail sending `document` to its customer with `link`, and its PDF's.
fn quote_mail(
    document: &CustomerQuote,
    link: &url::Url,
    pdf_link: &url::Url,
) -> crate::mail::templates::RenderedMail {
    use bobbin_core::quote::money;
    let summary = match document.options.as_slice() {
        [one] => format!("{} for {} pieces", money(one.total, &document.currency), one.quantity),
        options => {
            let quantities: Vec<u32> = options.iter().map(|option| option.quantity).collect();
            format!(
                "{} options, from {} to {} pieces",
                options.len(),
                quantities.iter().min().unwrap_or(&0),
                quantities.iter().max().unwrap_or(&0)
            )
        }
    };
    crate::mail::templates::render_quote(&crate::mail::templates::QuoteMail {
        shop: &document.shop.name,
        shop_details: &document.shop.details,
        customer_name: &document.customer.name,
        number: &document.number,
        title: &document.title,
        summary: &summary,
        valid_until: &crate::pdf::long_date(document.valid_until),
        link: link.as_str(),
        pdf_link: pdf_link.as_str(),
    })
}

/// Withdraws every link to the quote (members, admins and owners): each answers 410 from now
/// on, and a quote waiting on its customer goes back to a draft.
#[utoipa::path(
    post, path = "/teams/{team_id}/quotes/{quote_id}/revoke", operation_id = "revoke_quote", tag = "quotes",
    params(("quote_id" = String, Path)),
    responses(
        (status = 200, body = QuoteBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such quote in this team", body = ErrorBody),
    ),
)]
pub async fn revoke(
    State(state): State<AppState>,
    member: TeamEditor,
    PathId(quote_id): PathId<QuotePublicId>,
) -> Result<Json<QuoteBody>, AppError> {
    let (team_id, user_id) = (member.team.id, member.user.id);
    let quote =
        crate::db::committed(&state.db, async |txn| quotes::revoke(txn, team_id, user_id, &quote_id).await)
            .await?;
    Ok(Json(QuoteBody { quote }))
}

/// The quote as a PDF (every member): what its customer's PDF shows.
#[utoipa::path(
    get, path = "/teams/{team_id}/quotes/{quote_id}/pdf", operation_id = "quote_pdf", tag = "quotes",
    params(("quote_id" = String, Path)),
    responses(
        (status = 200, description = "The PDF", content_type = "application/pdf", body = Vec<u8>),
        (status = 404, description = "No such quote in this team", body = ErrorBody),
        (status = 503, description = "`server_busy`: too many PDFs and other heavy work at once", body = ErrorBody),
    ),
)]
pub async fn pdf(
    State(state): State<AppState>,
    member: TeamViewer,
    PathId(quote_id): PathId<QuotePublicId>,
) -> Result<Response, AppError> {
    let row = quotes::row(&state.db, member.team.id, &quote_id).await?;
    let shop = shop_of(&state, &member.team).await?;
    pdf_of(&state, &row, &shop).await
}

/// The largest design file a PDF draws: the largest designs are a few hundred kilobytes.
const PDF_DESIGN_MAX_BYTES: u64 = 4 * 1024 * 1024;

/// The quote's PDF as an answer: the design's preview drawn from its file in the team's library
/// (when it is still there) and the shop's logo, made off the async workers as heavy work.
pub async fn pdf_of(
    state: &AppState,
    row: &crate::entity::quote::Model,
    shop: &Shop,
) -> Result<Response, AppError> {
    let document = quotes::customer_quote(row, shop)?;
    let design = match row.design_id {
        Some(id) => match crate::repo::storage::by_id(&state.db, row.team_id, id).await {
            // A file larger than any real design is drawn from no preview: the PDF reads the
            // file into memory, and anyone with the link may ask for it.
            Ok(object) if u64::try_from(object.size).unwrap_or(u64::MAX) > PDF_DESIGN_MAX_BYTES => None,
            Ok(object) => {
                let size = u64::try_from(object.size).unwrap_or(0);
                Some((crate::repo::storage::piece(&state.db, &object, 0, size).await?, object.name))
            }
            Err(crate::repo::RepoError::NotFound(_)) => None,
            Err(error) => return Err(error.into()),
        },
        None => None,
    };
    let logo = super::quote_links::logo_of(state, row.team_id).await?.map(|(bytes, _)| bytes);
    let file_name = format!("{}.pdf", document.number);
    let bytes = state
        .heavy_work
        .run(move || {
            let preview = design
                .and_then(|(bytes, name)| bobbin_core::design::read(&bytes, Some(&name)).ok())
                .map(|design| design.preview(crate::storage::designs::PREVIEW_POINTS));
            crate::pdf::quote_pdf(&document, preview.as_ref(), logo.as_deref())
        })
        .await??;
    let disposition = format!("inline; filename=\"{file_name}\"");
    Ok((
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "application/pdf".to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
            (header::CACHE_CONTROL, "private, no-store".to_owned()),
        ],
        bytes,
    )
        .into_response())
}

/// Today, in UTC: the day validity dates are counted in.
pub fn today() -> Date {
    OffsetDateTime::now_utc().date()
}

/// The team's quote settings.
pub async fn quote_settings(state: &AppState, team_id: TeamId) -> Result<QuoteSettings, AppError> {
    let key = settings::SettingKey::parse(settings::QUOTES).map_err(|error| anyhow::anyhow!("{error}"))?;
    let value = stored_settings::one(&state.db, Scope::Team(team_id), &key).await?;
    Ok(settings::quote_settings(&value))
}

/// The shop as the team's customers see it.
pub async fn shop_of(state: &AppState, team: &crate::entity::team::Model) -> Result<Shop, AppError> {
    Ok(Shop::of(&team.name, &quote_settings(state, team.id).await?))
}

/// The longest customer name or company, in characters.
const CUSTOMER_MAX: usize = 200;

fn parse_customer(input: &CustomerInput) -> Result<Customer, AppError> {
    let mut errors = Vec::new();
    let mut text = |field: &str, raw: &str| {
        let value = raw.trim();
        if value.chars().count() > CUSTOMER_MAX {
            errors.push(FieldError::new(
                field,
                "too_long",
                format!("Use at most {CUSTOMER_MAX} characters."),
            ));
        }
        value.to_owned()
    };
    let name = text("customer.name", &input.name);
    let company = text("customer.company", &input.company);
    let email = if input.email.trim().is_empty() {
        String::new()
    } else {
        match MailAddress::parse(&input.email) {
            Ok(address) => address.as_str().to_owned(),
            Err(error) => {
                errors.push(FieldError::new("customer.email", "invalid", error.to_string()));
                String::new()
            }
        }
    };
    if errors.is_empty() { Ok(Customer { name, company, email }) } else { Err(AppError::Validation(errors)) }
}

/// The field errors of a validation error, to gather several fields' into one answer.
fn field_errors(error: AppError) -> Vec<FieldError> {
    match error {
        AppError::Validation(errors) => errors,
        _ => Vec::new(),
    }
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
