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
use bobbin_core::{
    inventory::machine::{
        Due, Hoop, Machine, MachineDraft, MachineProblem, MachineStatus, MaintenanceKind, STITCH_COUNTER_MAX,
        format_date, parse_date,
    },
    team::Action,
};
use sea_orm::{
    ActiveModelTrait as _, ActiveValue::Set, ColumnTrait as _, ConnectionTrait, EntityTrait as _,
    PaginatorTrait as _, QueryFilter as _, QueryOrder as _, UpdateMany, prelude::Expr,
};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::{
    entity::{machine, machine_maintenance},
    error::{AppError, ErrorBody, FieldError},
    extract::{ApiJson, ApiPath, TeamMember},
    routes::{stored_as, teams::new_public_id},
    state::AppState,
};

/// The most machines one team may list.
pub const MAX_MACHINES: u64 = 500;
/// The most log entries one machine may hold (years of daily oiling).
pub const MAX_LOG_ENTRIES: u64 = 10_000;
const NOT_FOUND: &str = "There is no such machine in this team.";

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
    /// Never logged: counted from the purchase date (or from when the machine was added).
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
    get, path = "/teams/{team_id}/machines", tag = "inventory",
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`")),
    responses((status = 200, body = MachinesBody), (status = 404, description = "No such team, or not a member", body = ErrorBody)),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn list(State(state): State<AppState>, member: TeamMember) -> Result<Json<MachinesBody>, AppError> {
    let rows = machine::Entity::find()
        .filter(machine::Column::TeamId.eq(member.team.id))
        .order_by_asc(machine::Column::Name)
        .all(&state.db)
        .await?;
    let mut machines = Vec::with_capacity(rows.len());
    for row in rows {
        let log = log_of(&state.db, row.id).await?;
        machines.push(view(row, &log, false)?);
    }
    Ok(Json(MachinesBody { machines }))
}

/// Adds a machine (members, admins and owners).
#[utoipa::path(
    post, path = "/teams/{team_id}/machines", tag = "inventory", request_body = MachineDraft,
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`")),
    responses(
        (status = 201, body = MachineBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such team, or not a member", body = ErrorBody),
        (status = 422, description = "`validation_failed`, naming each field", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn create(
    State(state): State<AppState>,
    member: TeamMember,
    ApiJson(draft): ApiJson<MachineDraft>,
) -> Result<Response, AppError> {
    member.require(Action::EditContent)?;
    let valid = draft.parse().map_err(problems)?;
    let count =
        machine::Entity::find().filter(machine::Column::TeamId.eq(member.team.id)).count(&state.db).await?;
    if count >= MAX_MACHINES {
        return Err(AppError::rejected(
            "too_many_machines",
            format!("A team lists at most {MAX_MACHINES} machines."),
        ));
    }
    let now = OffsetDateTime::now_utc();
    let mut model = active_of(&valid)?;
    model.id = Set(Uuid::new_v4());
    model.public_id = Set(new_public_id());
    model.team_id = Set(member.team.id);
    model.version = Set(1);
    model.updated_by = Set(Some(member.user.id));
    model.created_at = Set(now);
    model.updated_at = Set(now);
    let row = crate::db::committed(&state.db, async |txn| model.insert(txn).await).await?;
    Ok((StatusCode::CREATED, Json(MachineBody { machine: view(row, &[], true)? })).into_response())
}

/// One machine with its maintenance log (every member).
#[utoipa::path(
    get, path = "/teams/{team_id}/machines/{machine_id}", tag = "inventory",
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`"), ("machine_id" = String, Path)),
    responses((status = 200, body = MachineBody), (status = 404, description = "No such machine in this team", body = ErrorBody)),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn get(
    State(state): State<AppState>,
    member: TeamMember,
    ApiPath((_team, machine_id)): ApiPath<(String, String)>,
) -> Result<Json<MachineBody>, AppError> {
    let row = find(&state.db, member.team.id, &machine_id).await?;
    let log = log_of(&state.db, row.id).await?;
    Ok(Json(MachineBody { machine: view(row, &log, true)? }))
}

/// A full edit, made from `version` (members, admins and owners).
#[utoipa::path(
    put, path = "/teams/{team_id}/machines/{machine_id}", tag = "inventory", request_body = MachineEdit,
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`"), ("machine_id" = String, Path)),
    responses(
        (status = 200, body = MachineBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such machine in this team", body = ErrorBody),
        (status = 409, description = "`edit_conflict`: changed by someone else since `version`", body = ErrorBody),
        (status = 422, description = "`validation_failed`, naming each field", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn update(
    State(state): State<AppState>,
    member: TeamMember,
    ApiPath((_team, machine_id)): ApiPath<(String, String)>,
    ApiJson(edit): ApiJson<MachineEdit>,
) -> Result<Json<MachineBody>, AppError> {
    member.require(Action::EditContent)?;
    let version = super::edited_version(edit.version)?;
    let valid = edit.machine.parse().map_err(problems)?;
    let current = find(&state.db, member.team.id, &machine_id).await?;
    let result = change(current.id, member.user.id)
        .set(active_of(&valid)?)
        .filter(machine::Column::Version.eq(version))
        .exec(&state.db)
        .await?;
    super::unless_changed_meanwhile(result.rows_affected, "machine")?;
    let row = find(&state.db, member.team.id, &machine_id).await?;
    let log = log_of(&state.db, row.id).await?;
    Ok(Json(MachineBody { machine: view(row, &log, true)? }))
}

/// Removes a machine and its log (members, admins and owners).
#[utoipa::path(
    delete, path = "/teams/{team_id}/machines/{machine_id}", tag = "inventory",
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`"), ("machine_id" = String, Path)),
    responses(
        (status = 204, description = "Removed"),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such machine in this team", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn delete(
    State(state): State<AppState>,
    member: TeamMember,
    ApiPath((_team, machine_id)): ApiPath<(String, String)>,
) -> Result<StatusCode, AppError> {
    member.require(Action::EditContent)?;
    let row = find(&state.db, member.team.id, &machine_id).await?;
    machine::Entity::delete_by_id(row.id).exec(&state.db).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Logs maintenance done on a machine (members, admins and owners).
#[utoipa::path(
    post, path = "/teams/{team_id}/machines/{machine_id}/maintenance", tag = "inventory", request_body = LogInput,
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`"), ("machine_id" = String, Path)),
    responses(
        (status = 201, body = LogEntryBody),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such machine in this team", body = ErrorBody),
        (status = 422, description = "`validation_failed`: the date, the kind or the notes", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn log(
    State(state): State<AppState>,
    member: TeamMember,
    ApiPath((_team, machine_id)): ApiPath<(String, String)>,
    ApiJson(input): ApiJson<LogInput>,
) -> Result<Response, AppError> {
    member.require(Action::EditContent)?;
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
    let row = find(&state.db, member.team.id, &machine_id).await?;
    let entries = machine_maintenance::Entity::find()
        .filter(machine_maintenance::Column::MachineId.eq(row.id))
        .count(&state.db)
        .await?;
    if entries >= MAX_LOG_ENTRIES {
        return Err(AppError::rejected(
            "log_full",
            format!("A machine's log holds at most {MAX_LOG_ENTRIES} entries."),
        ));
    }
    let txn = crate::db::begin_write(&state.db).await?;
    let entry = machine_maintenance::ActiveModel {
        id: Set(Uuid::new_v4()),
        public_id: Set(new_public_id()),
        machine_id: Set(row.id),
        performed_on: Set(format_date(date)),
        kind: Set(input.kind.as_str().to_owned()),
        notes: Set(input.notes.trim().to_owned()),
        stitch_counter: Set(stitch_counter),
        recorded_by: Set(Some(member.user.id)),
        created_at: Set(OffsetDateTime::now_utc()),
    }
    .insert(&txn)
    .await?;
    change(row.id, member.user.id).exec(&txn).await?;
    txn.commit().await?;
    Ok((StatusCode::CREATED, Json(LogEntryBody { entry: entry_view(&entry)? })).into_response())
}

/// Removes a log entry logged by mistake (members, admins and owners).
#[utoipa::path(
    delete, path = "/teams/{team_id}/machines/{machine_id}/maintenance/{entry_id}", tag = "inventory",
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`"), ("machine_id" = String, Path), ("entry_id" = String, Path)),
    responses(
        (status = 204, description = "Removed"),
        (status = 403, description = "Viewers only read", body = ErrorBody),
        (status = 404, description = "No such entry for this machine", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn unlog(
    State(state): State<AppState>,
    member: TeamMember,
    ApiPath((_team, machine_id, entry_id)): ApiPath<(String, String, String)>,
) -> Result<StatusCode, AppError> {
    member.require(Action::EditContent)?;
    let row = find(&state.db, member.team.id, &machine_id).await?;
    let txn = crate::db::begin_write(&state.db).await?;
    let deleted = machine_maintenance::Entity::delete_many()
        .filter(machine_maintenance::Column::MachineId.eq(row.id))
        .filter(machine_maintenance::Column::PublicId.eq(entry_id))
        .exec(&txn)
        .await?;
    if deleted.rows_affected == 0 {
        return Err(AppError::NotFound("There is no such entry in this machine's log.".to_owned()));
    }
    change(row.id, member.user.id).exec(&txn).await?;
    txn.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A stitch counter reading as stored, or refused when above [`STITCH_COUNTER_MAX`] (it was
/// stored as the largest `i64` instead: issue 16).
fn stored_counter(counter: u64) -> Result<i64, AppError> {
    if counter > STITCH_COUNTER_MAX {
        return Err(AppError::Validation(vec![FieldError::new(
            "stitch_counter",
            "out_of_range",
            format!("A stitch counter reads at most {STITCH_COUNTER_MAX}."),
        )]));
    }
    stored_as("stitch_counter", counter)
}

// ---- Between rows and views --------------------------------------------------------------

fn problems(problems: Vec<MachineProblem>) -> AppError {
    AppError::Validation(problems.into_iter().map(|p| FieldError::new(p.field, p.code, p.message)).collect())
}

fn active_of(machine: &Machine) -> Result<machine::ActiveModel, AppError> {
    Ok(machine::ActiveModel {
        name: Set(machine.name.clone()),
        brand: Set(machine.brand.clone()),
        model: Set(machine.model.clone()),
        serial_number: Set(machine.serial_number.clone()),
        heads: Set(stored_as("heads", machine.heads)?),
        needles_per_head: Set(stored_as("needles_per_head", machine.needles_per_head)?),
        max_spm: Set(machine.max_spm.map(|spm| stored_as("max_spm", spm)).transpose()?),
        typical_spm: Set(machine.typical_spm.map(|spm| stored_as("typical_spm", spm)).transpose()?),
        hoops: Set(serde_json::to_string(&machine.hoops).map_err(anyhow::Error::from)?),
        status: Set(status_str(machine.status).to_owned()),
        purchase_date: Set(machine.purchase_date.map(format_date)),
        notes: Set(machine.notes.clone()),
        ..Default::default()
    })
}

/// A change of the machine `id` by `user`, to which the caller adds what changes. Every change
/// to a machine goes through here, so none forgets to raise the version (a full edit made from
/// an older one is then refused) or to say who changed it and when.
fn change(id: Uuid, user: Uuid) -> UpdateMany<machine::Entity> {
    machine::Entity::update_many()
        .col_expr(machine::Column::Version, super::raised_version(machine::Column::Version))
        .col_expr(machine::Column::UpdatedBy, Expr::value(user))
        .col_expr(machine::Column::UpdatedAt, Expr::value(OffsetDateTime::now_utc()))
        .filter(machine::Column::Id.eq(id))
}

fn status_str(status: MachineStatus) -> &'static str {
    match status {
        MachineStatus::Active => "active",
        MachineStatus::Maintenance => "maintenance",
        MachineStatus::Retired => "retired",
    }
}

async fn find(db: &impl ConnectionTrait, team_id: Uuid, public_id: &str) -> Result<machine::Model, AppError> {
    machine::Entity::find()
        .filter(machine::Column::TeamId.eq(team_id))
        .filter(machine::Column::PublicId.eq(public_id))
        .one(db)
        .await?
        .ok_or_else(|| AppError::NotFound(NOT_FOUND.to_owned()))
}

/// The machine's log, newest first.
async fn log_of(
    db: &impl ConnectionTrait,
    machine_id: Uuid,
) -> Result<Vec<machine_maintenance::Model>, AppError> {
    Ok(machine_maintenance::Entity::find()
        .filter(machine_maintenance::Column::MachineId.eq(machine_id))
        .order_by_desc(machine_maintenance::Column::PerformedOn)
        .order_by_desc(machine_maintenance::Column::CreatedAt)
        .all(db)
        .await?)
}

fn broken(what: &str) -> AppError {
    AppError::Internal(anyhow::anyhow!("a stored machine's {what} cannot be read"))
}

fn entry_view(row: &machine_maintenance::Model) -> Result<LogEntry, AppError> {
    Ok(LogEntry {
        id: row.public_id.clone(),
        performed_on: row.performed_on.clone(),
        kind: kind_of(&row.kind)?,
        notes: row.notes.clone(),
        stitch_counter: row.stitch_counter.and_then(|c| u64::try_from(c).ok()),
        created_at: row.created_at,
    })
}

fn kind_of(stored: &str) -> Result<MaintenanceKind, AppError> {
    MaintenanceKind::ALL
        .into_iter()
        .find(|kind| kind.as_str() == stored)
        .ok_or_else(|| broken("maintenance kind"))
}

fn view(
    row: machine::Model,
    log: &[machine_maintenance::Model],
    with_log: bool,
) -> Result<MachineView, AppError> {
    let entries = log.iter().map(entry_view).collect::<Result<Vec<_>, _>>()?;
    let counter = entries.iter().filter_map(|entry| entry.stitch_counter).max();
    let since = match row.purchase_date.as_deref() {
        Some(date) => parse_date(date).map_err(|_| broken("purchase date"))?,
        None => row.created_at.date(),
    };
    let today = OffsetDateTime::now_utc().date();
    let mut due: Vec<DueView> = MaintenanceKind::ALL
        .into_iter()
        .filter_map(|kind| {
            // The log is newest first: the first entry of a kind is the last time it was done.
            let last = entries.iter().find(|entry| entry.kind == kind);
            let (date, counter_then, never_done) = match last {
                Some(entry) => (parse_date(&entry.performed_on).ok()?, entry.stitch_counter, false),
                None => (since, None, true),
            };
            let due = kind.next_due(date, counter_then)?;
            Some(DueView { overdue: due.is_due(today, counter), never_done, due })
        })
        .collect();
    due.sort_by_key(|d| d.due.date);
    let status = match row.status.as_str() {
        "active" => MachineStatus::Active,
        "maintenance" => MachineStatus::Maintenance,
        "retired" => MachineStatus::Retired,
        _ => return Err(broken("status")),
    };
    Ok(MachineView {
        id: row.public_id,
        name: row.name,
        brand: row.brand,
        model: row.model,
        serial_number: row.serial_number,
        heads: u32::try_from(row.heads).map_err(|_| broken("heads"))?,
        needles_per_head: u32::try_from(row.needles_per_head).map_err(|_| broken("needles"))?,
        max_spm: row.max_spm.and_then(|v| u32::try_from(v).ok()),
        typical_spm: row.typical_spm.and_then(|v| u32::try_from(v).ok()),
        hoops: serde_json::from_str(&row.hoops).map_err(|_| broken("hoops"))?,
        status,
        purchase_date: row.purchase_date,
        notes: row.notes,
        version: row.version,
        updated_at: row.updated_at,
        stitch_counter: counter,
        due,
        maintenance: with_log.then_some(entries),
    })
}
