//! A team's thread inventory in the database: reading entries as the core's [`ThreadEntry`],
//! and every change to them.
//!
//! Every change to an entry raises its `version` ([`change`], [`change_entry`]): a handler cannot
//! forget it, because it cannot write an entry any other way. The database itself gives the
//! team's thread revision, which the [`super::thread_cache`] copies are checked against, a new
//! value in the transaction that adds, changes or removes a row (triggers: migrations 10, 14).
//!
//! A change of one entry is one statement (`UPDATE … RETURNING`) in its transaction: no read of
//! the entry before it, and none after it to answer with. Only a change that matched no row
//! reads the entry, to tell a missing entry from a refused change.

use crate::entity::ids::ThreadPublicId;
use crate::repo::RepoError;
use std::{
    collections::{HashMap, HashSet},
    sync::atomic::{AtomicBool, Ordering},
};

use bobbin_core::{
    catalogue::Catalogue,
    colour::Rgb8,
    inventory::{Hundredths, ThreadEntry, ThreadSource, amount::MAX_HUNDREDTHS, search},
};
use sea_orm::{
    ActiveModelTrait as _, ActiveValue::Set, ColumnTrait as _, ConnectionTrait, DatabaseTransaction,
    DbBackend, DbErr, EntityName as _, EntityTrait as _, FromQueryResult, JoinType, PaginatorTrait as _,
    QueryFilter as _, QuerySelect as _, TransactionTrait as _, UpdateMany, prelude::Expr,
    sea_query::ExprTrait as _,
};
use time::OffsetDateTime;

use super::{
    changed_meanwhile, new_public_id, raised_version, stored_as,
    users::{Person, people_of},
};
use crate::{
    db::{Database, begin_read, committed},
    entity::{
        ids::{TeamId, ThreadId, UserId},
        inventory_thread, team, user,
    },
};

/// The most entries one team's thread inventory may hold.
pub const MAX_THREADS: u64 = 20_000;
/// What a thread the team does not have answers.
pub const NOT_FOUND: &str = "There is no such thread in this team's inventory.";

/// One stored entry, as the API shows it.
#[derive(Debug, Clone)]
pub struct Thread {
    pub public_id: String,
    pub entry: ThreadEntry,
    /// The colour as stored: what a catalogue thread the catalogue no longer has is shown with.
    pub stored_colour: String,
    pub version: i32,
    pub updated_by_email: Option<String>,
    pub updated_at: OffsetDateTime,
}

/// One entry of the team, by its public id.
///
/// # Errors
///
/// 404 when the team has no such entry; a database error.
pub async fn get(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    public_id: &ThreadPublicId,
) -> Result<Thread, RepoError> {
    let row = find(db, team_id, public_id).await?;
    let people = people_of(db, row.updated_by.into_iter()).await?;
    thread_of(&row, &people)
}

/// The entries of the team with these ids (internal ids, as the thread copies hold them), with
/// the address of who changed each last, in one query: a page of the list. An entry removed
/// since the copy was read is left out.
///
/// # Errors
///
/// A database error, or a stored entry the core cannot read.
pub async fn page(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    ids: Vec<ThreadId>,
) -> Result<HashMap<ThreadId, Thread>, RepoError> {
    let rows = inventory_thread::Entity::find()
        .filter(inventory_thread::Column::TeamId.eq(team_id))
        .filter(inventory_thread::Column::Id.is_in(ids))
        .join(
            JoinType::LeftJoin,
            inventory_thread::Entity::belongs_to(user::Entity)
                .from(inventory_thread::Column::UpdatedBy)
                .to(user::Column::Id)
                .into(),
        )
        .column_as(Expr::col((user::Entity, user::Column::Email)), CHANGER_EMAIL)
        .into_model::<PageRow>()
        .all(db)
        .await?;
    rows.iter().map(|PageRow(row, email)| Ok((row.id, thread_shown(row, email.clone())?))).collect()
}

/// The column of a [`page`]'s row that holds the address of who changed the entry last.
const CHANGER_EMAIL: &str = "changer_email";

/// A row of [`page`]: the entry, and the address of who changed it last (the person's only
/// column a page shows).
struct PageRow(inventory_thread::Model, Option<String>);

impl FromQueryResult for PageRow {
    fn from_query_result(row: &sea_orm::QueryResult, prefix: &str) -> Result<Self, DbErr> {
        Ok(Self(
            inventory_thread::Model::from_query_result(row, prefix)?,
            row.try_get(prefix, CHANGER_EMAIL)?,
        ))
    }
}

/// Every entry of the team with the Unix second it last changed, in no particular order.
///
/// # Errors
///
/// A database error, or a stored entry the core cannot read.
pub async fn all(db: &impl ConnectionTrait, team_id: TeamId) -> Result<Vec<(ThreadEntry, i64)>, RepoError> {
    let rows =
        inventory_thread::Entity::find().filter(inventory_thread::Column::TeamId.eq(team_id)).all(db).await?;
    rows.iter().map(|row| Ok((entry_of(row)?, row.updated_at.unix_timestamp()))).collect()
}

/// Which thread each of the team's entries is, by the entry's id, in no particular order: what
/// orders a whole inventory before its entries are read a page at a time ([`by_ids`]), without
/// holding every entry's notes at once.
///
/// # Errors
///
/// A database error, or a stored entry the core cannot read.
pub async fn sources(
    db: &impl ConnectionTrait,
    team_id: TeamId,
) -> Result<Vec<(ThreadId, ThreadSource)>, RepoError> {
    use inventory_thread::Column;
    /// An entry's id, line, code, name and colour.
    type SourceRow = (ThreadId, Option<String>, Option<String>, Option<String>, String);
    let rows: Vec<SourceRow> = inventory_thread::Entity::find()
        .select_only()
        .columns([Column::Id, Column::LineId, Column::Code, Column::Name, Column::Colour])
        .filter(Column::TeamId.eq(team_id))
        .into_tuple()
        .all(db)
        .await?;
    rows.into_iter()
        .map(|(id, line, code, name, colour)| {
            Ok((id, source_of(id, line.as_ref(), code.as_ref(), name.as_ref(), &colour)?))
        })
        .collect()
}

/// The team's entries with these ids, in the order of `ids`; an id of no entry of the team is
/// left out.
///
/// # Errors
///
/// A database error, or a stored entry the core cannot read.
pub async fn by_ids(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    ids: &[ThreadId],
) -> Result<Vec<ThreadEntry>, RepoError> {
    let rows = inventory_thread::Entity::find()
        .filter(inventory_thread::Column::TeamId.eq(team_id))
        .filter(inventory_thread::Column::Id.is_in(ids.iter().copied()))
        .all(db)
        .await?;
    let mut by_id: HashMap<ThreadId, inventory_thread::Model> =
        rows.into_iter().map(|row| (row.id, row)).collect();
    ids.iter().filter_map(|id| by_id.remove(id)).map(|row| entry_of(&row)).collect()
}

/// The identities ([`ThreadSource::identity`]) of the team's entries: what an import matches on.
///
/// # Errors
///
/// A database error.
pub async fn identities(db: &impl ConnectionTrait, team_id: TeamId) -> Result<HashSet<String>, DbErr> {
    Ok(by_identity(db, team_id).await?.into_keys().collect())
}

/// Adds one entry, made by `user`.
///
/// # Errors
///
/// 409 `already_in_inventory`; 422 `inventory_full`; a database error.
pub async fn create(
    db: &Database,
    team_id: TeamId,
    user: &user::Model,
    entry: &ThreadEntry,
) -> Result<Thread, RepoError> {
    let row = committed(db, async |txn| {
        check_room(txn, team_id, 1).await?;
        insert(txn, team_id, user.id, entry).await
    })
    .await?;
    changed_by(&row, user)
}

/// A full edit, made from `version`: refused with 409 `edit_conflict` when the entry changed
/// since, so nothing newer is overwritten.
///
/// # Errors
///
/// 404; 409 `edit_conflict` or `already_in_inventory`; a database error.
pub async fn edit(
    db: &Database,
    team_id: TeamId,
    user: &user::Model,
    public_id: &ThreadPublicId,
    version: i32,
    entry: &ThreadEntry,
) -> Result<Thread, RepoError> {
    let columns = active_of(entry)?;
    let edit = change_entry(team_id, public_id, user.id)
        .set(columns)
        .filter(inventory_thread::Column::Version.eq(version));
    let changed =
        committed(db, async |txn| edit.exec_with_returning(txn).await).await.map_err(duplicate_entry)?;
    if let Some(row) = changed.first() {
        return changed_by(row, user);
    }
    find(db, team_id, public_id).await?;
    Err(changed_meanwhile("thread"))
}

/// Changes the quantity by `delta` hundredths, in the database (`quantity + delta`), so taps made
/// at once all count.
///
/// # Errors
///
/// 404; 422 `negative_quantity` when the result would be below zero or past the largest amount;
/// a database error.
pub async fn adjust(
    txn: &DatabaseTransaction,
    team_id: TeamId,
    user: &user::Model,
    public_id: &ThreadPublicId,
    delta: i64,
) -> Result<Thread, RepoError> {
    let after = Expr::col(inventory_thread::Column::Quantity).add(delta);
    let tap = change_entry(team_id, public_id, user.id)
        .col_expr(inventory_thread::Column::Quantity, after.clone())
        .filter(after.clone().gte(0))
        .filter(after.lte(MAX_HUNDREDTHS));
    let changed = tap.exec_with_returning(txn).await?;
    if let Some(row) = changed.first() {
        return changed_by(row, user);
    }
    find(txn, team_id, public_id).await?;
    Err(RepoError::refused(
        "negative_quantity",
        "That would leave fewer than zero spools. Check the count on the shelf and set it with an edit.",
    ))
}

/// Sets the quantity to `quantity` if it is still `expected`, the count the person
/// saw: a count typed into the list replaces what they saw, never a teammate's change made since
/// (docs/behaviour.md, "Thread inventory").
///
/// # Errors
///
/// 404; 409 `quantity_changed`, naming the count now, the one seen and the one typed; a database
/// error.
pub async fn set_quantity(
    txn: &DatabaseTransaction,
    team_id: TeamId,
    user: &user::Model,
    public_id: &ThreadPublicId,
    expected: Hundredths,
    quantity: Hundredths,
) -> Result<Thread, RepoError> {
    let count = change_entry(team_id, public_id, user.id)
        .col_expr(inventory_thread::Column::Quantity, Expr::value(quantity.hundredths()))
        .filter(inventory_thread::Column::Quantity.eq(expected.hundredths()));
    let changed = count.exec_with_returning(txn).await?;
    if let Some(row) = changed.first() {
        return changed_by(row, user);
    }
    let now = find(txn, team_id, public_id).await?;
    Err(RepoError::conflict(
        "quantity_changed",
        format!(
            "Someone changed this count to {} after you saw {expected}, so your {quantity} was not saved. \
             Enter it again if yours is right.",
            amount_of(now.id, now.quantity)?,
        ),
    ))
}

/// What a change of many entries at once sets: each field given, the others left as they are.
#[derive(Debug, Clone, Default)]
pub struct ManyChanges {
    pub location: Option<String>,
    /// `Some(None)` removes the entries' own reorder points (the team's default then applies).
    pub reorder_point: Option<Option<Hundredths>>,
}

/// Sets the same location and/or reorder point on several entries, in one transaction: all of
/// them or, when one is not in the team, none (404).
///
/// # Errors
///
/// 404; a database error.
pub async fn change_many(
    db: &Database,
    team_id: TeamId,
    user_id: UserId,
    public_ids: &[ThreadPublicId],
    changes: &ManyChanges,
) -> Result<Vec<Thread>, RepoError> {
    committed(db, async |txn| {
        for public_id in public_ids {
            let row = find(txn, team_id, public_id).await?;
            let mut update = change(row.id, user_id);
            if let Some(location) = &changes.location {
                update = update.col_expr(inventory_thread::Column::Location, Expr::value(location.clone()));
            }
            if let Some(point) = changes.reorder_point {
                update = update.col_expr(
                    inventory_thread::Column::ReorderPoint,
                    Expr::value(point.map(Hundredths::hundredths)),
                );
            }
            update.exec(txn).await?;
        }
        Ok::<_, RepoError>(())
    })
    .await?;
    let mut threads = Vec::with_capacity(public_ids.len());
    for public_id in public_ids {
        threads.push(get(db, team_id, public_id).await?);
    }
    Ok(threads)
}

/// Removes an entry.
///
/// # Errors
///
/// 404; a database error.
pub async fn delete(db: &Database, team_id: TeamId, public_id: &ThreadPublicId) -> Result<(), RepoError> {
    let deleted = committed(db, async |txn| {
        inventory_thread::Entity::delete_many()
            .filter(inventory_thread::Column::TeamId.eq(team_id))
            .filter(inventory_thread::Column::PublicId.eq(public_id.as_str()))
            .exec(txn)
            .await
    })
    .await?;
    if deleted.rows_affected == 0 {
        return Err(RepoError::NotFound(NOT_FOUND.to_owned()));
    }
    Ok(())
}

/// Adds the entries the team does not have yet; those it has are left as they are.
/// Answers the entries added and those already owned.
///
/// # Errors
///
/// 422 `inventory_full`; a database error.
pub async fn add_missing(
    db: &Database,
    team_id: TeamId,
    user: &user::Model,
    entries: Vec<ThreadEntry>,
) -> Result<(Vec<Thread>, Vec<ThreadEntry>), RepoError> {
    let (rows, already) = committed(db, async |txn| {
        let owned: HashSet<String> = inventory_thread::Entity::find()
            .filter(inventory_thread::Column::TeamId.eq(team_id))
            .filter(inventory_thread::Column::Identity.is_in(entries.iter().map(|e| e.source.identity())))
            .all(txn)
            .await?
            .into_iter()
            .map(|row| row.identity)
            .collect();
        let (already, new): (Vec<ThreadEntry>, Vec<ThreadEntry>) =
            entries.into_iter().partition(|entry| owned.contains(&entry.source.identity()));
        check_room(txn, team_id, new.len()).await?;
        let mut rows = Vec::with_capacity(new.len());
        for entry in &new {
            rows.push(insert(txn, team_id, user.id, entry).await?);
        }
        Ok::<_, RepoError>((rows, already))
    })
    .await?;
    let added = rows.iter().map(|row| changed_by(row, user)).collect::<Result<_, _>>()?;
    Ok((added, already))
}

/// Writes an import, all entries or none: an entry for a thread the team has replaces that
/// entry; the others are added. Answers the identities the team had before, which tell the
/// two apart.
///
/// On PostgreSQL, an import that added [`ANALYZED_AFTER`] entries or more then has the table's
/// statistics gathered again ([`analyzed`]).
///
/// # Errors
///
/// 422 `inventory_full`; a database error.
pub async fn import(
    db: &Database,
    team_id: TeamId,
    user_id: UserId,
    entries: &[ThreadEntry],
) -> Result<HashSet<String>, RepoError> {
    let existing = import_entries(db, team_id, user_id, entries).await?;
    let added = entries.iter().filter(|entry| !existing.contains(&entry.source.identity())).count();
    if added >= ANALYZED_AFTER {
        analyzed(db).await;
    }
    Ok(existing)
}

/// How many entries an import adds, at least, for the statistics to be gathered after it.
const ANALYZED_AFTER: usize = 100;

/// Has PostgreSQL gather the statistics of the thread inventories again (`ANALYZE`), as its
/// manual asks after a bulk load ("Populating a Database"). Its planner chooses how to find an
/// entry from them: with those of an inventory of a few entries (or none yet), it read a
/// `+1`'s entry by the team's index, going through each of the team's 1,000 entries, where the
/// entry's own unique key reads one: each `+1` then took PostgreSQL several times as long, and
/// the server answered far fewer of them under load. Autovacuum gathers them too, but only a
/// minute or more later, and not at all where the operator has turned it off.
///
/// One at a time on this server: an import that comes while another's is under way leaves it
/// to that one. It waits at most [`ANALYZE_LOCK_WAIT`] for the table (another `ANALYZE`, a
/// `VACUUM`, a migration), and a failure is logged: the import stands.
async fn analyzed(db: &Database) {
    /// Cleared when dropped, also when the request is dropped half-way (its client gone).
    struct UnderWay;
    impl Drop for UnderWay {
        fn drop(&mut self) {
            UNDER_WAY.store(false, Ordering::Release);
        }
    }
    static UNDER_WAY: AtomicBool = AtomicBool::new(false);
    if db.get_database_backend() != DbBackend::Postgres || UNDER_WAY.swap(true, Ordering::AcqRel) {
        return;
    }
    let _under_way = UnderWay;
    let table = inventory_thread::Entity.table_name();
    let lock_wait = ANALYZE_LOCK_WAIT.as_millis();
    let gathered = async {
        let txn = db.writes().begin().await?;
        txn.execute_unprepared(&format!("SET LOCAL lock_timeout = {lock_wait}")).await?;
        txn.execute_unprepared(&format!("ANALYZE {table}")).await?;
        txn.commit().await
    };
    if let Err(error) = gathered.await {
        tracing::warn!(%error, "the thread inventories' statistics could not be gathered after an import");
    }
}

/// How long [`analyzed`] waits for the table, at most.
const ANALYZE_LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// [`import`]'s transaction.
async fn import_entries(
    db: &Database,
    team_id: TeamId,
    user_id: UserId,
    entries: &[ThreadEntry],
) -> Result<HashSet<String>, RepoError> {
    committed(db, async |txn| {
        let existing = by_identity(txn, team_id).await?;
        let adding = entries.iter().filter(|entry| !existing.contains_key(&entry.source.identity())).count();
        check_room(txn, team_id, adding).await?;
        for entry in entries {
            match existing.get(&entry.source.identity()) {
                Some(&id) => {
                    change(id, user_id).set(active_of(entry)?).exec(txn).await?;
                }
                None => {
                    insert(txn, team_id, user_id, entry).await?;
                }
            }
        }
        Ok(existing.into_keys().collect())
    })
    .await
}

// ---- The thread copies' read ---------------------------------------------------------------

/// One entry as the list's search and the converter's "owned" list read it: no spool length,
/// cost or notes.
#[derive(Debug)]
pub struct Stocked {
    pub id: ThreadId,
    pub entry: ThreadEntry,
    /// Unix seconds.
    pub updated_at: i64,
}

impl Stocked {
    /// About how many bytes the entry takes in memory: its own and its texts'.
    pub(super) fn weight(&self) -> usize {
        let source = match &self.entry.source {
            ThreadSource::Catalogue { line, code } => line.len() + code.len(),
            ThreadSource::Custom { name, .. } => name.len(),
        };
        size_of::<Self>() + source + self.entry.location.len() + self.entry.notes.len()
    }
}

/// What the list's search reads of each entry.
#[derive(Debug, FromQueryResult)]
struct SearchRow {
    id: ThreadId,
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
    async fn of_team(db: &impl ConnectionTrait, team_id: TeamId) -> Result<Vec<Self>, DbErr> {
        inventory_thread::Entity::find()
            .select_only()
            .columns(Self::COLUMNS)
            .filter(inventory_thread::Column::TeamId.eq(team_id))
            .into_model()
            .all(db)
            .await
    }

    /// The entry as far as the search needs it: no spool length, cost or notes.
    fn stocked(&self) -> Result<Stocked, RepoError> {
        let entry = ThreadEntry {
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
        };
        Ok(Stocked { id: self.id, entry, updated_at: self.updated_at.unix_timestamp() })
    }
}

/// The team's thread revision and every entry of the team as the search reads them, in code
/// order ([`search::code_order`]), both as they were at one moment: for the team's copy
/// ([`super::thread_cache`]).
///
/// # Errors
///
/// A database error, or a stored entry the core cannot read. `None` when there is no such team
/// (any more).
pub(super) async fn stocked_of_team(
    db: &Database,
    team_id: TeamId,
) -> Result<Option<(i64, Vec<Stocked>)>, RepoError> {
    let txn = begin_read(db).await?;
    let Some(team) = team::Entity::find_by_id(team_id).one(&txn).await? else {
        return Ok(None);
    };
    let rows = SearchRow::of_team(&txn, team_id).await?;
    txn.commit().await?;
    let mut threads = rows.iter().map(SearchRow::stocked).collect::<Result<Vec<_>, _>>()?;
    threads.sort_by_cached_key(|thread| search::code_order(&thread.entry));
    Ok(Some((team.threads_revision, threads)))
}

// ---- Between rows and entries --------------------------------------------------------------

/// A change of the entry `id` by `user`, to which the caller adds what changes. Every change to
/// an entry goes through here, so none forgets to raise the version (a full edit made from an
/// older one is then refused) or to say who changed it and when.
fn change(id: ThreadId, user: UserId) -> UpdateMany<inventory_thread::Entity> {
    stamped(user).filter(inventory_thread::Column::Id.eq(id))
}

/// [`change`] of the team's entry with this public id, if the team has it.
fn change_entry(
    team_id: TeamId,
    public_id: &ThreadPublicId,
    user: UserId,
) -> UpdateMany<inventory_thread::Entity> {
    stamped(user)
        .filter(inventory_thread::Column::TeamId.eq(team_id))
        .filter(inventory_thread::Column::PublicId.eq(public_id.as_str()))
}

/// An update of entries that raises their version and records who changed them, and when; with
/// no filter yet: only [`change`] and [`change_entry`] call it.
fn stamped(user: UserId) -> UpdateMany<inventory_thread::Entity> {
    inventory_thread::Entity::update_many()
        .col_expr(inventory_thread::Column::Version, raised_version(inventory_thread::Column::Version))
        .col_expr(inventory_thread::Column::UpdatedBy, Expr::value(user))
        .col_expr(inventory_thread::Column::UpdatedAt, Expr::value(OffsetDateTime::now_utc()))
}

/// The entry's columns (everything but ids, version and who/when).
fn active_of(entry: &ThreadEntry) -> Result<inventory_thread::ActiveModel, RepoError> {
    let catalogue = Catalogue::builtin();
    let (line_id, code, name, colour) = match &entry.source {
        ThreadSource::Catalogue { line, code } => {
            let (_, colour) = entry.name_and_colour(catalogue);
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
    team_id: TeamId,
    user_id: UserId,
    entry: &ThreadEntry,
) -> Result<inventory_thread::Model, RepoError> {
    let now = OffsetDateTime::now_utc();
    let mut model = active_of(entry)?;
    model.id = Set(ThreadId::new());
    model.public_id = Set(new_public_id());
    model.team_id = Set(team_id);
    model.version = Set(1);
    model.updated_by = Set(Some(user_id));
    model.created_at = Set(now);
    model.updated_at = Set(now);
    model.insert(db).await.map_err(duplicate_entry)
}

/// The database's uniqueness of (team, thread) as the API's answer.
fn duplicate_entry(error: DbErr) -> RepoError {
    match error.sql_err() {
        Some(sea_orm::SqlErr::UniqueConstraintViolation(_)) => RepoError::conflict(
            "already_in_inventory",
            "This thread is already in the inventory: change that entry's quantity instead.",
        ),
        _ => RepoError::Database(error),
    }
}

async fn check_room(db: &impl ConnectionTrait, team_id: TeamId, adding: usize) -> Result<(), RepoError> {
    let count = inventory_thread::Entity::find()
        .filter(inventory_thread::Column::TeamId.eq(team_id))
        .count(db)
        .await?;
    if count + adding as u64 > MAX_THREADS {
        return Err(RepoError::refused(
            "inventory_full",
            format!("A team's thread inventory holds at most {MAX_THREADS} entries."),
        ));
    }
    Ok(())
}

/// The team's entries' ids, by the identity an import matches them on.
async fn by_identity(db: &impl ConnectionTrait, team_id: TeamId) -> Result<HashMap<String, ThreadId>, DbErr> {
    let rows =
        inventory_thread::Entity::find().filter(inventory_thread::Column::TeamId.eq(team_id)).all(db).await?;
    Ok(rows.into_iter().map(|row| (row.identity, row.id)).collect())
}

async fn find(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    public_id: &ThreadPublicId,
) -> Result<inventory_thread::Model, RepoError> {
    inventory_thread::Entity::find()
        .filter(inventory_thread::Column::TeamId.eq(team_id))
        .filter(inventory_thread::Column::PublicId.eq(public_id.as_str()))
        .one(db)
        .await?
        .ok_or_else(|| RepoError::NotFound(NOT_FOUND.to_owned()))
}

/// A row `user` has just written, as the API shows it.
fn changed_by(row: &inventory_thread::Model, user: &user::Model) -> Result<Thread, RepoError> {
    thread_of(row, &Person::only(user))
}

fn thread_of(row: &inventory_thread::Model, people: &HashMap<UserId, Person>) -> Result<Thread, RepoError> {
    thread_shown(row, row.updated_by.and_then(|id| people.get(&id)).map(|person| person.email.clone()))
}

/// The stored row as the API shows it, changed last by the person at `changer_email`.
fn thread_shown(row: &inventory_thread::Model, changer_email: Option<String>) -> Result<Thread, RepoError> {
    Ok(Thread {
        public_id: row.public_id.clone(),
        entry: entry_of(row)?,
        stored_colour: row.colour.clone(),
        version: row.version,
        updated_by_email: changer_email,
        updated_at: row.updated_at,
    })
}

/// The stored row as the core's entry.
fn entry_of(row: &inventory_thread::Model) -> Result<ThreadEntry, RepoError> {
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

fn broken_row(id: ThreadId, what: &str) -> RepoError {
    RepoError::Broken(anyhow::anyhow!("inventory row {id}: {what}"))
}

fn amount_of(id: ThreadId, value: i64) -> Result<Hundredths, RepoError> {
    Hundredths::from_hundredths(value).map_err(|_| broken_row(id, "amount"))
}

fn source_of(
    id: ThreadId,
    line_id: Option<&String>,
    code: Option<&String>,
    name: Option<&String>,
    colour: &str,
) -> Result<ThreadSource, RepoError> {
    Ok(match (line_id, code) {
        (Some(line), Some(code)) => ThreadSource::Catalogue { line: line.clone(), code: code.clone() },
        _ => ThreadSource::Custom {
            name: name.cloned().unwrap_or_default(),
            colour: Rgb8::parse_hex(colour).map_err(|_| broken_row(id, "colour"))?,
        },
    })
}
