//! A team's machines and their maintenance logs in the database.
//!
//! Every change to a machine raises its `version` ([`change`]), a maintenance entry logged or
//! removed included, since what the machine's answer shows (its stitch counter, what is due)
//! changes with its log.

use crate::db::Database;
use crate::entity::ids::{LogPublicId, MachinePublicId};
use crate::repo::RepoError;
use std::collections::HashMap;

use bobbin_core::inventory::machine::{
    Interval, Machine, MaintenanceKind, format_date, parse_date, with_defaults,
};
use sea_orm::{
    ActiveModelTrait as _, ActiveValue::Set, ColumnTrait as _, ConnectionTrait, DatabaseTransaction,
    EntityTrait as _, PaginatorTrait as _, QueryFilter as _, QueryOrder as _, QuerySelect as _, UpdateMany,
    prelude::Expr, sea_query::ExprTrait as _,
};
use time::{Date, OffsetDateTime};

use super::{new_public_id, raised_version, stored_as, unless_changed_meanwhile};
use crate::{
    db::committed,
    entity::{
        ids::{LogId, MachineId, TeamId, UserId},
        machine, machine_maintenance,
    },
};

/// The most machines one team may list.
pub const MAX_MACHINES: u64 = 500;
/// The most log entries one machine may hold (years of daily oiling).
pub const MAX_LOG_ENTRIES: u64 = 10_000;
/// What a machine the team does not have answers.
pub const NOT_FOUND: &str = "There is no such machine in this team.";
/// What an entry the machine's log does not have answers.
pub const LOG_ENTRY_NOT_FOUND: &str = "There is no such entry in this machine's log.";

/// One stored machine with its log.
#[derive(Debug, Clone)]
pub struct StoredMachine {
    pub public_id: String,
    pub machine: Machine,
    pub version: i32,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
    /// Newest first.
    pub log: Vec<LogRecord>,
}

/// One maintenance entry of a machine's log.
#[derive(Debug, Clone)]
pub struct LogRecord {
    pub public_id: String,
    pub performed_on: Date,
    pub kind: MaintenanceKind,
    pub notes: String,
    pub stitch_counter: Option<u64>,
    pub created_at: OffsetDateTime,
}

/// A maintenance entry to log.
#[derive(Debug, Clone)]
pub struct NewLogEntry {
    pub performed_on: Date,
    pub kind: MaintenanceKind,
    pub notes: String,
    /// As stored: at most `STITCH_COUNTER_MAX`, checked by the handler.
    pub stitch_counter: Option<i64>,
}

/// The team's machines by name, each with its log.
///
/// # Errors
///
/// A database error, or a stored machine that cannot be read.
pub async fn list(db: &impl ConnectionTrait, team_id: TeamId) -> Result<Vec<StoredMachine>, RepoError> {
    let rows = machine::Entity::find()
        .filter(machine::Column::TeamId.eq(team_id))
        .order_by_asc(machine::Column::Name)
        .all(db)
        .await?;
    // Every log of the team's machines in one query, not one a machine.
    let mut logs: HashMap<MachineId, Vec<machine_maintenance::Model>> = HashMap::new();
    for entry in newest_first(machine_maintenance::Entity::find())
        .filter(machine_maintenance::Column::MachineId.is_in(rows.iter().map(|row| row.id)))
        .all(db)
        .await?
    {
        logs.entry(entry.machine_id).or_default().push(entry);
    }
    rows.into_iter()
        .map(|row| {
            let log = logs.remove(&row.id).unwrap_or_default();
            stored_of(row, &log)
        })
        .collect()
}

/// The team's machines by name, each with its id and without its log (`log` is empty): for
/// reading each log a page at a time ([`log_page`]).
///
/// # Errors
///
/// A database error, or a stored machine that cannot be read.
pub async fn list_without_logs(
    db: &impl ConnectionTrait,
    team_id: TeamId,
) -> Result<Vec<(MachineId, StoredMachine)>, RepoError> {
    let rows = machine::Entity::find()
        .filter(machine::Column::TeamId.eq(team_id))
        .order_by_asc(machine::Column::Name)
        .all(db)
        .await?;
    rows.into_iter().map(|row| Ok((row.id, stored_of(row, &[])?))).collect()
}

/// Where a page of a machine's log ended ([`log_page`]).
#[derive(Debug, Clone)]
pub struct LogCursor {
    performed_on: String,
    created_at: OffsetDateTime,
    id: LogId,
}

/// Up to `limit` entries of the machine's log, newest first (as [`get`] lists them), after
/// `after` (from the newest when `None`); with where they end when more may follow.
///
/// # Errors
///
/// A database error, or a stored entry that cannot be read.
pub async fn log_page(
    db: &impl ConnectionTrait,
    machine_id: MachineId,
    after: Option<&LogCursor>,
    limit: u64,
) -> Result<(Vec<LogRecord>, Option<LogCursor>), RepoError> {
    use machine_maintenance::Column;
    let mut query =
        newest_first(machine_maintenance::Entity::find()).filter(Column::MachineId.eq(machine_id));
    if let Some(after) = after {
        // The order is descending on all three columns: what follows is less in all of them.
        query = query.filter(
            Expr::tuple([
                Expr::col(Column::PerformedOn),
                Expr::col(Column::CreatedAt),
                Expr::col(Column::Id),
            ])
            .lt(Expr::tuple([
                Expr::val(after.performed_on.clone()),
                Expr::val(after.created_at),
                Expr::val(after.id),
            ])),
        );
    }
    let rows = query.limit(limit).all(db).await?;
    let next = rows.last().filter(|_| rows.len() as u64 == limit).map(|last| LogCursor {
        performed_on: last.performed_on.clone(),
        created_at: last.created_at,
        id: last.id,
    });
    Ok((rows.iter().map(record_of).collect::<Result<_, _>>()?, next))
}

/// One machine of the team, by its public id, with its log.
///
/// # Errors
///
/// 404; a database error, or a stored machine that cannot be read.
pub async fn get(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    public_id: &MachinePublicId,
) -> Result<StoredMachine, RepoError> {
    let row = find(db, team_id, public_id).await?;
    let log = newest_first(machine_maintenance::Entity::find())
        .filter(machine_maintenance::Column::MachineId.eq(row.id))
        .all(db)
        .await?;
    stored_of(row, &log)
}

/// Adds a machine, added by `user_id`.
///
/// # Errors
///
/// 422 `too_many_machines`; a database error.
pub async fn create(
    db: &Database,
    team_id: TeamId,
    user_id: UserId,
    machine: &Machine,
) -> Result<StoredMachine, RepoError> {
    let count = machine::Entity::find().filter(machine::Column::TeamId.eq(team_id)).count(db).await?;
    if count >= MAX_MACHINES {
        return Err(RepoError::refused(
            "too_many_machines",
            format!("A team lists at most {MAX_MACHINES} machines."),
        ));
    }
    let now = OffsetDateTime::now_utc();
    let mut model = active_of(machine)?;
    model.id = Set(MachineId::new());
    model.public_id = Set(new_public_id());
    model.team_id = Set(team_id);
    model.version = Set(1);
    model.updated_by = Set(Some(user_id));
    model.created_at = Set(now);
    model.updated_at = Set(now);
    let row = committed(db, async |txn| model.insert(txn).await).await?;
    stored_of(row, &[])
}

/// A full edit, made from `version`: refused with 409 `edit_conflict` when the machine changed
/// since, so nothing newer is overwritten.
///
/// # Errors
///
/// 404; 409 `edit_conflict`; a database error.
pub async fn edit(
    db: &Database,
    team_id: TeamId,
    user_id: UserId,
    public_id: &MachinePublicId,
    version: i32,
    machine: &Machine,
) -> Result<StoredMachine, RepoError> {
    let current = find(db, team_id, public_id).await?;
    let columns = active_of(machine)?;
    let result = committed(db, async |txn| {
        change(current.id, user_id).set(columns).filter(machine::Column::Version.eq(version)).exec(txn).await
    })
    .await?;
    unless_changed_meanwhile(result.rows_affected, "machine")?;
    get(db, team_id, public_id).await
}

/// Removes a machine and its log.
///
/// # Errors
///
/// 404; a database error.
pub async fn delete(db: &Database, team_id: TeamId, public_id: &MachinePublicId) -> Result<(), RepoError> {
    let row = find(db, team_id, public_id).await?;
    committed(db, async |txn| machine::Entity::delete_by_id(row.id).exec(txn).await).await?;
    Ok(())
}

/// Logs maintenance done on the machine `public_id`, by `user_id`, in the write transaction
/// `txn` (the caller's: [`super::write_keys::once`]).
///
/// # Errors
///
/// 404; 422 `log_full`; a database error.
pub async fn log(
    txn: &DatabaseTransaction,
    team_id: TeamId,
    user_id: UserId,
    public_id: &MachinePublicId,
    entry: NewLogEntry,
) -> Result<LogRecord, RepoError> {
    let row = find(txn, team_id, public_id).await?;
    let entries = machine_maintenance::Entity::find()
        .filter(machine_maintenance::Column::MachineId.eq(row.id))
        .count(txn)
        .await?;
    if entries >= MAX_LOG_ENTRIES {
        return Err(RepoError::refused(
            "log_full",
            format!("A machine's log holds at most {MAX_LOG_ENTRIES} entries."),
        ));
    }
    let stored = machine_maintenance::ActiveModel {
        id: Set(LogId::new()),
        public_id: Set(new_public_id()),
        machine_id: Set(row.id),
        performed_on: Set(format_date(entry.performed_on)),
        kind: Set(entry.kind.into()),
        notes: Set(entry.notes),
        stitch_counter: Set(entry.stitch_counter),
        recorded_by: Set(Some(user_id)),
        created_at: Set(OffsetDateTime::now_utc()),
    }
    .insert(txn)
    .await?;
    change(row.id, user_id).exec(txn).await?;
    record_of(&stored)
}

/// Removes the entry `entry_id` from the log of the machine `public_id`.
///
/// # Errors
///
/// 404 for the machine or the entry; a database error.
pub async fn unlog(
    db: &Database,
    team_id: TeamId,
    user_id: UserId,
    public_id: &MachinePublicId,
    entry_id: &LogPublicId,
) -> Result<(), RepoError> {
    let row = find(db, team_id, public_id).await?;
    committed(db, async |txn| {
        let deleted = machine_maintenance::Entity::delete_many()
            .filter(machine_maintenance::Column::MachineId.eq(row.id))
            .filter(machine_maintenance::Column::PublicId.eq(entry_id.as_str()))
            .exec(txn)
            .await?;
        if deleted.rows_affected == 0 {
            return Err(RepoError::NotFound(LOG_ENTRY_NOT_FOUND.to_owned()));
        }
        change(row.id, user_id).exec(txn).await?;
        Ok(())
    })
    .await
}

// ---- Between rows and machines -------------------------------------------------------------

fn active_of(machine: &Machine) -> Result<machine::ActiveModel, RepoError> {
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
        status: Set(machine.status.into()),
        purchase_date: Set(machine.purchase_date.map(format_date)),
        notes: Set(machine.notes.clone()),
        maintenance_intervals: Set(serde_json::to_string(&machine.intervals).map_err(anyhow::Error::from)?),
        ..Default::default()
    })
}

/// A change of the machine `id` by `user`, to which the caller adds what changes. Every change
/// to a machine goes through here, so none forgets to raise the version (a full edit made from
/// an older one is then refused) or to say who changed it and when.
fn change(id: MachineId, user: UserId) -> UpdateMany<machine::Entity> {
    machine::Entity::update_many()
        .col_expr(machine::Column::Version, raised_version(machine::Column::Version))
        .col_expr(machine::Column::UpdatedBy, Expr::value(user))
        .col_expr(machine::Column::UpdatedAt, Expr::value(OffsetDateTime::now_utc()))
        .filter(machine::Column::Id.eq(id))
}

async fn find(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    public_id: &MachinePublicId,
) -> Result<machine::Model, RepoError> {
    machine::Entity::find()
        .filter(machine::Column::TeamId.eq(team_id))
        .filter(machine::Column::PublicId.eq(public_id.as_str()))
        .one(db)
        .await?
        .ok_or_else(|| RepoError::NotFound(NOT_FOUND.to_owned()))
}

/// A log, newest first.
fn newest_first(
    select: sea_orm::Select<machine_maintenance::Entity>,
) -> sea_orm::Select<machine_maintenance::Entity> {
    select
        .order_by_desc(machine_maintenance::Column::PerformedOn)
        .order_by_desc(machine_maintenance::Column::CreatedAt)
        // One order on ties too, so that a log read a page at a time is read whole.
        .order_by_desc(machine_maintenance::Column::Id)
}

fn broken(what: &str) -> RepoError {
    RepoError::Broken(anyhow::anyhow!("a stored machine's {what} cannot be read"))
}

fn record_of(row: &machine_maintenance::Model) -> Result<LogRecord, RepoError> {
    Ok(LogRecord {
        public_id: row.public_id.clone(),
        performed_on: parse_date(&row.performed_on).map_err(|_| broken("maintenance date"))?,
        kind: row.kind.0,
        notes: row.notes.clone(),
        stitch_counter: row.stitch_counter.and_then(|c| u64::try_from(c).ok()),
        created_at: row.created_at,
    })
}

fn stored_of(row: machine::Model, log: &[machine_maintenance::Model]) -> Result<StoredMachine, RepoError> {
    Ok(StoredMachine {
        public_id: row.public_id,
        machine: Machine {
            name: row.name,
            brand: row.brand,
            model: row.model,
            serial_number: row.serial_number,
            heads: u32::try_from(row.heads).map_err(|_| broken("heads"))?,
            needles_per_head: u32::try_from(row.needles_per_head).map_err(|_| broken("needles"))?,
            max_spm: row.max_spm.and_then(|v| u32::try_from(v).ok()),
            typical_spm: row.typical_spm.and_then(|v| u32::try_from(v).ok()),
            hoops: serde_json::from_str(&row.hoops).map_err(|_| broken("hoops"))?,
            status: row.status.0,
            purchase_date: row
                .purchase_date
                .as_deref()
                .map(parse_date)
                .transpose()
                .map_err(|_| broken("purchase date"))?,
            notes: row.notes,
            intervals: with_defaults(
                &serde_json::from_str::<Vec<Interval>>(&row.maintenance_intervals)
                    .map_err(|_| broken("maintenance intervals"))?,
            ),
        },
        version: row.version,
        created_at: row.created_at,
        updated_at: row.updated_at,
        log: log.iter().map(record_of).collect::<Result<_, _>>()?,
    })
}
