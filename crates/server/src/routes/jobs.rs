//! Jobs (issue 50; docs/behaviour.md, "Jobs"): `/api/v2/teams/{team_id}/jobs...`, and the
//! inventory's history of what jobs took from stock, `/api/v2/teams/{team_id}/stock-changes...`.
//! Every member reads; members, admins and owners make and change jobs and record pieces.
//!
//! A job is made from a design of the team's library, read again from its file (so the copy the
//! job keeps has the colour blocks the thread-usage model counts from). Each answer works its plan
//! out afresh with the core ([`bobbin_core::job`]) from the shelf as it is now: the thread each
//! colour needs, the needles, and the stock check against what other jobs hold.
#![expect(unused_qualifications, reason = "utoipa's generated code for `IntoParams`")]

use std::collections::HashMap;

use axum::{
    Json,
    extract::State,
    http::StatusCode,
    response::{IntoResponse as _, Response},
};
use bobbin_core::{
    colour::Rgb8,
    convert::MatchLabel,
    design::UsageModel,
    inventory::machine::{format_date, parse_date},
    job::{self as plan, JobDesign, JobStatus, Owned, Shelf, Verdict},
    quote::QuoteStatus,
    settings,
};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::{IntoParams, ToSchema};

use crate::{
    entity::{
        ids::{JobPublicId, ObjectId, QuotePublicId, StockChangePublicId},
        machine,
    },
    error::{AppError, ErrorBody, FieldError},
    extract::{ApiQuery, IdempotencyKeyHeader, KeyedJson, PathId, TeamEditor, TeamViewer, answered},
    repo::{
        jobs::{self, JobChanges, NewJob, ShelfThread, StoredJob},
        quotes::{self, Answer},
        settings::{self as stored_settings, Scope},
        stock, storage, write_keys,
    },
    state::AppState,
};

/// The most done and cancelled jobs the list shows: the most recently changed.
const CLOSED_LISTED: u64 = 100;
/// The longest job name and customer, in characters.
const NAME_MAX: usize = 200;
/// The longest notes, in characters.
const NOTES_MAX: usize = 2_000;

/// A new job.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JobInput {
    /// What the job is, e.g. "Café Rosa: 50 polos".
    pub name: String,
    /// Who it is for (free text).
    #[serde(default)]
    pub customer: String,
    /// The design of the team's library (its storage object id).
    pub design_id: ObjectId,
    /// Pieces, 1 to 1,000,000.
    pub quantity: u32,
    /// The machine it runs on (its public id).
    #[serde(default)]
    pub machine_id: Option<String>,
    /// `YYYY-MM-DD`.
    #[serde(default)]
    pub due_date: Option<String>,
    #[serde(default)]
    pub notes: String,
}

/// A change of a job: the fields given change; `version` is the one the editor saw.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JobPatch {
    pub version: i32,
    pub name: Option<String>,
    pub customer: Option<String>,
    pub quantity: Option<u32>,
    /// A machine's public id; `""` for none.
    pub machine_id: Option<String>,
    /// `YYYY-MM-DD`; `""` for none.
    pub due_date: Option<String>,
    pub notes: Option<String>,
    /// `draft`, `ready`, `running` or `cancelled` (done comes from recording the pieces).
    pub status: Option<JobStatus>,
    /// Per thread of the design (`slots`, in order), an inventory entry's id or `null` (buy).
    pub plan: Option<Vec<Option<String>>>,
    /// `true` to take Bobbin's proposal for every thread again.
    #[serde(default)]
    pub propose: bool,
}

/// Pieces done.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PiecesInput {
    pub pieces: u32,
}

/// An inventory entry as a job shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct JobThread {
    pub id: String,
    /// "Madeira Polyneon 40 1800 Red", or a custom thread's name.
    pub label: String,
    pub line: Option<String>,
    pub code: Option<String>,
    /// `#RRGGBB`.
    pub colour: String,
    /// Spools on the shelf.
    pub quantity: f64,
    /// Metres on a spool: the entry's own, else its line's default.
    pub spool_m: u32,
    /// Whether `spool_m` is the line's default (the entry gives none).
    pub spool_default: bool,
}

/// Bobbin's proposal for one thread of the design.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProposalView {
    pub thread_id: String,
    /// CIEDE2000 between the design's colour and the thread's.
    pub delta_e: f64,
    pub label: MatchLabel,
    /// Whether it holds enough for the job beside what other jobs hold.
    pub enough: bool,
}

/// One thread the design needs, and the entry that sews it.
#[derive(Debug, Serialize, ToSchema)]
pub struct SlotView {
    /// `#RRGGBB` where the file stores it (PES, VP3); `null` for DST, EXP, JEF.
    pub colour: Option<String>,
    /// The file palette's name for it.
    pub name: Option<String>,
    /// Its colour blocks, counted from 1.
    pub blocks: Vec<u32>,
    pub stitches: u32,
    /// Top thread for one piece, in metres.
    pub top_m: f64,
    /// The entry chosen; `null`: none yet, or to buy.
    pub thread: Option<JobThread>,
    /// What Bobbin would choose, where the file gives a colour and the team owns threads.
    pub proposal: Option<ProposalView>,
}

/// One colour block in stitching order on the machine.
#[derive(Debug, Serialize, ToSchema)]
pub struct BlockView {
    pub stitches: u32,
    /// The thread (`slots` index, from 0) that sews it.
    pub slot: usize,
    /// The needle, counted from 1; `null` without a machine.
    pub needle: Option<u32>,
    pub top_m: f64,
}

/// A needle to re-thread during the run.
#[derive(Debug, Serialize, ToSchema)]
pub struct RethreadView {
    pub before_block: u32,
    pub needle: u32,
    /// The thread (`slots` index) taken off, and the one put on.
    pub replaces_slot: usize,
    pub slot: usize,
}

/// The stock check of one entry.
#[derive(Debug, Serialize, ToSchema)]
pub struct StockView {
    pub thread: JobThread,
    /// Top thread for the pieces left, with the waste, in metres.
    pub need_m: f64,
    pub held_m: f64,
    /// What other ready and running jobs hold of it.
    pub reserved_m: f64,
    pub free_m: f64,
    /// `enough`, or `short`.
    pub verdict: String,
    pub short_m: f64,
    /// Spools to buy for the shortfall.
    pub spools: u32,
}

/// The machine a job runs on.
#[derive(Debug, Serialize, ToSchema)]
pub struct JobMachine {
    pub id: String,
    pub name: String,
    pub heads: i32,
    pub needles: i32,
    pub typical_spm: Option<i32>,
}

/// A job with its plan worked out.
#[derive(Debug, Serialize, ToSchema)]
pub struct JobView {
    pub id: String,
    pub name: String,
    pub customer: String,
    pub status: JobStatus,
    pub quantity: i32,
    pub pieces_done: i32,
    pub due_date: Option<String>,
    pub notes: String,
    /// The library design it was made from, while the team has it.
    pub design_id: Option<ObjectId>,
    pub design: DesignFacts,
    pub machine: Option<JobMachine>,
    pub slots: Vec<SlotView>,
    pub blocks: Vec<BlockView>,
    /// The thread on each needle at the start (`slots` index), needle 1 first.
    pub setup: Vec<usize>,
    pub rethreads: Vec<RethreadView>,
    /// More threads than the machine has needles.
    pub too_many_threads: bool,
    pub stock: Vec<StockView>,
    /// `enough`; `short` (some entry is short); `unplanned` (a thread has no entry).
    pub verdict: String,
    /// For one piece, in metres.
    pub top_m: f64,
    pub bobbin_m: f64,
    /// For the pieces left, with the waste, in metres.
    pub job_top_m: f64,
    pub job_bobbin_m: f64,
    /// The team's thread-usage setting the figures come from.
    #[schema(value_type = Object)]
    pub usage: UsageModel,
    pub version: i32,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
}

/// What a job shows of its design.
#[derive(Debug, Serialize, ToSchema)]
pub struct DesignFacts {
    pub file_name: String,
    /// `dst`, `pes`, `jef`, `exp` or `vp3`.
    #[schema(value_type = String)]
    pub format: bobbin_core::design::Format,
    pub stitches: u32,
    pub trims: Option<u32>,
    pub colour_changes: u32,
    pub width_mm: f64,
    pub height_mm: f64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct JobBody {
    pub job: JobView,
}

/// A job in the list.
#[derive(Debug, Serialize, ToSchema)]
pub struct JobSummary {
    pub id: String,
    pub name: String,
    pub customer: String,
    pub status: JobStatus,
    pub quantity: i32,
    pub pieces_done: i32,
    pub due_date: Option<String>,
    pub design_name: String,
    pub design_id: Option<ObjectId>,
    pub verdict: String,
    /// Entries short for it, with the metres short.
    pub short: Vec<ShortThread>,
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ShortThread {
    pub thread_id: String,
    pub label: String,
    pub short_m: f64,
    pub spools: u32,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct JobList {
    pub jobs: Vec<JobSummary>,
}

/// Which jobs.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct ListParams {
    /// Statuses, comma-separated (`ready,running`); all when not given.
    pub status: Option<String>,
}

/// The team's jobs, the soonest due first, each with what is short: every open one, and the 100
/// done or cancelled ones changed last (every member).
#[utoipa::path(
    get, path = "/teams/{team_id}/jobs", operation_id = "list_jobs", tag = "jobs",
    params(ListParams),
    responses((status = 200, body = JobList), (status = 422, description = "`validation_failed`: an unknown status", body = ErrorBody)),
)]
pub async fn list(
    State(state): State<AppState>,
    member: TeamViewer,
    ApiQuery(params): ApiQuery<ListParams>,
) -> Result<Json<JobList>, AppError> {
    let mut statuses = Vec::new();
    for part in
        params.status.as_deref().unwrap_or_default().split(',').map(str::trim).filter(|part| !part.is_empty())
    {
        statuses.push(JobStatus::parse(part).ok_or_else(|| {
            AppError::Validation(vec![FieldError::new(
                "status",
                "invalid",
                "A status is draft, ready, running, done or cancelled.",
            )])
        })?);
    }
    let context = Context::read(&state, &member).await?;
    // Every open job; of the done and cancelled ones, the most recently changed.
    let statuses = if statuses.is_empty() { JobStatus::ALL.to_vec() } else { statuses };
    let (open, closed): (Vec<JobStatus>, Vec<JobStatus>) =
        statuses.iter().partition(|status| jobs::OPEN.contains(status));
    let mut listed = jobs::all(&state.db, member.team.id, &open, jobs::MAX_OPEN_JOBS).await?;
    if !closed.is_empty() {
        listed.extend(jobs::all(&state.db, member.team.id, &closed, CLOSED_LISTED).await?);
    }
    let jobs = listed
        .iter()
        .map(|stored| {
            let stock = context.stock(stored);
            JobSummary {
                id: stored.row.public_id.clone(),
                name: stored.row.name.clone(),
                customer: stored.row.customer.clone(),
                status: stored.status(),
                quantity: stored.row.quantity,
                pieces_done: stored.row.pieces_done,
                due_date: stored.row.due_date.clone(),
                design_name: stored.design.file_name.clone(),
                design_id: stored.row.design_id,
                verdict: verdict_of(stored, &stock),
                short: stock
                    .iter()
                    .filter(|line| line.verdict == "short")
                    .map(|line| ShortThread {
                        thread_id: line.thread.id.clone(),
                        label: line.thread.label.clone(),
                        short_m: line.short_m,
                        spools: line.spools,
                    })
                    .collect(),
                updated_at: stored.row.updated_at,
            }
        })
        .collect();
    Ok(Json(JobList { jobs }))
}

/// Makes a draft job from a design of the library, with Bobbin's proposal for each thread
/// (members, admins and owners).
#[utoipa::path(
    post, path = "/teams/{team_id}/jobs", operation_id = "create_job", tag = "jobs", request_body = JobInput,
    params(IdempotencyKeyHeader),
    responses(
        (status = 201, body = JobBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 422, description = "`validation_failed`; `no_such_design`: not a readable design of the team's library; `no_such_machine`; `too_many_jobs`", body = ErrorBody),
    ),
)]
pub async fn create(
    State(state): State<AppState>,
    member: TeamEditor,
    KeyedJson { key, body: input }: KeyedJson<JobInput>,
) -> Result<Response, AppError> {
    let mut errors = Vec::new();
    let name = text_field(&mut errors, "name", &input.name, NAME_MAX, true);
    let customer = text_field(&mut errors, "customer", &input.customer, NAME_MAX, false);
    let notes = text_field(&mut errors, "notes", &input.notes, NOTES_MAX, false);
    let quantity = quantity_field(&mut errors, input.quantity);
    let due_date = date_field(&mut errors, input.due_date.as_deref());
    if !errors.is_empty() {
        return Err(AppError::Validation(errors));
    }
    let team_id = member.team.id;
    let machine_id = match input.machine_id.as_deref().filter(|id| !id.is_empty()) {
        Some(id) => Some(jobs::machine_by_public_id(&state.db, team_id, id).await?.id),
        None => None,
    };
    let design = read_design(&state, &member, input.design_id).await?;
    let context = Context::read(&state, &member).await?;
    let plan =
        context.proposals(&design, quantity, None).into_iter().map(|found| found.map(|p| p.thread)).collect();
    let new = NewJob {
        name,
        customer,
        design_id: input.design_id,
        design,
        quantity,
        machine_id,
        due_date,
        notes,
        quote_id: None,
        plan,
    };
    let user_id = member.user.id;
    let stored = write_keys::once(&state.db, member.key_owner(), key.as_ref(), async |txn| {
        let stored = jobs::create(txn, team_id, user_id, new).await?;
        Ok(stored.row.public_id)
    })
    .await?;
    let public_id = match stored {
        write_keys::Answer::Made(id) => id,
        write_keys::Answer::Again(json) => serde_json::from_str(&json).map_err(anyhow::Error::from)?,
    };
    let stored =
        jobs::get(&state.db, team_id, &public_id.parse().map_err(|_| anyhow::anyhow!("bad id"))?).await?;
    let body = JobBody { job: context.view(&state, &stored).await? };
    Ok(answered(StatusCode::CREATED, write_keys::Answer::Made(body)))
}

/// Makes the job of an approved quote, in one action (members, admins and owners): its
/// design, its customer, the quantity the customer chose, and notes naming the quote and the
/// customer's order number. Asked again, it answers the job made the first time (200).
#[utoipa::path(
    post, path = "/teams/{team_id}/quotes/{quote_id}/job", operation_id = "job_from_quote", tag = "jobs",
    params(("quote_id" = String, Path)),
    responses(
        (status = 201, body = JobBody),
        (status = 200, description = "The job made from it before", body = JobBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such quote in this team", body = ErrorBody),
        (status = 409, description = "`quote_not_approved`; `job_made`: made at the same moment by someone else", body = ErrorBody),
        (status = 422, description = "`no_such_design`: priced from a file not in the team's library; `too_many_jobs`", body = ErrorBody),
    ),
)]
pub async fn from_quote(
    State(state): State<AppState>,
    member: TeamEditor,
    PathId(quote_id): PathId<QuotePublicId>,
) -> Result<Response, AppError> {
    let team_id = member.team.id;
    let row = quotes::row(&state.db, team_id, &quote_id).await?;
    let context = Context::read(&state, &member).await?;
    if let Some(made) = made_job(&state, &row).await? {
        let body = JobBody { job: context.view(&state, &made).await? };
        return Ok((StatusCode::OK, Json(body)).into_response());
    }
    let approved = quotes::status_of(&row) == QuoteStatus::Approved;
    let (true, Some(Answer::Approved { name, po_number, quantity, .. })) =
        (approved, quotes::answer_of(&row)?)
    else {
        return Err(AppError::conflict("quote_not_approved", "Only an approved quote becomes a job."));
    };
    let design_id = row.design_id.ok_or_else(|| {
        AppError::rejected(
            "no_such_design",
            "This quote was priced from a file that is not in the team's library: add the design to the library, then make the job from its page.",
        )
    })?;
    let design = read_design(&state, &member, design_id).await?;
    let plan =
        context.proposals(&design, quantity, None).into_iter().map(|found| found.map(|p| p.thread)).collect();
    let number = quotes::number_text(row.number);
    let order = if po_number.is_empty() { String::new() } else { format!(", order {po_number}") };
    let customer = if row.customer_company.is_empty() { &row.customer_name } else { &row.customer_company };
    let new = NewJob {
        name: row.name.clone(),
        customer: customer.clone(),
        design_id,
        design,
        quantity,
        machine_id: None,
        due_date: None,
        notes: format!("Quote {number}, approved by {name}{order}."),
        quote_id: Some(row.id),
        plan,
    };
    let user_id = member.user.id;
    let made = crate::db::committed(&state.db, async |txn| {
        let stored = jobs::create(txn, team_id, user_id, new).await?;
        quotes::made_into_job(txn, &row, user_id, stored.row.id, &stored.row.public_id).await?;
        Ok::<_, AppError>(stored)
    })
    .await?;
    let body = JobBody { job: context.view(&state, &made).await? };
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// The job made from the quote before, if it is still there.
async fn made_job(
    state: &AppState,
    row: &crate::entity::quote::Model,
) -> Result<Option<StoredJob>, AppError> {
    let Some(job_id) = row.job_id else { return Ok(None) };
    Ok(jobs::by_id(&state.db, row.team_id, job_id).await?)
}

/// One job with its plan, needles and stock check (every member).
#[utoipa::path(
    get, path = "/teams/{team_id}/jobs/{job_id}", operation_id = "get_job", tag = "jobs",
    params(("job_id" = String, Path)),
    responses((status = 200, body = JobBody), (status = 404, description = "No such job in this team", body = ErrorBody)),
)]
pub async fn get(
    State(state): State<AppState>,
    member: TeamViewer,
    PathId(job_id): PathId<JobPublicId>,
) -> Result<Json<JobBody>, AppError> {
    let stored = jobs::get(&state.db, member.team.id, &job_id).await?;
    let context = Context::read(&state, &member).await?;
    Ok(Json(JobBody { job: context.view(&state, &stored).await? }))
}

/// Changes a job: its fields, its status, its colour plan (members, admins and owners).
#[utoipa::path(
    patch, path = "/teams/{team_id}/jobs/{job_id}", operation_id = "update_job", tag = "jobs", request_body = JobPatch,
    params(("job_id" = String, Path)),
    responses(
        (status = 200, body = JobBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such job in this team", body = ErrorBody),
        (status = 409, description = "`edit_conflict`: changed since `version`", body = ErrorBody),
        (status = 422, description = "`validation_failed`; `bad_status`; `bad_quantity`; `no_such_machine`; `no_such_thread`", body = ErrorBody),
    ),
)]
pub async fn update(
    State(state): State<AppState>,
    member: TeamEditor,
    PathId(job_id): PathId<JobPublicId>,
    Json(patch): Json<JobPatch>,
) -> Result<Json<JobBody>, AppError> {
    let mut errors = Vec::new();
    let mut changes = JobChanges {
        name: patch.name.as_deref().map(|name| text_field(&mut errors, "name", name, NAME_MAX, true)),
        customer: patch
            .customer
            .as_deref()
            .map(|text| text_field(&mut errors, "customer", text, NAME_MAX, false)),
        notes: patch.notes.as_deref().map(|text| text_field(&mut errors, "notes", text, NOTES_MAX, false)),
        quantity: patch.quantity.map(|quantity| quantity_field(&mut errors, quantity)),
        due_date: patch.due_date.as_deref().map(|date| date_field(&mut errors, Some(date))),
        status: patch.status,
        ..JobChanges::default()
    };
    if !errors.is_empty() {
        return Err(AppError::Validation(errors));
    }
    let team_id = member.team.id;
    if let Some(id) = patch.machine_id.as_deref() {
        changes.machine_id = Some(if id.is_empty() {
            None
        } else {
            Some(jobs::machine_by_public_id(&state.db, team_id, id).await?.id)
        });
    }
    let current = jobs::get(&state.db, team_id, &job_id).await?;
    let context = Context::read(&state, &member).await?;
    if patch.propose {
        let quantity = changes.quantity.map_or(current.remaining(), |q| {
            q.saturating_sub(u32::try_from(current.row.pieces_done).unwrap_or(0))
        });
        changes.plan = Some(
            context
                .proposals(&current.design, quantity, Some(current.row.id))
                .into_iter()
                .map(|found| found.map(|p| p.thread))
                .collect(),
        );
    } else if let Some(plan) = patch.plan {
        if plan.len() != current.design.slots.len() {
            return Err(AppError::Validation(vec![FieldError::new(
                "plan",
                "wrong_length",
                format!(
                    "The design needs {} threads: give one entry (or null) for each.",
                    current.design.slots.len()
                ),
            )]));
        }
        let errors: Vec<FieldError> = plan
            .iter()
            .enumerate()
            .filter(|(_, id)| id.as_ref().is_some_and(|id| !context.shelf.contains_key(id)))
            .map(|(index, _)| {
                FieldError::new(
                    format!("plan[{index}]"),
                    "no_such_thread",
                    "That thread is not in this team's inventory.",
                )
            })
            .collect();
        if !errors.is_empty() {
            return Err(AppError::Validation(errors));
        }
        changes.plan = Some(plan);
    }
    let stored = crate::db::committed(&state.db, async |txn| {
        jobs::update(txn, team_id, &job_id, patch.version, changes).await
    })
    .await?;
    Ok(Json(JobBody { job: context.view(&state, &stored).await? }))
}

/// Records pieces done: their thread is taken from stock in one change of the inventory's
/// history, which can be undone; the last piece makes the job done (members, admins and owners).
#[utoipa::path(
    post, path = "/teams/{team_id}/jobs/{job_id}/pieces", operation_id = "record_pieces", tag = "jobs", request_body = PiecesInput,
    params(("job_id" = String, Path), IdempotencyKeyHeader),
    responses(
        (status = 200, body = JobBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such job in this team", body = ErrorBody),
        (status = 422, description = "`bad_status`: not ready or running; `too_many_pieces`", body = ErrorBody),
    ),
)]
pub async fn pieces(
    State(state): State<AppState>,
    member: TeamEditor,
    PathId(job_id): PathId<JobPublicId>,
    KeyedJson { key, body }: KeyedJson<PiecesInput>,
) -> Result<Response, AppError> {
    let (team_id, user_id) = (member.team.id, member.user.id);
    let model = usage_model(&state, team_id).await?;
    write_keys::once(&state.db, member.key_owner(), key.as_ref(), async |txn| {
        let (stored, _) = jobs::record_pieces(txn, team_id, user_id, &job_id, body.pieces, &model).await?;
        Ok(stored.row.public_id)
    })
    .await?;
    let stored = jobs::get(&state.db, team_id, &job_id).await?;
    let context = Context::read(&state, &member).await?;
    Ok(answered(
        StatusCode::OK,
        write_keys::Answer::Made(JobBody { job: context.view(&state, &stored).await? }),
    ))
}

/// One line of a stock change.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChangeLineView {
    /// The entry, while the inventory has it.
    pub thread_id: Option<String>,
    pub label: String,
    /// Spools: negative for thread used.
    pub spools: f64,
    pub metres: f64,
}

/// A change of the inventory's stock.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChangeView {
    pub id: String,
    /// `job`.
    pub kind: String,
    pub summary: String,
    pub job_id: Option<String>,
    pub pieces: Option<i32>,
    pub lines: Vec<ChangeLineView>,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339::option")]
    pub undone_at: Option<OffsetDateTime>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ChangePage {
    pub changes: Vec<ChangeView>,
    pub total: u64,
    pub page: u64,
    pub per_page: u64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ChangeBody {
    pub change: ChangeView,
}

/// Which page of the history.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct HistoryParams {
    pub page: Option<u64>,
    pub per_page: Option<u64>,
}

/// The inventory's history of stock changes made by jobs, newest first (every member).
#[utoipa::path(
    get, path = "/teams/{team_id}/stock-changes", operation_id = "list_stock_changes", tag = "jobs",
    params(HistoryParams),
    responses((status = 200, body = ChangePage)),
)]
pub async fn history(
    State(state): State<AppState>,
    member: TeamViewer,
    ApiQuery(params): ApiQuery<HistoryParams>,
) -> Result<Json<ChangePage>, AppError> {
    let page = params.page.unwrap_or(1).clamp(1, 100_000);
    let per_page = params.per_page.unwrap_or(20).clamp(1, 100);
    let (changes, total) = stock::page(&state.db, member.team.id, page, per_page).await?;
    Ok(Json(ChangePage { changes: changes.into_iter().map(change_view).collect(), total, page, per_page }))
}

/// Undoes a stock change: the entries get back what it took, and a job's pieces are no longer
/// counted (members, admins and owners).
#[utoipa::path(
    post, path = "/teams/{team_id}/stock-changes/{change_id}/undo", operation_id = "undo_stock_change", tag = "jobs",
    params(("change_id" = String, Path)),
    responses(
        (status = 200, body = ChangeBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such change in this team", body = ErrorBody),
        (status = 409, description = "`already_undone`", body = ErrorBody),
    ),
)]
pub async fn undo(
    State(state): State<AppState>,
    member: TeamEditor,
    PathId(change_id): PathId<StockChangePublicId>,
) -> Result<Json<ChangeBody>, AppError> {
    let (team_id, user_id) = (member.team.id, member.user.id);
    let change =
        crate::db::committed(&state.db, async |txn| stock::undo(txn, team_id, user_id, &change_id).await)
            .await?;
    Ok(Json(ChangeBody { change: change_view(change) }))
}

fn change_view(change: stock::Change) -> ChangeView {
    #[expect(clippy::cast_precision_loss, reason = "hundredths of spools, far below 2^52")]
    let spools = |delta: i64| delta as f64 / 100.0;
    ChangeView {
        id: change.row.public_id,
        kind: change.row.kind,
        summary: change.row.summary,
        job_id: change.job_public_id,
        pieces: change.row.pieces,
        lines: change
            .lines
            .into_iter()
            .map(|(line, thread_id)| ChangeLineView {
                thread_id,
                label: line.label,
                spools: spools(line.delta),
                metres: line.metres,
            })
            .collect(),
        created_at: change.row.created_at,
        undone_at: change.row.undone_at,
    }
}

/// The team's thread-usage model.
async fn usage_model(state: &AppState, team_id: crate::entity::ids::TeamId) -> Result<UsageModel, AppError> {
    let key =
        settings::SettingKey::parse(settings::THREAD_USAGE).map_err(|error| anyhow::anyhow!("{error}"))?;
    let value = stored_settings::one(&state.db, Scope::Team(team_id), &key).await?;
    Ok(settings::thread_usage(&value))
}

/// Reads a design of the team's library again from its file, for the job's copy.
async fn read_design(state: &AppState, member: &TeamEditor, id: ObjectId) -> Result<JobDesign, AppError> {
    let no_design = || {
        AppError::rejected(
            "no_such_design",
            "That design is not in this team's library, or Bobbin cannot read it.",
        )
    };
    let object = storage::by_id(&state.db, member.team.id, id).await.map_err(|_| no_design())?;
    if object.preview.is_none() {
        return Err(no_design());
    }
    let size = u64::try_from(object.size).unwrap_or(0);
    let bytes = storage::piece(&state.db, &object, 0, size).await?;
    let name = object.name.clone();
    let file_name = name.rsplit('/').next().unwrap_or(&name).to_owned();
    state
        .heavy_work
        .run(move || {
            bobbin_core::design::read(&bytes, Some(&name)).map(|design| JobDesign::of(&design, &file_name))
        })
        .await?
        .map_err(|_| no_design())
}

/// What a job's plan is worked out against: the team's usage model, its threads, and the jobs
/// that hold thread.
struct Context {
    model: UsageModel,
    shelf: HashMap<String, ShelfThread>,
    reserving: Vec<StoredJob>,
    /// The metres of each thread the reserving jobs hold, in all and by job: worked out once,
    /// so a list of many jobs does not work every other job's thread out again for each.
    held: HashMap<String, f64>,
    held_by: HashMap<crate::entity::ids::JobId, HashMap<String, f64>>,
}

impl Context {
    async fn read<L>(state: &AppState, member: &crate::extract::InTeam<L>) -> Result<Self, AppError> {
        let team_id = member.team.id;
        let model = usage_model(state, team_id).await?;
        let reserving = jobs::reserving(&state.db, team_id).await?;
        let mut held: HashMap<String, f64> = HashMap::new();
        let mut held_by: HashMap<crate::entity::ids::JobId, HashMap<String, f64>> = HashMap::new();
        for (thread, holders) in jobs::reservations(&reserving, &model, None) {
            for (holder, metres) in holders {
                *held.entry(thread.clone()).or_default() += metres;
                *held_by.entry(holder.row.id).or_default().entry(thread.clone()).or_default() += metres;
            }
        }
        Ok(Self { model, shelf: jobs::shelf(&state.db, team_id).await?, reserving, held, held_by })
    }

    /// The metres of each entry other jobs than `job` hold.
    fn reserved(&self, job: Option<crate::entity::ids::JobId>) -> HashMap<String, f64> {
        let mut reserved = self.held.clone();
        if let Some(own) = job.and_then(|job| self.held_by.get(&job)) {
            for (thread, metres) in own {
                if let Some(total) = reserved.get_mut(thread) {
                    *total = (*total - metres).max(0.0);
                }
            }
        }
        reserved
    }

    fn shelf_of(thread: &ShelfThread, reserved: &HashMap<String, f64>) -> Shelf {
        Shelf {
            spools: thread.quantity.as_f64(),
            spool_m: f64::from(thread.spool_m),
            reserved_m: reserved.get(&thread.public_id).copied().unwrap_or(0.0),
        }
    }

    /// Bobbin's proposal for each thread of `design`, for `pieces` pieces.
    fn proposals(
        &self,
        design: &JobDesign,
        pieces: u32,
        job: Option<crate::entity::ids::JobId>,
    ) -> Vec<Option<plan::Proposal<String>>> {
        let reserved = self.reserved(job);
        let mut owned: Vec<Owned<String>> = self
            .shelf
            .values()
            .map(|thread| Owned {
                key: thread.public_id.clone(),
                colour: thread.colour,
                free_m: Self::shelf_of(thread, &reserved).free_m(),
            })
            .collect();
        owned.sort_by(|a, b| a.key.cmp(&b.key));
        let usage = self.model.usage(&design.blocks);
        design
            .slots
            .iter()
            .map(|slot| {
                let colour = slot.colour?;
                let per_piece: f64 = slot
                    .blocks
                    .iter()
                    .filter_map(|&n| usage.blocks.get(usize::try_from(n).ok()?.checked_sub(1)?))
                    .map(|block| block.top_m)
                    .sum();
                plan::propose(colour, self.model.for_job(per_piece, pieces), &owned)
            })
            .collect()
    }

    /// The stock check of `stored` for its pieces left.
    fn stock(&self, stored: &StoredJob) -> Vec<StockView> {
        let reserved = self.reserved(Some(stored.row.id));
        let usage = self.model.usage(&stored.design.blocks);
        plan::thread_needs(
            &usage.blocks,
            &stored.design.slots,
            &stored.plan,
            stored.remaining(),
            self.model.waste_percent,
        )
        .into_iter()
        .filter_map(|(id, need_m)| {
            let thread = self.shelf.get(&id)?;
            let on_shelf = Self::shelf_of(thread, &reserved);
            let (verdict, short_m, spools) = match plan::verdict(need_m, on_shelf) {
                Verdict::Enough => ("enough", 0.0, 0),
                Verdict::Short { short_m, spools } => ("short", short_m, spools),
            };
            Some(StockView {
                thread: job_thread(thread),
                need_m,
                held_m: on_shelf.held_m(),
                reserved_m: on_shelf.reserved_m,
                free_m: on_shelf.free_m(),
                verdict: verdict.to_owned(),
                short_m,
                spools,
            })
        })
        .collect()
    }

    async fn view(&self, state: &AppState, stored: &StoredJob) -> Result<JobView, AppError> {
        let row = &stored.row;
        let machine = match row.machine_id {
            Some(id) => jobs::machine(&state.db, row.team_id, id).await?,
            None => None,
        };
        Ok(self.view_with(stored, machine.as_ref()))
    }

    /// Each thread of the design with its entry and Bobbin's proposal.
    fn slot_views(&self, stored: &StoredJob) -> Vec<SlotView> {
        let design = &stored.design;
        let usage = self.model.usage(&design.blocks);
        let proposals = self.proposals(design, stored.remaining().max(1), Some(stored.row.id));
        design
            .slots
            .iter()
            .zip(proposals)
            .enumerate()
            .map(|(index, (slot, proposal))| {
                let blocks = || slot.blocks.iter().filter_map(|&n| usize::try_from(n).ok()?.checked_sub(1));
                SlotView {
                    colour: slot.colour.map(Rgb8::to_hex),
                    name: slot.name.clone(),
                    blocks: slot.blocks.clone(),
                    stitches: blocks().filter_map(|i| design.blocks.get(i)).map(|block| block.stitches).sum(),
                    top_m: blocks().filter_map(|i| usage.blocks.get(i)).map(|block| block.top_m).sum(),
                    thread: stored
                        .plan
                        .get(index)
                        .cloned()
                        .flatten()
                        .and_then(|id| self.shelf.get(&id))
                        .map(job_thread),
                    proposal: proposal.map(|found| ProposalView {
                        thread_id: found.thread,
                        delta_e: found.delta_e,
                        label: found.label,
                        enough: found.enough,
                    }),
                }
            })
            .collect()
    }

    fn view_with(&self, stored: &StoredJob, machine: Option<&machine::Model>) -> JobView {
        let design = &stored.design;
        let usage = self.model.usage(&design.blocks);
        let slots = self.slot_views(stored);
        // Blocks sewn by the same entry share a needle; a thread not chosen yet is its own.
        let slot_of = design.slot_of_blocks();
        let key_of = |slot: usize| -> usize {
            match stored.plan.get(slot).cloned().flatten() {
                Some(id) => {
                    stored.plan.iter().position(|other| other.as_deref() == Some(id.as_str())).unwrap_or(slot)
                }
                None => slot,
            }
        };
        let sequence: Vec<usize> = slot_of.iter().map(|&slot| key_of(slot)).collect();
        let needles = machine.map(|machine| u32::try_from(machine.needles_per_head).unwrap_or(1));
        let needle_plan = needles.map(|needles| plan::needles(&sequence, needles));
        let blocks = design
            .blocks
            .iter()
            .enumerate()
            .map(|(index, block)| BlockView {
                stitches: block.stitches,
                slot: slot_of[index],
                needle: needle_plan.as_ref().and_then(|plan| plan.blocks.get(index).copied()),
                top_m: usage.blocks.get(index).map_or(0.0, |block| block.top_m),
            })
            .collect();
        let stock = self.stock(stored);
        let pieces = stored.remaining();
        JobView {
            id: stored.row.public_id.clone(),
            name: stored.row.name.clone(),
            customer: stored.row.customer.clone(),
            status: stored.status(),
            quantity: stored.row.quantity,
            pieces_done: stored.row.pieces_done,
            due_date: stored.row.due_date.clone(),
            notes: stored.row.notes.clone(),
            design_id: stored.row.design_id,
            design: DesignFacts {
                file_name: design.file_name.clone(),
                format: design.format,
                stitches: design.stitches,
                trims: design.trims,
                colour_changes: design.colour_changes,
                width_mm: design.width_mm,
                height_mm: design.height_mm,
            },
            machine: machine.map(|machine| JobMachine {
                id: machine.public_id.clone(),
                name: machine.name.clone(),
                heads: machine.heads,
                needles: machine.needles_per_head,
                typical_spm: machine.typical_spm,
            }),
            setup: needle_plan.as_ref().map(|plan| plan.setup.clone()).unwrap_or_default(),
            rethreads: needle_plan
                .as_ref()
                .map(|plan| {
                    plan.rethreads
                        .iter()
                        .map(|step| RethreadView {
                            before_block: step.before_block,
                            needle: step.needle,
                            replaces_slot: step.replaces,
                            slot: step.thread,
                        })
                        .collect()
                })
                .unwrap_or_default(),
            too_many_threads: needle_plan.as_ref().is_some_and(|plan| !plan.rethreads.is_empty()),
            verdict: verdict_of(stored, &stock),
            slots,
            blocks,
            stock,
            top_m: usage.top_m,
            bobbin_m: usage.bobbin_m,
            job_top_m: self.model.for_job(usage.top_m, pieces),
            job_bobbin_m: self.model.for_job(usage.bobbin_m, pieces),
            usage: self.model,
            version: stored.row.version,
            created_at: stored.row.created_at,
            updated_at: stored.row.updated_at,
        }
    }
}

/// The whole job's verdict: `unplanned` while a thread has no entry, else `short` when one is.
fn verdict_of(stored: &StoredJob, stock: &[StockView]) -> String {
    if stored.plan.iter().any(Option::is_none) || stored.plan.len() < stored.design.slots.len() {
        "unplanned"
    } else if stock.iter().any(|line| line.verdict == "short") {
        "short"
    } else {
        "enough"
    }
    .to_owned()
}

fn job_thread(thread: &ShelfThread) -> JobThread {
    JobThread {
        id: thread.public_id.clone(),
        label: thread.label.clone(),
        line: thread.line.clone(),
        code: thread.code.clone(),
        colour: thread.colour.to_hex(),
        quantity: thread.quantity.as_f64(),
        spool_m: thread.spool_m,
        spool_default: thread.spool_default,
    }
}

fn text_field(errors: &mut Vec<FieldError>, field: &str, raw: &str, max: usize, required: bool) -> String {
    let text = raw.trim();
    if required && text.is_empty() {
        errors.push(FieldError::new(field, "required", "Give it a name, e.g. the customer and the job."));
    } else if text.chars().count() > max {
        errors.push(FieldError::new(field, "too_long", format!("Use at most {max} characters.")));
    }
    text.to_owned()
}

fn quantity_field(errors: &mut Vec<FieldError>, quantity: u32) -> u32 {
    if !(1..=plan::MAX_QUANTITY).contains(&quantity) {
        errors.push(FieldError::new("quantity", "out_of_range", "Give 1 to 1,000,000 pieces."));
    }
    quantity
}

/// A due date as typed: `None` for none (or `""`).
fn date_field(errors: &mut Vec<FieldError>, raw: Option<&str>) -> Option<String> {
    let raw = raw.map(str::trim).filter(|raw| !raw.is_empty())?;
    match parse_date(raw) {
        Ok(date) => Some(format_date(date)),
        Err(message) => {
            errors.push(FieldError::new("due_date", "invalid", message));
            None
        }
    }
}

/// One entry of the shopping list.
#[derive(Debug, Serialize, ToSchema)]
pub struct ShoppingItem {
    pub thread: JobThread,
    /// Top thread the team's draft, ready and running jobs need of it for their pieces left,
    /// with the waste.
    pub need_m: f64,
    pub held_m: f64,
    pub short_m: f64,
    /// Whole spools that cover the shortfall.
    pub spools: u32,
    /// Spools ordered and not yet received.
    pub ordered: u32,
    /// Spools still to order: `spools` less `ordered`.
    pub to_order: u32,
    /// The cost of `to_order` spools in the team's currency, where the entry has a cost.
    pub cost: Option<f64>,
    /// The jobs short of it.
    pub jobs: Vec<String>,
}

/// The entries of one line (or the custom threads) on the shopping list.
#[derive(Debug, Serialize, ToSchema)]
pub struct ShoppingLine {
    /// The catalogue line's id; `null` for custom threads.
    pub line: Option<String>,
    /// "Madeira Polyneon 40", or "Custom threads".
    pub name: String,
    pub items: Vec<ShoppingItem>,
    pub to_order: u32,
    /// The cost of the line's spools to order, where every entry has a cost.
    pub cost: Option<f64>,
}

/// An open order.
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderView {
    pub id: String,
    pub thread_id: String,
    pub spools: i32,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ShoppingList {
    pub lines: Vec<ShoppingLine>,
    pub orders: Vec<OrderView>,
}

/// What the team's jobs are short of, grouped by line, with the spools to buy, what is ordered
/// and the cost where known (every member).
#[utoipa::path(
    get, path = "/teams/{team_id}/shopping-list", operation_id = "shopping_list", tag = "jobs",
    responses((status = 200, body = ShoppingList)),
)]
pub async fn shopping_list(
    State(state): State<AppState>,
    member: TeamViewer,
) -> Result<Json<ShoppingList>, AppError> {
    let team_id = member.team.id;
    let context = Context::read(&state, &member).await?;
    let planned = jobs::all(&state.db, team_id, &jobs::OPEN, jobs::MAX_OPEN_JOBS).await?;
    let orders = stock::open_orders(&state.db, team_id).await?;
    let mut needs: HashMap<String, (f64, Vec<String>)> = HashMap::new();
    for stored in &planned {
        let usage = context.model.usage(&stored.design.blocks);
        for (thread, metres) in plan::thread_needs(
            &usage.blocks,
            &stored.design.slots,
            &stored.plan,
            stored.remaining(),
            context.model.waste_percent,
        ) {
            let entry = needs.entry(thread).or_default();
            entry.0 += metres;
            entry.1.push(stored.row.name.clone());
        }
    }
    let mut lines: Vec<ShoppingLine> = Vec::new();
    let mut ids: Vec<&String> = needs.keys().collect();
    ids.sort();
    for id in ids {
        let (need_m, job_names) = &needs[id];
        let Some(thread) = context.shelf.get(id) else { continue };
        let shelf =
            Shelf { spools: thread.quantity.as_f64(), spool_m: f64::from(thread.spool_m), reserved_m: 0.0 };
        let Verdict::Short { short_m, spools } = plan::verdict(*need_m, shelf) else { continue };
        let ordered: u32 = orders
            .iter()
            .filter(|order| order.thread_public_id == *id)
            .map(|order| u32::try_from(order.row.spools).unwrap_or(0))
            .sum();
        let to_order = spools.saturating_sub(ordered);
        let item = ShoppingItem {
            thread: job_thread(thread),
            need_m: *need_m,
            held_m: shelf.held_m(),
            short_m,
            spools,
            ordered,
            to_order,
            cost: thread.cost_per_spool.map(|cost| cost.as_f64() * f64::from(to_order)),
            jobs: job_names.clone(),
        };
        let name = line_name(thread.line.as_deref());
        match lines.iter_mut().find(|line| line.line == thread.line) {
            Some(line) => line.items.push(item),
            None => lines.push(ShoppingLine {
                line: thread.line.clone(),
                name,
                items: vec![item],
                to_order: 0,
                cost: None,
            }),
        }
    }
    for line in &mut lines {
        line.items.sort_by(|a, b| a.thread.label.cmp(&b.thread.label));
        line.to_order = line.items.iter().map(|item| item.to_order).sum();
        line.cost = line.items.iter().map(|item| item.cost).sum();
    }
    lines.sort_by(|a, b| (a.line.is_none(), &a.name).cmp(&(b.line.is_none(), &b.name)));
    let orders = orders
        .into_iter()
        .map(|order| OrderView {
            id: order.row.public_id,
            thread_id: order.thread_public_id,
            spools: order.row.spools,
            created_at: order.row.created_at,
        })
        .collect();
    Ok(Json(ShoppingList { lines, orders }))
}

/// A catalogue line's name for people; "Custom threads" for none.
fn line_name(line: Option<&str>) -> String {
    let catalogue = bobbin_core::catalogue::Catalogue::builtin();
    line.map_or_else(
        || "Custom threads".to_owned(),
        |line| {
            catalogue
                .line_by_id(line)
                .map_or_else(|_| line.to_owned(), |index| catalogue.line(index).display_name())
        },
    )
}

/// Spools to order.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OrderInput {
    /// The inventory entry's id.
    pub thread_id: String,
    /// 1 to 10,000.
    pub spools: u32,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OrderBody {
    pub order: OrderView,
}

/// Marks spools of an entry as ordered (members, admins and owners).
#[utoipa::path(
    post, path = "/teams/{team_id}/orders", operation_id = "create_order", tag = "jobs", request_body = OrderInput,
    params(IdempotencyKeyHeader),
    responses(
        (status = 201, body = OrderBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 422, description = "`validation_failed`; `no_such_thread`; `too_many_orders`: 1,000 waiting", body = ErrorBody),
    ),
)]
pub async fn order(
    State(state): State<AppState>,
    member: TeamEditor,
    KeyedJson { key, body }: KeyedJson<OrderInput>,
) -> Result<Response, AppError> {
    if !(1..=10_000).contains(&body.spools) {
        return Err(AppError::Validation(vec![FieldError::new(
            "spools",
            "out_of_range",
            "Order 1 to 10,000 spools.",
        )]));
    }
    let (team_id, user_id) = (member.team.id, member.user.id);
    let answer = write_keys::once(&state.db, member.key_owner(), key.as_ref(), async |txn| {
        let order = stock::order(txn, team_id, user_id, &body.thread_id, body.spools).await?;
        Ok(OrderBody {
            order: OrderView {
                id: order.row.public_id,
                thread_id: order.thread_public_id,
                spools: order.row.spools,
                created_at: order.row.created_at,
            },
        })
    })
    .await?;
    Ok(answered(StatusCode::CREATED, answer))
}

/// Receives an order: its spools join the entry's stock, in a change of the inventory's history
/// that can be undone (members, admins and owners).
#[utoipa::path(
    post, path = "/teams/{team_id}/orders/{order_id}/receive", operation_id = "receive_order", tag = "jobs",
    params(("order_id" = String, Path)),
    responses(
        (status = 200, body = ChangeBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such order in this team", body = ErrorBody),
        (status = 409, description = "`already_received`", body = ErrorBody),
    ),
)]
pub async fn receive(
    State(state): State<AppState>,
    member: TeamEditor,
    PathId(order_id): PathId<crate::entity::ids::OrderPublicId>,
) -> Result<Json<ChangeBody>, AppError> {
    let (team_id, user_id) = (member.team.id, member.user.id);
    let change_id =
        crate::db::committed(&state.db, async |txn| stock::receive(txn, team_id, user_id, &order_id).await)
            .await?;
    let change = stock::get(&state.db, team_id, &change_id).await?;
    Ok(Json(ChangeBody { change: change_view(change) }))
}

/// A job holding thread.
#[derive(Debug, Serialize, ToSchema)]
pub struct Reservation {
    pub job_id: String,
    pub name: String,
    pub status: JobStatus,
    /// Top thread it holds for its pieces left, with the waste, in metres.
    pub metres: f64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Reservations {
    pub reservations: Vec<Reservation>,
    /// All of them together.
    pub metres: f64,
}

/// The ready and running jobs that hold this entry's thread (every member).
#[utoipa::path(
    get, path = "/teams/{team_id}/threads/{thread_id}/reservations", operation_id = "thread_reservations", tag = "jobs",
    params(("thread_id" = String, Path)),
    responses((status = 200, body = Reservations), (status = 404, description = "No such thread in this team", body = ErrorBody)),
)]
pub async fn reservations(
    State(state): State<AppState>,
    member: TeamViewer,
    PathId(thread_id): PathId<crate::entity::ids::ThreadPublicId>,
) -> Result<Json<Reservations>, AppError> {
    let context = Context::read(&state, &member).await?;
    if !context.shelf.contains_key(thread_id.as_str()) {
        return Err(AppError::NotFound(crate::repo::threads::NOT_FOUND.to_owned()));
    }
    let held = jobs::reservations(&context.reserving, &context.model, None);
    let reservations: Vec<Reservation> = held
        .get(thread_id.as_str())
        .map(|jobs| {
            jobs.iter()
                .map(|(stored, metres)| Reservation {
                    job_id: stored.row.public_id.clone(),
                    name: stored.row.name.clone(),
                    status: stored.status(),
                    metres: *metres,
                })
                .collect()
        })
        .unwrap_or_default();
    let metres = reservations.iter().map(|reservation| reservation.metres).sum();
    Ok(Json(Reservations { reservations, metres }))
}
