//! The machine inventory and each machine's maintenance log:
//! `/api/v2/teams/{team_id}/machines...`. Every member reads; members, admins and owners write.
//! A full edit names the `version` it was made from (`409 edit_conflict` otherwise), as for
//! threads; every change raises it ([`change`]), a maintenance entry logged or removed included,
//! since the machine's answer (its stitch counter, what is due) changes with its log. What a
//! valid machine is, and when maintenance is due, is `bobbin_core::inventory::machine`.

use axum::{
    Json,
    extract::State,
    http::StatusCode,
    response::{IntoResponse, Response},
};
use bobbin_core::inventory::machine::{
    Due, Hoop, Interval, LastDone, MachineDraft, MachineProblem, MachineStatus, MaintenanceKind,
    STITCH_COUNTER_MAX, format_date, parse_date, schedule,
};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

use crate::{
    entity::ids::{LogPublicId, MachinePublicId},
    extract::PathId,
};
use crate::{
    error::{AppError, ErrorBody, FieldError},
    extract::{ApiJson, IdempotencyKeyHeader, KeyedJson, TeamEditor, TeamViewer, answered},
    repo::{
        machines::{self, LogRecord, NewLogEntry, StoredMachine},
        stored_as, write_keys,
    },
    state::AppState,
};

/// A machine as the app shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct MachineView {
    pub id: String,
    pub name: String,
    pub brand: String,
    pub model: String,
    pub serial_number: String,
    pub heads: u32,
    pub needles_per_head: u32,
    pub max_spm: Option<u32>,
    pub typical_spm: Option<u32>,
    pub hoops: Vec<Hoop>,
    pub status: MachineStatus,
    pub purchase_date: Option<String>,
    pub notes: String,
    pub version: i32,
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
    /// The highest stitch counter reading logged.
    pub stitch_counter: Option<u64>,
    /// How often each kind of maintenance is due on this machine (the defaults where none was set).
    pub intervals: Vec<Interval>,
    /// When each kind of maintenance is next due, soonest first.
    pub due: Vec<DueView>,
    /// Newest first; only in the answers about one machine.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maintenance: Option<Vec<LogEntry>>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DueView {
    #[serde(flatten)]
    pub due: Due,
    /// Reached by date or by the stitch counter.
    pub overdue: bool,
    /// Neither logged nor covered by a service: counted from when the machine was added.
    pub never_done: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LogEntry {
    pub id: String,
    pub performed_on: String,
    pub kind: MaintenanceKind,
    pub notes: String,
    pub stitch_counter: Option<u64>,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MachinesBody {
    pub machines: Vec<MachineView>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MachineBody {
    pub machine: MachineView,
}

/// A full edit: the machine's fields and the `version` it was made from.
#[derive(Debug, Deserialize, ToSchema)]
pub struct MachineEdit {
    #[serde(flatten)]
    pub machine: MachineDraft,
    #[schema(example = 1)]
    pub version: i32,
}

/// A maintenance done.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LogInput {
    /// `YYYY-MM-DD`.
    #[schema(example = "2025-07-01")]
    pub performed_on: String,
    pub kind: MaintenanceKind,
    #[serde(default)]
    pub notes: String,
    /// The machine's stitch counter then, if read: a whole number up to 2^53 - 1 (what every
    /// JSON reader, JavaScript's included, reads exactly).
    #[schema(maximum = 9_007_199_254_740_991_u64)]
    pub stitch_counter: Option<u64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LogEntryBody {
    pub entry: LogEntry,
}

/// The team's machines, by name, each with its next maintenance (every member).
#[utoipa::path(
    get, path = "/teams/{team_id}/machines", operation_id = "list_machines", tag = "inventory",
    responses((status = 200, body = MachinesBody)),
)]
pub async fn list(State(state): State<AppState>, member: TeamViewer) -> Result<Json<MachinesBody>, AppError> {
    let stored = machines::list(&state.db, member.team.id).await?;
    Ok(Json(MachinesBody { machines: stored.into_iter().map(|machine| view(machine, false)).collect() }))
}

/// Adds a machine (members, admins and owners).
#[utoipa::path(
    post, path = "/teams/{team_id}/machines", operation_id = "create_machine", tag = "inventory", request_body = MachineDraft,
    responses(
        (status = 201, body = MachineBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 422, description = "`validation_failed`, naming each field", body = ErrorBody),
    ),
)]
pub async fn create(
    State(state): State<AppState>,
    member: TeamEditor,
    ApiJson(draft): ApiJson<MachineDraft>,
) -> Result<Response, AppError> {
    let valid = draft.parse().map_err(problems)?;
    let stored = machines::create(&state.db, member.team.id, member.user.id, &valid).await?;
    Ok((StatusCode::CREATED, Json(MachineBody { machine: view(stored, true) })).into_response())
}

/// One machine with its maintenance log (every member).
#[utoipa::path(
    get, path = "/teams/{team_id}/machines/{machine_id}", operation_id = "get_machine", tag = "inventory",
    params(("machine_id" = String, Path)),
    responses((status = 200, body = MachineBody), (status = 404, description = "No such machine in this team", body = ErrorBody)),
)]
pub async fn get(
    State(state): State<AppState>,
    member: TeamViewer,
    PathId(machine_id): PathId<MachinePublicId>,
) -> Result<Json<MachineBody>, AppError> {
    let stored = machines::get(&state.db, member.team.id, &machine_id).await?;
    Ok(Json(MachineBody { machine: view(stored, true) }))
}

/// A full edit, made from `version` (members, admins and owners).
#[utoipa::path(
    put, path = "/teams/{team_id}/machines/{machine_id}", operation_id = "update_machine", tag = "inventory", request_body = MachineEdit,
    params(("machine_id" = String, Path)),
    responses(
        (status = 200, body = MachineBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such machine in this team", body = ErrorBody),
        (status = 409, description = "`edit_conflict`: changed by someone else since `version`", body = ErrorBody),
        (status = 422, description = "`validation_failed`, naming each field", body = ErrorBody),
    ),
)]
pub async fn update(
    State(state): State<AppState>,
    member: TeamEditor,
    PathId(machine_id): PathId<MachinePublicId>,
    ApiJson(edit): ApiJson<MachineEdit>,
) -> Result<Json<MachineBody>, AppError> {
    let version = super::edited_version(edit.version)?;
    let valid = edit.machine.parse().map_err(problems)?;
    let stored =
        machines::edit(&state.db, member.team.id, member.user.id, &machine_id, version, &valid).await?;
    Ok(Json(MachineBody { machine: view(stored, true) }))
}

/// Removes a machine and its log (members, admins and owners).
#[utoipa::path(
    delete, path = "/teams/{team_id}/machines/{machine_id}", operation_id = "delete_machine", tag = "inventory",
    params(("machine_id" = String, Path)),
    responses(
        (status = 204, description = "Removed"),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such machine in this team", body = ErrorBody),
    ),
)]
pub async fn delete(
    State(state): State<AppState>,
    member: TeamEditor,
    PathId(machine_id): PathId<MachinePublicId>,
) -> Result<StatusCode, AppError> {
    machines::delete(&state.db, member.team.id, &machine_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Logs maintenance done on a machine (members, admins and owners).
#[utoipa::path(
    post, path = "/teams/{team_id}/machines/{machine_id}/maintenance", tag = "inventory", request_body = LogInput,
    params(("machine_id" = String, Path), IdempotencyKeyHeader),
    responses(
        (status = 201, body = LogEntryBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such machine in this team", body = ErrorBody),
        (status = 422, description = "`validation_failed`: the date, the kind or the notes; `idempotency_key_reused`", body = ErrorBody),
    ),
)]
pub async fn log(
    State(state): State<AppState>,
    member: TeamEditor,
    PathId(machine_id): PathId<MachinePublicId>,
    KeyedJson { key, body: input }: KeyedJson<LogInput>,
) -> Result<Response, AppError> {
    let date = parse_date(&input.performed_on).map_err(|message| {
        AppError::Validation(vec![FieldError::new("performed_on", "bad_date", message)])
    })?;
    let today = OffsetDateTime::now_utc().date();
    if date > today.next_day().unwrap_or(today) {
        return Err(AppError::Validation(vec![FieldError::new(
            "performed_on",
            "in_future",
            "Log maintenance once it is done: the date is in the future.",
        )]));
    }
    if input.notes.trim().chars().count() > 2_000 {
        return Err(AppError::Validation(vec![FieldError::new(
            "notes",
            "too_long",
            "Use at most 2000 characters.",
        )]));
    }
    let stitch_counter = input.stitch_counter.map(stored_counter).transpose()?;
    let entry = NewLogEntry {
        performed_on: date,
        kind: input.kind,
        notes: input.notes.trim().to_owned(),
        stitch_counter,
    };
    let answer = write_keys::once(&state.db, member.key_owner(), key.as_ref(), async |txn| {
        let entry = machines::log(txn, member.team.id, member.user.id, &machine_id, entry).await?;
        Ok(LogEntryBody { entry: entry_view(&entry) })
    })
    .await?;
    Ok(answered(StatusCode::CREATED, answer))
}

/// Removes a log entry logged by mistake (members, admins and owners).
#[utoipa::path(
    delete, path = "/teams/{team_id}/machines/{machine_id}/maintenance/{entry_id}", tag = "inventory",
    params(("machine_id" = String, Path), ("entry_id" = String, Path)),
    responses(
        (status = 204, description = "Removed"),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such entry for this machine", body = ErrorBody),
    ),
)]
pub async fn unlog(
    State(state): State<AppState>,
    member: TeamEditor,
    PathId(machine_id): PathId<MachinePublicId>,
    PathId(entry_id): PathId<LogPublicId>,
) -> Result<StatusCode, AppError> {
    machines::unlog(&state.db, member.team.id, member.user.id, &machine_id, &entry_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A stitch counter reading as stored, or refused when above [`STITCH_COUNTER_MAX`]: never
/// clipped to the largest `i64` (docs/behaviour.md, "Machines and maintenance").
fn stored_counter(counter: u64) -> Result<i64, AppError> {
    if counter > STITCH_COUNTER_MAX {
        return Err(AppError::Validation(vec![FieldError::new(
            "stitch_counter",
            "out_of_range",
            format!("A stitch counter reads at most {STITCH_COUNTER_MAX}."),
        )]));
    }
    Ok(stored_as("stitch_counter", counter)?)
}

// ---- Between rows and views --------------------------------------------------------------

fn problems(problems: Vec<MachineProblem>) -> AppError {
    AppError::Validation(problems.into_iter().map(|p| FieldError::new(p.field, p.code, p.message)).collect())
}

pub(crate) fn entry_view(record: &LogRecord) -> LogEntry {
    LogEntry {
        id: record.public_id.clone(),
        performed_on: format_date(record.performed_on),
        kind: record.kind,
        notes: record.notes.clone(),
        stitch_counter: record.stitch_counter,
        created_at: record.created_at,
    }
}

/// What a machine's answer says of its log, gathered entry by entry, newest first: the highest
/// stitch counter logged, and the last time each kind of maintenance was done. A log read a page
/// at a time (the team's archive) is gathered a page at a time.
#[derive(Debug, Default)]
pub(crate) struct LogFacts {
    counter: Option<u64>,
    /// The newest entry of each kind logged: when, and the counter then.
    last: Vec<LastDone>,
}

impl LogFacts {
    /// Counts `entry`, which is older than every entry counted before it.
    pub(crate) fn add(&mut self, entry: &LogRecord) {
        self.counter = self.counter.max(entry.stitch_counter);
        if !self.last.iter().any(|done| done.kind == entry.kind) {
            self.last.push(LastDone {
                kind: entry.kind,
                on: entry.performed_on,
                counter: entry.stitch_counter,
            });
        }
    }
}

pub(crate) fn view(stored: StoredMachine, with_log: bool) -> MachineView {
    let mut facts = LogFacts::default();
    for entry in &stored.log {
        facts.add(entry);
    }
    view_with(stored, &facts, with_log)
}

/// [`view`], with what the log says gathered already ([`LogFacts`]): `stored.log` is read only
/// for the entries shown (`with_log`).
pub(crate) fn view_with(stored: StoredMachine, facts: &LogFacts, with_log: bool) -> MachineView {
    let StoredMachine { public_id, machine, version, created_at, updated_at, log } = stored;
    let counter = facts.counter;
    let today = OffsetDateTime::now_utc().date();
    let due = schedule(&machine.intervals, created_at.date(), &facts.last, counter, today)
        .into_iter()
        .map(|line| DueView { due: line.due, overdue: line.overdue, never_done: line.never_done })
        .collect();
    MachineView {
        id: public_id,
        name: machine.name,
        brand: machine.brand,
        model: machine.model,
        serial_number: machine.serial_number,
        heads: machine.heads,
        needles_per_head: machine.needles_per_head,
        max_spm: machine.max_spm,
        typical_spm: machine.typical_spm,
        hoops: machine.hoops,
        status: machine.status,
        purchase_date: machine.purchase_date.map(format_date),
        notes: machine.notes,
        version,
        updated_at,
        stitch_counter: counter,
        intervals: machine.intervals,
        due,
        maintenance: with_log.then(|| log.iter().map(entry_view).collect()),
    }
}
