//! Jobs in the database (issue 50; docs/behaviour.md, "Jobs"): a job keeps a copy of its
//! design's figures, blocks and threads (`bobbin_core::job::JobDesign`) and its colour plan,
//! one inventory entry (by public id) or none per thread of the design.
//!
//! What a job works out (proposal, needles, stock check) is the core's ([`bobbin_core::job`]);
//! this module reads what it needs: the team's threads as the shelf holds them ([`shelf`]) and
//! the jobs that reserve thread ([`reserving`]). Recording pieces done takes their thread from
//! stock in the same transaction ([`record_pieces`], through [`super::stock`]).

use std::collections::HashMap;

use bobbin_core::{
    catalogue::Catalogue,
    colour::Rgb8,
    design::UsageModel,
    inventory::Hundredths,
    job::{self as plan, JobDesign, JobStatus},
};
use sea_orm::{
    ActiveModelTrait as _, ActiveValue::Set, ColumnTrait as _, ConnectionTrait, DatabaseTransaction,
    EntityTrait as _, PaginatorTrait as _, QueryFilter as _, QueryOrder as _, QuerySelect as _,
};
use time::OffsetDateTime;

use super::{RepoError, changed_meanwhile, new_public_id, raised_version, stock};
use crate::entity::{
    ids::{JobId, JobPublicId, MachineId, ObjectId, QuoteId, StoredJobStatus, TeamId, ThreadId, UserId},
    inventory_thread, job, machine,
};

/// The most jobs one team keeps.
pub const MAX_JOBS: u64 = 10_000;
/// The most open jobs (draft, ready, running) one team has at once: every job page and the list
/// work out each open job's thread, so this bounds their work.
pub const MAX_OPEN_JOBS: u64 = 1_000;
/// The statuses of open jobs.
pub const OPEN: [JobStatus; 3] = [JobStatus::Draft, JobStatus::Ready, JobStatus::Running];
/// What a job the team does not have answers.
pub const NOT_FOUND: &str = "There is no such job in this team.";

/// A stored job, its design and plan read.
#[derive(Debug, Clone)]
pub struct StoredJob {
    pub row: job::Model,
    pub design: JobDesign,
    /// Per slot of the design, the inventory entry's public id.
    pub plan: Vec<Option<String>>,
}

impl StoredJob {
    pub fn status(&self) -> JobStatus {
        self.row.status.0
    }

    /// The pieces still to sew.
    pub fn remaining(&self) -> u32 {
        u32::try_from(self.row.quantity.saturating_sub(self.row.pieces_done)).unwrap_or(0)
    }
}

/// One of the team's threads as a job sees it.
#[derive(Debug, Clone)]
pub struct ShelfThread {
    pub id: ThreadId,
    pub public_id: String,
    /// "Madeira Polyneon 40 1800 Red", or the custom thread's name.
    pub label: String,
    pub colour: Rgb8,
    pub line: Option<String>,
    pub code: Option<String>,
    pub quantity: Hundredths,
    /// The entry's own spool length, else its line's default ([`plan::default_spool_m`]).
    pub spool_m: u32,
    /// Whether `spool_m` is the line's default.
    pub spool_default: bool,
    pub cost_per_spool: Option<Hundredths>,
}

/// Every thread of the team, by public id.
///
/// # Errors
///
/// A database error, or a stored amount out of range.
pub async fn shelf(
    db: &impl ConnectionTrait,
    team_id: TeamId,
) -> Result<HashMap<String, ShelfThread>, RepoError> {
    let rows =
        inventory_thread::Entity::find().filter(inventory_thread::Column::TeamId.eq(team_id)).all(db).await?;
    rows.iter().map(|row| Ok((row.public_id.clone(), shelf_thread(row)?))).collect()
}

/// The row as the shelf shows it.
pub fn shelf_thread(row: &inventory_thread::Model) -> Result<ShelfThread, RepoError> {
    let broken = |what: &str| RepoError::Broken(anyhow::anyhow!("inventory row {}: {what}", row.id));
    let catalogue = Catalogue::builtin();
    let label = match (&row.line_id, &row.code) {
        (Some(line), Some(code)) => {
            let index = catalogue.line_by_id(line).ok();
            let line_name = index.map_or_else(|| line.clone(), |index| catalogue.line(index).display_name());
            let name = index
                .and_then(|index| catalogue.find(index, code).ok())
                .map(|found| catalogue.thread(found[0]).name.to_owned())
                .unwrap_or_default();
            format!("{line_name} {code} {name}").trim().to_owned()
        }
        _ => row.name.clone().unwrap_or_default(),
    };
    let own_spool = row.spool_length_m.and_then(|m| u32::try_from(m).ok()).filter(|&m| m > 0);
    Ok(ShelfThread {
        id: row.id,
        public_id: row.public_id.clone(),
        label,
        colour: Rgb8::parse_hex(&row.colour).map_err(|_| broken("colour"))?,
        line: row.line_id.clone(),
        code: row.code.clone(),
        quantity: Hundredths::from_hundredths(row.quantity).map_err(|_| broken("quantity"))?,
        spool_m: own_spool.unwrap_or_else(|| plan::default_spool_m(row.line_id.as_deref())),
        spool_default: own_spool.is_none(),
        cost_per_spool: row
            .cost_per_spool
            .map(Hundredths::from_hundredths)
            .transpose()
            .map_err(|_| broken("cost"))?,
    })
}

/// The metres of each thread (by public id) that the team's ready and running jobs hold for the
/// pieces they have left, leaving out `except`; with the jobs that hold each.
pub fn reservations<'a>(
    jobs: &'a [StoredJob],
    model: &UsageModel,
    except: Option<JobId>,
) -> HashMap<String, Vec<(&'a StoredJob, f64)>> {
    let mut held: HashMap<String, Vec<(&StoredJob, f64)>> = HashMap::new();
    for stored in jobs.iter().filter(|stored| stored.status().reserves() && Some(stored.row.id) != except) {
        let usage = model.usage(&stored.design.blocks);
        for (thread, metres) in plan::thread_needs(
            &usage.blocks,
            &stored.design.slots,
            &stored.plan,
            stored.remaining(),
            model.waste_percent,
        ) {
            held.entry(thread).or_default().push((stored, metres));
        }
    }
    held
}

/// The team's jobs that hold thread: ready and running.
///
/// # Errors
///
/// A database error, or a stored job that cannot be read.
pub async fn reserving(db: &impl ConnectionTrait, team_id: TeamId) -> Result<Vec<StoredJob>, RepoError> {
    let statuses = [JobStatus::Ready, JobStatus::Running].map(StoredJobStatus);
    let rows = job::Entity::find()
        .filter(job::Column::TeamId.eq(team_id))
        .filter(job::Column::Status.is_in(statuses))
        .all(db)
        .await?;
    rows.into_iter().map(stored).collect()
}

/// The team's jobs in these statuses, the soonest due first (jobs without a due date last), then
/// the newest; at most `limit`, the most recently changed.
///
/// # Errors
///
/// A database error, or a stored job that cannot be read.
pub async fn all(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    statuses: &[JobStatus],
    limit: u64,
) -> Result<Vec<StoredJob>, RepoError> {
    let rows = job::Entity::find()
        .filter(job::Column::TeamId.eq(team_id))
        .filter(job::Column::Status.is_in(statuses.iter().copied().map(StoredJobStatus)))
        .order_by_desc(job::Column::UpdatedAt)
        .limit(limit)
        .all(db)
        .await?;
    let mut jobs: Vec<StoredJob> = rows.into_iter().map(stored).collect::<Result<_, _>>()?;
    jobs.sort_by(|a, b| match (&a.row.due_date, &b.row.due_date) {
        (Some(x), Some(y)) => x.cmp(y),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    Ok(jobs)
}

/// One job of the team.
///
/// # Errors
///
/// 404 ([`NOT_FOUND`]); a database error; a stored job that cannot be read.
pub async fn get(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    public_id: &JobPublicId,
) -> Result<StoredJob, RepoError> {
    stored(find(db, team_id, public_id).await?)
}

async fn find(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    public_id: &JobPublicId,
) -> Result<job::Model, RepoError> {
    job::Entity::find()
        .filter(job::Column::TeamId.eq(team_id))
        .filter(job::Column::PublicId.eq(public_id.as_str()))
        .one(db)
        .await?
        .ok_or_else(|| RepoError::NotFound(NOT_FOUND.to_owned()))
}

fn stored(row: job::Model) -> Result<StoredJob, RepoError> {
    let broken = |what: &str| RepoError::Broken(anyhow::anyhow!("job {}: {what}", row.id));
    let design: JobDesign = serde_json::from_str(&row.design).map_err(|_| broken("design"))?;
    let plan: Vec<Option<String>> = serde_json::from_str(&row.plan).map_err(|_| broken("plan"))?;
    Ok(StoredJob { row, design, plan })
}

/// A team's machine by its id, if the team has it.
///
/// # Errors
///
/// A database error.
pub async fn machine(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    id: MachineId,
) -> Result<Option<machine::Model>, RepoError> {
    Ok(machine::Entity::find_by_id(id).filter(machine::Column::TeamId.eq(team_id)).one(db).await?)
}

/// A team's machine by its public id.
///
/// # Errors
///
/// 422 `no_such_machine`; a database error.
pub async fn machine_by_public_id(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    public_id: &str,
) -> Result<machine::Model, RepoError> {
    machine::Entity::find()
        .filter(machine::Column::TeamId.eq(team_id))
        .filter(machine::Column::PublicId.eq(public_id))
        .one(db)
        .await?
        .ok_or_else(|| RepoError::refused("no_such_machine", "That machine is not one of this team's."))
}

/// A job of the team by its id, if it is still there.
///
/// # Errors
///
/// A database error, or a stored job that cannot be read.
pub async fn by_id(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    id: JobId,
) -> Result<Option<StoredJob>, RepoError> {
    job::Entity::find_by_id(id).filter(job::Column::TeamId.eq(team_id)).one(db).await?.map(stored).transpose()
}

/// What a new job is.
#[derive(Debug, Clone)]
pub struct NewJob {
    pub name: String,
    pub customer: String,
    pub design_id: ObjectId,
    pub design: JobDesign,
    pub quantity: u32,
    pub machine_id: Option<MachineId>,
    pub due_date: Option<String>,
    pub notes: String,
    pub quote_id: Option<QuoteId>,
    pub plan: Vec<Option<String>>,
}

/// Saves a new draft job.
///
/// # Errors
///
/// 422 `too_many_jobs`; a database error.
pub async fn create(
    txn: &DatabaseTransaction,
    team_id: TeamId,
    user_id: UserId,
    new: NewJob,
) -> Result<StoredJob, RepoError> {
    if job::Entity::find().filter(job::Column::TeamId.eq(team_id)).count(txn).await? >= MAX_JOBS {
        return Err(RepoError::refused("too_many_jobs", format!("A team keeps at most {MAX_JOBS} jobs.")));
    }
    let open = job::Entity::find()
        .filter(job::Column::TeamId.eq(team_id))
        .filter(job::Column::Status.is_in(OPEN.map(StoredJobStatus)))
        .count(txn)
        .await?;
    if open >= MAX_OPEN_JOBS {
        return Err(RepoError::refused(
            "too_many_jobs",
            format!("A team has at most {MAX_OPEN_JOBS} jobs open at once: finish or cancel some first."),
        ));
    }
    let now = OffsetDateTime::now_utc();
    let row = job::ActiveModel {
        id: Set(JobId::new()),
        public_id: Set(new_public_id()),
        team_id: Set(team_id),
        name: Set(new.name),
        customer: Set(new.customer),
        design_id: Set(Some(new.design_id)),
        design: Set(serde_json::to_string(&new.design).map_err(anyhow::Error::from)?),
        quantity: Set(super::stored_as("quantity", new.quantity)?),
        pieces_done: Set(0),
        machine_id: Set(new.machine_id),
        due_date: Set(new.due_date),
        status: Set(StoredJobStatus(JobStatus::Draft)),
        plan: Set(serde_json::to_string(&new.plan).map_err(anyhow::Error::from)?),
        notes: Set(new.notes),
        quote_id: Set(new.quote_id),
        version: Set(1),
        created_by: Set(Some(user_id)),
        created_at: Set(now),
        updated_at: Set(now),
    }
    .insert(txn)
    .await?;
    stored(row)
}

/// What a change of a job sets: each field given, the others left as they are.
#[derive(Debug, Clone, Default)]
pub struct JobChanges {
    pub name: Option<String>,
    pub customer: Option<String>,
    pub quantity: Option<u32>,
    pub machine_id: Option<Option<MachineId>>,
    pub due_date: Option<Option<String>>,
    pub notes: Option<String>,
    pub status: Option<JobStatus>,
    pub plan: Option<Vec<Option<String>>>,
}

/// Changes a job the editor saw at `version`.
///
/// # Errors
///
/// 404; 409 `edit_conflict` when it changed since; 422 `bad_status` for a move the job's status
/// does not allow, `bad_quantity` for fewer pieces than are done; a database error.
pub async fn update(
    txn: &DatabaseTransaction,
    team_id: TeamId,
    public_id: &JobPublicId,
    version: i32,
    changes: JobChanges,
) -> Result<StoredJob, RepoError> {
    let row = find(txn, team_id, public_id).await?;
    if row.version != version {
        return Err(changed_meanwhile("job"));
    }
    if let Some(to) = changes.status
        && (to == JobStatus::Done || !row.status.0.may_become(to))
    {
        return Err(RepoError::refused(
            "bad_status",
            format!(
                "A {} job cannot become {}. {}",
                row.status.0.as_str(),
                to.as_str(),
                if to == JobStatus::Done { "Record the pieces done instead." } else { "" }
            )
            .trim()
            .to_owned(),
        ));
    }
    if let Some(quantity) = changes.quantity
        && i64::from(quantity) < i64::from(row.pieces_done)
    {
        return Err(RepoError::refused(
            "bad_quantity",
            format!("{} pieces are already done: the quantity cannot be less.", row.pieces_done),
        ));
    }
    let mut active: job::ActiveModel = row.into();
    if let Some(name) = changes.name {
        active.name = Set(name);
    }
    if let Some(customer) = changes.customer {
        active.customer = Set(customer);
    }
    if let Some(quantity) = changes.quantity {
        active.quantity = Set(super::stored_as("quantity", quantity)?);
    }
    if let Some(machine_id) = changes.machine_id {
        active.machine_id = Set(machine_id);
    }
    if let Some(due_date) = changes.due_date {
        active.due_date = Set(due_date);
    }
    if let Some(notes) = changes.notes {
        active.notes = Set(notes);
    }
    if let Some(status) = changes.status {
        active.status = Set(StoredJobStatus(status));
    }
    if let Some(plan) = changes.plan {
        active.plan = Set(serde_json::to_string(&plan).map_err(anyhow::Error::from)?);
    }
    active.updated_at = Set(OffsetDateTime::now_utc());
    let id = active.id.clone().unwrap();
    let written = job::Entity::update_many()
        .set(active)
        .col_expr(job::Column::Version, raised_version(job::Column::Version))
        .filter(job::Column::Id.eq(id))
        .filter(job::Column::Version.eq(version))
        .exec_with_returning(txn)
        .await?;
    written.into_iter().next().map_or_else(|| Err(changed_meanwhile("job")), stored)
}

/// Records `pieces` more pieces done: their thread (by the team's usage model, with its waste)
/// is taken from each mapped entry's stock in one stock change, which the inventory's history
/// shows and which can be undone. A ready job becomes running; the last piece makes it done.
///
/// # Errors
///
/// 404; 422 `bad_status` unless the job is ready or running, `too_many_pieces` past its
/// quantity; a database error.
pub async fn record_pieces(
    txn: &DatabaseTransaction,
    team_id: TeamId,
    user_id: UserId,
    public_id: &JobPublicId,
    pieces: u32,
    model: &UsageModel,
) -> Result<(StoredJob, String), RepoError> {
    let current = stored(find(txn, team_id, public_id).await?)?;
    if !matches!(current.status(), JobStatus::Ready | JobStatus::Running) {
        return Err(RepoError::refused(
            "bad_status",
            format!(
                "Pieces are recorded on a ready or running job; this one is {}.",
                current.status().as_str()
            ),
        ));
    }
    if pieces == 0 || pieces > current.remaining() {
        return Err(RepoError::refused(
            "too_many_pieces",
            format!("{} pieces are left to do: record 1 to {}.", current.remaining(), current.remaining()),
        ));
    }
    let shelf = shelf(txn, team_id).await?;
    let usage = model.usage(&current.design.blocks);
    let lines: Vec<stock::Line> =
        plan::thread_needs(&usage.blocks, &current.design.slots, &current.plan, pieces, model.waste_percent)
            .into_iter()
            .filter_map(|(thread, metres)| {
                let on_shelf = shelf.get(&thread)?;
                Some(stock::Line {
                    thread_id: on_shelf.id,
                    label: on_shelf.label.clone(),
                    delta: -plan::spool_hundredths(metres, f64::from(on_shelf.spool_m)),
                    metres: -metres,
                })
            })
            .collect();
    let summary =
        format!("{}: {pieces} {} done", current.row.name, if pieces == 1 { "piece" } else { "pieces" });
    let (_, change) =
        stock::apply(txn, team_id, user_id, stock::Kind::Job { id: current.row.id, pieces }, &summary, lines)
            .await?;
    let done = current.row.pieces_done + i32::try_from(pieces).unwrap_or(i32::MAX);
    let status = if done >= current.row.quantity { JobStatus::Done } else { JobStatus::Running };
    let changed = job::Entity::update_many()
        .col_expr(job::Column::PiecesDone, sea_orm::prelude::Expr::value(done))
        .col_expr(job::Column::Status, sea_orm::prelude::Expr::value(StoredJobStatus(status)))
        .col_expr(job::Column::UpdatedAt, sea_orm::prelude::Expr::value(OffsetDateTime::now_utc()))
        .col_expr(job::Column::Version, raised_version(job::Column::Version))
        .filter(job::Column::Id.eq(current.row.id))
        .exec_with_returning(txn)
        .await?;
    let row = changed
        .into_iter()
        .next()
        .ok_or_else(|| RepoError::Broken(anyhow::anyhow!("job gone while recorded")))?;
    Ok((stored(row)?, change))
}
