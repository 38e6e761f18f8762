//! Opening the database named by `DATABASE_URL`: SQLite (the embedded default) or PostgreSQL.

use std::{
    collections::HashMap,
    path::PathBuf,
    str::FromStr as _,
    sync::{
        Arc, LazyLock, Mutex,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use anyhow::{Context as _, bail};
use rand::RngCore as _;
use sea_orm::{
    ColumnTrait as _, ConnAcquireErr, ConnectionTrait, DatabaseConnection, DatabaseTransaction, DbBackend,
    DbErr, EntityTrait, ExecResult, FromQueryResult as _, Iterable as _, QueryResult, QueryTrait as _,
    RuntimeErr, SqliteTransactionMode, SqlxPostgresConnector, SqlxSqliteConnector, Statement,
    TransactionOptions, TransactionTrait as _, TryGetable, TryIntoModel, UpdateMany,
    sea_query::{Alias, OnConflict, Query, ValueType, Values},
    sqlx::{
        self, Connection as _,
        postgres::{PgConnectOptions, PgPoolOptions},
        sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous},
    },
};

use sea_query_sqlx::SqlxValues;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::config::DatabaseArgs;
use pipelined::Piped;

mod pipelined;
mod sqlite_reads;

pub use sqlite_reads::ColumnTypes;
use sqlite_reads::{NotHere, SqliteReads, TypedRow};

/// How long a query waits for a locked SQLite database before failing with "database is busy".
pub const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a request waits for a connection: a free one (pooled, or one of [`SignInReads`]' on
/// PostgreSQL), or a new one opened.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a PostgreSQL connection sits unused (in the pool, or among [`SignInReads`]') before it
/// is checked again as it goes out.
const CHECKED_AFTER_IDLE: Duration = Duration::from_secs(1);

/// The database engines Bobbin runs on, chosen by the scheme of `DATABASE_URL`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    Sqlite,
    Postgres,
}

impl Engine {
    pub fn from_url(url: &str) -> anyhow::Result<Self> {
        let scheme = url.split_once(':').map_or("", |(scheme, _)| scheme);
        match scheme {
            "sqlite" => Ok(Self::Sqlite),
            "postgres" | "postgresql" => Ok(Self::Postgres),
            // Only the scheme is echoed: the rest of the URL may hold a password.
            _ => bail!("DATABASE_URL must start with sqlite:// or postgres:// (it starts with `{scheme}:`)"),
        }
    }
}

/// A database failure that is not a bug: the storage or the database server is out of order for
/// a while. Requests that meet one answer `503` or `507` with a code that says which, and
/// `/healthz` reports it, instead of a bare `500`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outage {
    /// No free connection in time, or the database is locked by someone else for longer than
    /// the busy timeout.
    Busy,
    /// The disk (or the PostgreSQL server's disk) is full.
    Full,
    /// The database file or file system, or the PostgreSQL server, takes no writes.
    ReadOnly,
    /// The connection broke (PostgreSQL restarted or cut it, an I/O error on the SQLite file).
    Unavailable,
}

impl Outage {
    /// The outage behind `error`, if it is one.
    pub fn of(error: &DbErr) -> Option<Self> {
        match error {
            DbErr::ConnectionAcquire(ConnAcquireErr::Timeout) => Some(Self::Busy),
            DbErr::ConnectionAcquire(ConnAcquireErr::ConnectionClosed) => Some(Self::Unavailable),
            DbErr::Conn(RuntimeErr::SqlxError(error))
            | DbErr::Exec(RuntimeErr::SqlxError(error))
            | DbErr::Query(RuntimeErr::SqlxError(error)) => Self::of_sqlx(error),
            _ => None,
        }
    }

    fn of_sqlx(error: &sqlx::Error) -> Option<Self> {
        match error {
            sqlx::Error::PoolTimedOut => Some(Self::Busy),
            sqlx::Error::PoolClosed
            | sqlx::Error::Io(_)
            | sqlx::Error::Tls(_)
            | sqlx::Error::Protocol(_)
            | sqlx::Error::WorkerCrashed => Some(Self::Unavailable),
            sqlx::Error::Database(error) => {
                let code = error.code()?;
                if error.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some() {
                    Self::of_sqlite_code(code.parse().ok()?)
                } else {
                    Self::of_sqlstate(&code)
                }
            }
            _ => None,
        }
    }

    /// SQLite's result codes: the primary code is the low byte of the extended one
    /// (<https://sqlite.org/rescode.html>).
    fn of_sqlite_code(extended: i32) -> Option<Self> {
        match extended & 0xff {
            5 | 6 => Some(Self::Busy),          // SQLITE_BUSY, SQLITE_LOCKED
            8 => Some(Self::ReadOnly),          // SQLITE_READONLY
            13 => Some(Self::Full),             // SQLITE_FULL
            10 | 14 => Some(Self::Unavailable), // SQLITE_IOERR, SQLITE_CANTOPEN
            _ => None,
        }
    }

    /// The stable code of the API's error answer.
    pub fn code(self) -> &'static str {
        match self {
            Self::Busy => "database_busy",
            Self::Full => "storage_full",
            Self::ReadOnly => "database_read_only",
            Self::Unavailable => "database_unavailable",
        }
    }

    /// What the person is told; nothing was changed, whatever they asked for.
    pub fn message(self) -> &'static str {
        match self {
            Self::Busy => {
                "The server is too busy to do this just now, and nothing was changed. Try again in a moment."
            }
            Self::Full => {
                "The server's disk is full, so nothing was saved. Try again later; whoever runs Bobbin \
                 needs to free some space."
            }
            Self::ReadOnly => {
                "The server cannot save anything just now (its database is read-only), so nothing was \
                 changed. Try again later."
            }
            Self::Unavailable => {
                "The server lost its connection to the database, and nothing was changed. Try again in a moment."
            }
        }
    }

    /// Seconds a client should wait before trying again (`Retry-After`).
    pub fn retry_after(self) -> u16 {
        match self {
            Self::Busy => 1,
            Self::Unavailable => 5,
            Self::Full | Self::ReadOnly => 60,
        }
    }

    /// PostgreSQL's SQLSTATE codes (<https://www.postgresql.org/docs/current/errcodes-appendix.html>).
    fn of_sqlstate(code: &str) -> Option<Self> {
        match code {
            "53100" => Some(Self::Full),     // disk_full
            "25006" => Some(Self::ReadOnly), // read_only_sql_transaction
            // too_many_connections, lock_not_available, query_canceled; deadlock_detected and
            // serialization_failure, which ask to try again
            "53300" | "55P03" | "57014" | "40P01" | "40001" => Some(Self::Busy),
            "57P01" | "57P02" | "57P03" => Some(Self::Unavailable), // shutdown, crash, cannot connect now
            code if code.starts_with("08") => Some(Self::Unavailable), // connection exceptions
            _ => None,
        }
    }
}

/// Begins a transaction that will write. On SQLite it takes the write lock at once (`BEGIN
/// IMMEDIATE`): a transaction that reads first and writes later (as most do) would otherwise fail
/// with "database is locked" whenever another connection wrote in between, which the busy timeout
/// cannot cure. PostgreSQL ignores the mode.
///
/// SQLite has one writer at a time, and a connection that finds the lock taken sleeps in SQLite's
/// busy handler (1 ms, then longer, up to 100 ms) and tries again, so under load some writes
/// waited many times longer than others. Writers of this process therefore first take their turn
/// in a queue of their own ([`write_turns`], first come first served), waiting at most the busy
/// timeout for it; the busy handler is left for other processes (the operator's commands, a
/// backup).
///
/// # Errors
///
/// When the database cannot start the transaction, or no turn came within the busy timeout (an
/// [`Outage::Busy`]).
pub async fn begin_write(db: &DatabaseConnection) -> Result<WriteTransaction, DbErr> {
    let turn = writer_turn(db).await?;
    let txn = db
        .begin_with_options(TransactionOptions {
            sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
            ..TransactionOptions::default()
        })
        .await?;
    Ok(WriteTransaction { txn, _turn: turn })
}

/// This writer's turn at `db`'s SQLite file ([`begin_write`]), held until it is dropped; `None`
/// where writers need no turn.
///
/// # Errors
///
/// When no turn came within the busy timeout (an [`Outage::Busy`]).
async fn writer_turn(db: &DatabaseConnection) -> Result<Option<OwnedSemaphorePermit>, DbErr> {
    let Some(turns) = write_turns(db) else { return Ok(None) };
    let turn = tokio::time::timeout(SQLITE_BUSY_TIMEOUT, turns.acquire_owned())
        .await
        .map_err(|_elapsed| DbErr::ConnectionAcquire(ConnAcquireErr::Timeout))?
        .map_err(|_closed| DbErr::ConnectionAcquire(ConnAcquireErr::ConnectionClosed))?;
    Ok(Some(turn))
}

/// The queue of this process's writers to `db`'s SQLite file: one turn, handed out in order
/// (tokio's semaphore is fair). None for PostgreSQL, which has no single writer, or an in-memory
/// database.
fn write_turns(db: &DatabaseConnection) -> Option<Arc<Semaphore>> {
    static QUEUES: LazyLock<Mutex<HashMap<PathBuf, Arc<Semaphore>>>> = LazyLock::new(Mutex::default);
    if db.get_database_backend() != DbBackend::Sqlite {
        return None;
    }
    let options = db.get_sqlite_connection_pool().connect_options();
    let file = options.get_filename();
    if file.as_os_str().is_empty() || file.as_os_str() == ":memory:" {
        return None;
    }
    let mut queues = QUEUES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    Some(Arc::clone(queues.entry(file.to_path_buf()).or_insert_with(|| Arc::new(Semaphore::new(1)))))
}

/// A transaction from [`begin_write`], holding its writer's turn until it is committed or dropped
/// (dropped, it rolls back). It reads and writes as the transaction does.
#[derive(Debug)]
pub struct WriteTransaction {
    txn: DatabaseTransaction,
    _turn: Option<OwnedSemaphorePermit>,
}

impl WriteTransaction {
    /// Commits, then gives the turn to the next writer.
    ///
    /// # Errors
    ///
    /// The database's.
    pub async fn commit(self) -> Result<(), DbErr> {
        self.txn.commit().await
    }
}

impl std::ops::Deref for WriteTransaction {
    type Target = DatabaseTransaction;

    fn deref(&self) -> &DatabaseTransaction {
        &self.txn
    }
}

#[async_trait::async_trait]
impl ConnectionTrait for WriteTransaction {
    fn get_database_backend(&self) -> DbBackend {
        self.txn.get_database_backend()
    }

    async fn execute_raw(&self, statement: Statement) -> Result<ExecResult, DbErr> {
        self.txn.execute_raw(statement).await
    }

    async fn execute_unprepared(&self, sql: &str) -> Result<ExecResult, DbErr> {
        self.txn.execute_unprepared(sql).await
    }

    async fn query_one_raw(&self, statement: Statement) -> Result<Option<QueryResult>, DbErr> {
        self.txn.query_one_raw(statement).await
    }

    async fn query_all_raw(&self, statement: Statement) -> Result<Vec<QueryResult>, DbErr> {
        self.txn.query_all_raw(statement).await
    }
}

/// Runs `write` in a transaction of its own, and answers only once it is committed. Every write
/// outside a longer transaction goes through here, but for a single `UPDATE … RETURNING`, which
/// [`updated`] writes in fewer trips.
///
/// sea-orm writes `insert` and `update` as `INSERT/UPDATE … RETURNING`. On SQLite such a
/// statement outside a transaction commits only when the driver resets it after reading the
/// row, and sqlx drops the error of that reset (launchbadge/sqlx#2099): on a full disk the
/// write was answered as saved and then lost. Inside a transaction the `COMMIT` reports it.
///
/// # Errors
///
/// The write's own error, or the database's when it cannot begin or commit.
pub async fn committed<T, E: From<DbErr>>(
    db: &DatabaseConnection,
    write: impl AsyncFnOnce(&DatabaseTransaction) -> Result<T, E>,
) -> Result<T, E> {
    let txn = begin_write(db).await?;
    let value = write(&txn).await?;
    txn.commit().await?;
    Ok(value)
}

/// Runs one `UPDATE … RETURNING` of the one row `entry` names (its key, unique in `E`'s table: a
/// team's id and the entry's public id, say) and answers the rows it changed, once they are
/// committed. Every change of one entry goes through here (a `+1` tapped on several phones at
/// once, say), with the changes that came while the one before was being written
/// ([`committed_together`]).
///
/// On SQLite, which takes one write at a time, the changes of every entry wait for each other:
/// alone, a change is sent as one command (`BEGIN IMMEDIATE; …; COMMIT`). Through sea-orm's
/// transaction the three were three round trips to the connection's worker thread while the
/// writer held SQLite's one write lock, and under load each trip also waited for a free core to
/// carry the request on: 64 writers then took turns at a lock held about half a millisecond each
/// (README, "API speed").
///
/// On PostgreSQL only the changes of one entry wait for each other, as they would for its row
/// anyway: changes of different entries run side by side, and one entry held by a long
/// transaction (an import) holds up no other's. Alone, a single statement is its own
/// transaction, triggers included, and a write error is reported with the statement's answer.
///
/// # Errors
///
/// The database's, or an [`Outage::Busy`] when no turn or connection came in time.
pub async fn updated<E>(
    db: &DatabaseConnection,
    entry: &str,
    update: UpdateMany<E>,
) -> Result<Vec<E::Model>, DbErr>
where
    E: EntityTrait,
    E::ActiveModel: TryIntoModel<E::Model>,
{
    let backend = db.get_database_backend();
    // The columns as sea-orm's own `exec_with_returning` asks for them.
    let returning = Query::returning()
        .exprs(E::Column::iter().map(|column| column.select_as(column.into_returning_expr(backend))));
    let mut query = update.into_query();
    query.returning(returning);
    let change = Change { statements: vec![backend.build(&query)], check: None };
    let written = committed_together(db, format!("{}/{entry}", E::default().table_name()), change).await?;
    written.rows.iter().map(|row| row.model::<E>("")).collect()
}

/// Runs `statements` in one transaction, hands every row they answer (in practice those of a
/// last `SELECT`, which sees the writes before it) to `keep`, and commits only if `keep` answers
/// `Ok`; its `Err` (a refusal) rolls everything back and is answered. For a change of several
/// statements whose result decides whether it stands: a map of settings that must not end up
/// over its limit, say. `keep` must answer from the rows alone: it is asked in the transaction,
/// and again for the answer.
///
/// A change that writes one row names it in `row`, as [`updated`] names its entry (a team's
/// setting, say): the changes of it that come at once are then written together
/// ([`committed_together`]). A change of several rows (`None`) is written alone: written one
/// after another in a transaction, changes of several rows each would lock them in the order the
/// changes came, and a change alone (or on another server) that locks two of them the other way
/// would deadlock with it.
///
/// Alone, on SQLite the statements go to the connection's worker thread as one command (`BEGIN
/// IMMEDIATE; …`) and the `COMMIT` or `ROLLBACK` as a second: two trips while the writer holds
/// SQLite's one write lock, where a sea-orm transaction takes one for each statement, and two
/// more to begin and commit. A command of one or two statements (a change and its read) stays
/// prepared on its connection for the next; a longer one is prepared for its one use, so that
/// the connection's cache of prepared statements does not fill with every mix of changes someone
/// sends. On PostgreSQL, whose transactions lock only the rows they write, they are a
/// transaction's statements, sent together with its `BEGIN` ([`pipelined`]), or else one by one.
///
/// # Errors
///
/// `keep`'s refusal; the database's, or an [`Outage::Busy`] when no turn or connection came in
/// time.
pub async fn written_if<T, E>(
    db: &DatabaseConnection,
    row: Option<&str>,
    statements: Vec<Statement>,
    keep: impl Fn(&[Row]) -> Result<T, E> + Send + Sync + 'static,
) -> Result<T, E>
where
    E: From<DbErr>,
{
    let keep = Arc::new(keep);
    let check = Arc::clone(&keep);
    let change = Change { statements, check: Some(Arc::new(move |rows| check(rows).is_ok())) };
    let written = match row {
        Some(row) => committed_together(db, row.to_owned(), change).await?,
        None => written_alone(db, change).await?,
    };
    let answer = keep(&written.rows);
    if !written.stood && answer.is_ok() {
        // Asked again, the check answered otherwise: nothing was kept, so nothing is answered as
        // kept.
        return Err(DbErr::Custom("a change's check refused it, then let it stand".to_owned()).into());
    }
    answer
}

/// What a change wrote: the rows its statements answered, and whether they let it stand (it was
/// committed) or not (rolled back).
struct Written {
    rows: Vec<Row>,
    stood: bool,
}

/// A change: statements run in order in one transaction, and what decides from their rows
/// whether it stands ([`written_if`]'s `keep`, asked yes or no); with none, it always does.
#[derive(Clone)]
struct Change {
    statements: Vec<Statement>,
    check: Option<Check>,
}

/// Whether a change's rows let it stand ([`Change`]).
type Check = Arc<dyn Fn(&[Row]) -> bool + Send + Sync>;

/// Whether `rows` let a change with `check` stand. A check that panics does not: the transaction
/// is rolled back, and the same check asked for the answer panics in its request.
fn stands(check: Option<&Check>, rows: &[Row]) -> bool {
    check.is_none_or(|check| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(rows))).unwrap_or(false)
    })
}

/// Runs `change`, a change of `entry`, in a transaction (on SQLite a write transaction: its
/// writer's turn, `BEGIN IMMEDIATE`, `COMMIT`; see [`begin_write`] and [`committed`]), and answers
/// its rows once they are committed, or rolled back if they do not let it stand.
///
/// The changes that come while one is being written wait, and go to the database together, up to
/// [`WRITTEN_TOGETHER`] at a time, as one transaction of their own ([`written_together`]); one
/// that comes alone is written alone ([`written_alone`]). They wait in one queue for each pool
/// on SQLite, whose writers take turns, and one for each entry of a pool on PostgreSQL.
///
/// SQLite takes one write at a time, so under load each change took its turn: a task of its own,
/// a connection taken from the pool and checked as it went back (a second hand-over to the
/// connection's thread), SQLite's file locks and a commit to the write-ahead log, for a statement
/// that itself takes some microseconds. On PostgreSQL each change of an entry waited, holding its
/// row, for the commit before it to reach the disk. Together they share all that, and every
/// change is answered only once the transaction holding it is committed, as before. The
/// statements of a transaction run one after another, each seeing the changes before it, as they
/// would have one by one. A change whose request is gone by the time the writer takes it from the
/// queue (its client left, or it timed out) is not written, as one still waiting for its turn was
/// not.
///
/// # Errors
///
/// The database's, or an [`Outage::Busy`] when no turn or connection came in time.
async fn committed_together(
    db: &DatabaseConnection,
    entry: String,
    change: Change,
) -> Result<Written, DbErr> {
    // One queue per pool (per entry of a pool, on PostgreSQL): the address of the pool's options,
    // held in the entry so that no other pool can have it while the entry is there.
    let (options, entry): (Arc<dyn std::any::Any + Send + Sync>, _) = match db.get_database_backend() {
        DbBackend::Sqlite => (db.get_sqlite_connection_pool().connect_options(), None),
        _ => (db.get_postgres_connection_pool().connect_options(), Some(entry)),
    };
    let queue = Queue { pool: Arc::as_ptr(&options).cast::<()>() as usize, entry };
    let (reply, answer) = tokio::sync::oneshot::channel();
    let change = WaitingChange { change, reply };
    let first = {
        let mut waiting = waiting_changes();
        match waiting.entry(queue.clone()) {
            std::collections::hash_map::Entry::Occupied(mut others) => {
                others.get_mut().changes.push(change);
                None
            }
            std::collections::hash_map::Entry::Vacant(none) => {
                none.insert(Waiting { _options: options, changes: Vec::new() });
                Some(change)
            }
        }
    };
    if let Some(first) = first {
        // Made before the task, so that the entry goes even if the task never runs (the runtime
        // stopping).
        let writer = Writer { queue, done: false };
        tokio::spawn(write_as_they_come(db.clone(), writer, first));
    }
    answer.await.map_err(|_stopped| DbErr::Custom("a write stopped before it was answered".to_owned()))?
}

/// How many statements of waiting changes go to the database in one transaction, at most (a
/// change of more goes alone): enough for the `+1`s of a busy shop's every phone at once, and few
/// enough that another writer waiting its turn on SQLite (a sign-in, an import) waits for some
/// milliseconds, not more.
const WRITTEN_TOGETHER: usize = 32;

/// A change waiting for [`write_as_they_come`], and where its answer goes.
struct WaitingChange {
    change: Change,
    reply: tokio::sync::oneshot::Sender<Result<Written, DbErr>>,
}

/// Which changes wait for each other ([`committed_together`]): those of a pool (the address of
/// its options), and on PostgreSQL of one entry of its tables (`{table}/{key}`).
#[derive(Clone, PartialEq, Eq, Hash)]
struct Queue {
    pool: usize,
    entry: Option<String>,
}

/// A queue's writer at work, and the changes that came meanwhile.
struct Waiting {
    _options: Arc<dyn std::any::Any + Send + Sync>,
    changes: Vec<WaitingChange>,
}

/// The changes waiting for each queue's writer ([`committed_together`]). A queue has an entry
/// while its writer is at work; the changes that come meanwhile wait in it.
fn waiting_changes() -> std::sync::MutexGuard<'static, HashMap<Queue, Waiting>> {
    static WAITING: LazyLock<Mutex<HashMap<Queue, Waiting>>> = LazyLock::new(Mutex::default);
    WAITING.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The writer of a queue. Should it stop half-way (a panic, the runtime stopping), the changes
/// still waiting are answered with an error rather than left waiting, and the next change starts
/// a writer again.
struct Writer {
    queue: Queue,
    done: bool,
}

impl Drop for Writer {
    fn drop(&mut self) {
        if !self.done {
            waiting_changes().remove(&self.queue);
        }
    }
}

/// Writes `first`, then whatever changes have come for its queue meanwhile, until none waits.
async fn write_as_they_come(db: DatabaseConnection, mut writer: Writer, first: WaitingChange) {
    let mut changes = vec![first];
    loop {
        write_changes(&db, changes).await;
        let mut waiting = waiting_changes();
        let Some(next) = waiting.get_mut(&writer.queue).filter(|next| !next.changes.is_empty()) else {
            // Under the lock, so that no change joins a queue nobody is writing any more.
            waiting.remove(&writer.queue);
            writer.done = true;
            return;
        };
        let mut statements = 0;
        let count = next.changes.iter().take_while(|waiting| {
            statements += waiting.change.statements.len();
            statements <= WRITTEN_TOGETHER
        });
        changes = next.changes.drain(..count.count().max(1)).collect();
    }
}

/// Writes `changes` and answers each: alone, or together in one transaction. If a statement
/// fails among others (a duplicate name, say), or a change's rows do not let it stand, nothing
/// of theirs is kept, and each is written again alone, so that it gets its own answer; any other
/// failure (an outage, a failed commit) is every one's answer.
async fn write_changes(db: &DatabaseConnection, mut changes: Vec<WaitingChange>) {
    changes.retain(|change| !change.reply.is_closed());
    if changes.len() <= 1 {
        if let Some(WaitingChange { change, reply }) = changes.pop() {
            // Its request gone since: the write was still made.
            let _answered = reply.send(written_alone(db, change).await);
        }
        return;
    }
    let together = changes.iter().map(|waiting| waiting.change.clone()).collect();
    match written_together(db, together).await.map_err(Together::every_ones) {
        Ok(rows) => {
            for (change, rows) in changes.into_iter().zip(rows) {
                let _answered = change.reply.send(Ok(Written { rows, stood: true }));
            }
        }
        Err(None) => {
            for WaitingChange { change, reply } in changes {
                if !reply.is_closed() {
                    let _answered = reply.send(written_alone(db, change).await);
                }
            }
        }
        Err(Some(error)) => {
            for change in changes {
                let _answered = change.reply.send(Err(error.clone()));
            }
        }
    }
}

/// Runs `change` in a transaction of its own, and answers its rows once they are committed, or
/// rolled back if they do not let it stand. On PostgreSQL a single statement that always stands
/// is its own transaction.
///
/// On SQLite it is a write transaction sent to a pooled connection as one command, with its
/// `COMMIT` if the change always stands, or else followed by a `COMMIT` or `ROLLBACK` as the rows
/// decide ([`written_if`]). Written here with sqlx because sea-orm's transactions send each
/// statement as a command of its own, and sqlx counts only the transactions it began itself: so
/// this function ends the transaction itself when a statement fails (`ROLLBACK`), and a
/// connection it cannot tell is out of one (the rollback failed too: none was open, or SQLite
/// ended it on a full disk) is closed, not pooled. It runs as a task of its own
/// ([`as_sqlite_writer`]).
async fn written_alone(db: &DatabaseConnection, change: Change) -> Result<Written, DbErr> {
    if db.get_database_backend() != DbBackend::Sqlite
        && (change.statements.len() > 1 || change.check.is_some())
        && let Some(pipeline) = pipeline_of(db)
    {
        match pipeline.run(std::slice::from_ref(&change)).await {
            Ok(mut answers) => return Ok(Written { rows: answers.pop().unwrap_or_default(), stood: true }),
            Err(Piped::NotStanding(mut answers)) => {
                return Ok(Written { rows: answers.pop().unwrap_or_default(), stood: false });
            }
            Err(Piped::Failed(error)) => return Err(error),
            // Written again below, for the statement's own error (nothing of it was kept).
            Err(Piped::StatementFailed(_) | Piped::NotPipelined) => {}
        }
    }
    let Change { mut statements, check } = change;
    if db.get_database_backend() != DbBackend::Sqlite {
        if statements.len() == 1 && check.is_none() {
            let rows = db.query_all_raw(statements.remove(0)).await?;
            return Ok(Written { rows: rows.into_iter().map(Row::Sqlx).collect(), stood: true });
        }
        let txn = db.begin().await?;
        let rows = rows_of(&txn, statements).await?;
        let stood = stands(check.as_ref(), &rows);
        if stood {
            txn.commit().await?;
        }
        return Ok(Written { rows, stood });
    }
    let kept_prepared = statements.len() <= 2;
    let (sql, values) = one_command(statements);
    let sql = if check.is_none() { format!("{sql}; COMMIT") } else { sql };
    as_sqlite_writer(db, move |mut connection| async move {
        let rows = sqlx::query_with(sqlx::AssertSqlSafe(sql), values)
            .persistent(kept_prepared)
            .fetch_all(&mut *connection)
            .await;
        let rows: Vec<Row> = match rows {
            Ok(rows) => rows.into_iter().map(|row| Row::Sqlx(row.into())).collect(),
            Err(error) => {
                roll_back(&mut connection).await;
                return Err(exec_error(error));
            }
        };
        let stood = stands(check.as_ref(), &rows);
        if check.is_some() {
            if stood {
                commit(&mut connection).await?;
            } else {
                roll_back(&mut connection).await;
            }
        }
        Ok(Written { rows, stood })
    })
    .await
}

/// The connections of `db`, a PostgreSQL pool, that send a transaction's statements together
/// ([`pipelined`]), if it has them.
fn pipeline_of(db: &DatabaseConnection) -> Option<Arc<pipelined::Pipeline>> {
    pipelined::of(&db.get_postgres_connection_pool().connect_options())
}

/// How a transaction of several changes failed: one of its statements (which may succeed alone),
/// a change whose rows did not let it stand, or anything else (no turn, the commit).
enum Together {
    StatementFailed(DbErr),
    NotStanding,
    Failed(DbErr),
}

impl Together {
    /// The error every change of the transaction is answered with; none where each may yet be
    /// written alone (a statement failed, not for an outage, or a change did not stand).
    fn every_ones(self) -> Option<DbErr> {
        match self {
            Self::StatementFailed(error) if Outage::of(&error).is_none() => None,
            Self::NotStanding => None,
            Self::StatementFailed(error) | Self::Failed(error) => Some(error),
        }
    }
}

impl From<DbErr> for Together {
    fn from(error: DbErr) -> Self {
        Self::Failed(error)
    }
}

/// Runs `changes` one after another in one transaction, and answers the rows of each once all are
/// committed. When a statement fails, or a change's rows do not let it stand, the transaction is
/// rolled back and that answered.
///
/// On SQLite, a write transaction, as [`written_alone`] runs one: a command to begin, one for
/// each statement (each stays prepared on its connection: a change has a few shapes), and one to
/// commit. On PostgreSQL, a transaction whose statements are changes of one row
/// ([`committed_together`], [`written_if`]), so that it holds no row that one of them alone would
/// not, sent in one flight ([`pipelined`]) or else through the pool, one statement at a time.
async fn written_together(db: &DatabaseConnection, changes: Vec<Change>) -> Result<Vec<Vec<Row>>, Together> {
    if db.get_database_backend() != DbBackend::Sqlite {
        if let Some(pipeline) = pipeline_of(db) {
            match pipeline.run(&changes).await {
                Ok(answers) => return Ok(answers),
                Err(Piped::StatementFailed(why)) => {
                    return Err(Together::StatementFailed(DbErr::Custom(why)));
                }
                Err(Piped::NotStanding(_)) => return Err(Together::NotStanding),
                Err(Piped::Failed(error)) => return Err(Together::Failed(error)),
                Err(Piped::NotPipelined) => {}
            }
        }
        let txn = db.begin().await?;
        let mut answers = Vec::with_capacity(changes.len());
        for change in changes {
            let rows = rows_of(&txn, change.statements).await.map_err(Together::StatementFailed)?;
            if !stands(change.check.as_ref(), &rows) {
                return Err(Together::NotStanding);
            }
            answers.push(rows);
        }
        txn.commit().await?;
        return Ok(answers);
    }
    as_sqlite_writer(db, move |mut connection| async move {
        let begun = sqlx::raw_sql(sqlx::AssertSqlSafe("BEGIN IMMEDIATE")).execute(&mut *connection).await;
        if let Err(error) = begun {
            roll_back(&mut connection).await;
            return Err(Together::Failed(exec_error(error)));
        }
        let mut answers = Vec::with_capacity(changes.len());
        for change in changes {
            let mut rows = Vec::new();
            for statement in change.statements {
                let values = SqlxValues(statement.values.unwrap_or(Values(Vec::new())));
                match sqlx::query_with(sqlx::AssertSqlSafe(statement.sql), values)
                    .fetch_all(&mut *connection)
                    .await
                {
                    Ok(answered) => rows.extend(answered.into_iter().map(|row| Row::Sqlx(row.into()))),
                    Err(error) => {
                        roll_back(&mut connection).await;
                        return Err(Together::StatementFailed(exec_error(error)));
                    }
                }
            }
            if !stands(change.check.as_ref(), &rows) {
                roll_back(&mut connection).await;
                return Err(Together::NotStanding);
            }
            answers.push(rows);
        }
        commit(&mut connection).await.map_err(Together::Failed)?;
        Ok(answers)
    })
    .await
}

/// Runs `statements` one after another in `txn` (PostgreSQL's: one statement a message), and
/// answers every row they answer.
async fn rows_of(txn: &DatabaseTransaction, statements: Vec<Statement>) -> Result<Vec<Row>, DbErr> {
    let mut rows = Vec::new();
    for statement in statements {
        rows.extend(txn.query_all_raw(statement).await?.into_iter().map(Row::Sqlx));
    }
    Ok(rows)
}

/// `statements` as one SQLite command that begins a write transaction (`BEGIN IMMEDIATE; …`),
/// with their values in order (sqlx binds SQLite's `?` across statements).
fn one_command(statements: impl IntoIterator<Item = Statement>) -> (String, SqlxValues) {
    let mut sql = String::from("BEGIN IMMEDIATE");
    let mut values = Vec::new();
    for statement in statements {
        sql.push_str("; ");
        sql.push_str(&statement.sql);
        values.extend(statement.values.map(|values| values.0).unwrap_or_default());
    }
    (sql, SqlxValues(Values(values)))
}

/// Runs `write` with a pooled SQLite connection while holding this process's writer's turn
/// ([`begin_write`]), in a task of its own, so that a command, once taken from the pool, is always
/// seen to its end: a request dropped half-way (its client gone) would stop reading the command's
/// rows, and SQLite would leave the transaction open on a pooled connection. The connection goes
/// back to the pool before the turn goes to the next writer.
async fn as_sqlite_writer<T, E, F, W>(db: &DatabaseConnection, write: F) -> Result<T, E>
where
    T: Send + 'static,
    E: From<DbErr> + Send + 'static,
    F: FnOnce(sqlx::pool::PoolConnection<sqlx::Sqlite>) -> W + Send + 'static,
    W: Future<Output = Result<T, E>> + Send,
{
    let turn = writer_turn(db).await?;
    let pool = db.get_sqlite_connection_pool().clone();
    let task = tokio::spawn(async move {
        let _turn = turn;
        let connection = pool.acquire().await.map_err(|error| match error {
            sqlx::Error::PoolTimedOut => DbErr::ConnectionAcquire(ConnAcquireErr::Timeout),
            sqlx::Error::PoolClosed => DbErr::ConnectionAcquire(ConnAcquireErr::ConnectionClosed),
            error => connect_error(error),
        })?;
        write(connection).await
    });
    task.await.map_err(|error| DbErr::Custom(format!("a write to SQLite stopped: {error}")))?
}

/// A statement's error as sea-orm reports one.
fn exec_error(error: sqlx::Error) -> DbErr {
    DbErr::Exec(RuntimeErr::SqlxError(Arc::new(error)))
}

/// A connection's error, opening it or taking it, as sea-orm reports one.
fn connect_error(error: sqlx::Error) -> DbErr {
    DbErr::Conn(RuntimeErr::SqlxError(Arc::new(error)))
}

/// Commits the transaction a command began on `connection`; one whose `COMMIT` fails is rolled
/// back ([`roll_back`]).
async fn commit(connection: &mut sqlx::pool::PoolConnection<sqlx::Sqlite>) -> Result<(), DbErr> {
    if let Err(error) = sqlx::raw_sql(sqlx::AssertSqlSafe("COMMIT")).execute(&mut **connection).await {
        roll_back(connection).await;
        return Err(exec_error(error));
    }
    Ok(())
}

/// Ends the transaction a failed or refused command left open; a connection whose `ROLLBACK` fails
/// too (none was open, or SQLite ended it itself on a full disk) is closed rather than pooled,
/// since it cannot be told to be out of one.
async fn roll_back(connection: &mut sqlx::pool::PoolConnection<sqlx::Sqlite>) {
    if sqlx::raw_sql(sqlx::AssertSqlSafe("ROLLBACK")).execute(&mut **connection).await.is_err() {
        connection.close_on_drop();
    }
}

/// How much a write probe writes: a full disk with a few pages of slack left must still fail it.
const PROBE_BYTES: usize = 64 * 1024;

/// Writes one row of [`PROBE_BYTES`] and commits: whether the database takes writes now. Run at start, so that a
/// read-only file or server stops the start with the reason, and by `/healthz` after a request
/// met a full disk or a read-only database.
///
/// # Errors
///
/// The database's own error, which [`Outage::of`] classifies.
pub async fn probe_writes(db: &DatabaseConnection) -> Result<(), DbErr> {
    let (table, id) = (Alias::new("write_probes"), Alias::new("id"));
    let (written_at, room) = (Alias::new("written_at"), Alias::new("room"));
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    let mut bytes = vec![0_u8; PROBE_BYTES];
    rand::rng().fill_bytes(&mut bytes);
    let upsert = Query::insert()
        .into_table(table)
        .columns([id.clone(), written_at.clone(), room.clone()])
        .values_panic([1.into(), now.into(), bytes.into()])
        .on_conflict(OnConflict::column(id).update_columns([written_at, room]).to_owned())
        .to_owned();
    let txn = begin_write(db).await?;
    txn.execute_raw(db.get_database_backend().build(&upsert)).await?;
    txn.commit().await
}

/// Checks at start that the database takes writes, and says why not.
///
/// # Errors
///
/// When it does not.
pub async fn ensure_writable(db: &DatabaseConnection) -> anyhow::Result<()> {
    probe_writes(db).await.map_err(|error| match Outage::of(&error) {
        Some(Outage::ReadOnly) => anyhow::anyhow!(
            "the database cannot be written ({error}): check that the file, its folder and the file system \
             allow writing (and that DATABASE_URL has no `mode=ro`), or that the PostgreSQL server is not a \
             read-only replica"
        ),
        Some(Outage::Full) => anyhow::anyhow!("the database cannot be written: its disk is full ({error})"),
        _ => anyhow::anyhow!("the database cannot be written: {error}"),
    })
}

/// Opens a connection pool. SQLite gets WAL (readers never wait for the writer), foreign keys
/// enforced, a busy timeout instead of immediate "database is locked" errors, and its file and
/// folder created on first start.
pub async fn connect(args: &DatabaseArgs) -> anyhow::Result<DatabaseConnection> {
    let url = args.database_url.expose();
    match Engine::from_url(url)? {
        Engine::Sqlite => {
            let options = SqliteConnectOptions::from_str(url)
                .context("DATABASE_URL is not a valid SQLite URL")?
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                // NORMAL is safe with WAL: a power cut can lose the last commits, never corrupt.
                .synchronous(SqliteSynchronous::Normal)
                .foreign_keys(true)
                .busy_timeout(SQLITE_BUSY_TIMEOUT);
            if let Some(folder) = options.get_filename().parent()
                && !folder.as_os_str().is_empty()
            {
                std::fs::create_dir_all(folder)
                    .with_context(|| format!("creating the database folder {}", folder.display()))?;
            }
            let pool = SqlitePoolOptions::new()
                .max_connections(args.db_max_connections)
                .acquire_timeout(ACQUIRE_TIMEOUT)
                // A SQLite connection cannot die while idle in the pool (a file error shows on
                // the next statement), and sqlx checks each one as it comes back: a second
                // check as it goes out would be one more trip to its worker thread per query.
                .test_before_acquire(false)
                .after_release(|connection, _| Box::pin(reusable(connection)))
                .connect_with(options)
                .await
                .context("opening the SQLite database")?;
            Ok(SqlxSqliteConnector::from_sqlx_sqlite_pool(pool))
        }
        Engine::Postgres => {
            let options = PgConnectOptions::from_str(url)
                .context("DATABASE_URL is not a valid PostgreSQL URL")?
                .application_name("bobbin");
            // One connection first, for its error: the pool would only say "timed out".
            let first = sqlx::PgConnection::connect_with(&options)
                .await
                .map_err(|error| anyhow::anyhow!(why_postgres_is_unreachable(&options, &error)))?;
            first.close().await.ok();
            let pool = PgPoolOptions::new()
                .max_connections(args.db_max_connections)
                .acquire_timeout(ACQUIRE_TIMEOUT)
                // sqlx pings every connection as it comes back, and by default again as it goes
                // out: two more round trips to PostgreSQL around each query. A connection back
                // for less than `CHECKED_AFTER_IDLE` was just found working and goes out as it is;
                // one idle longer (PostgreSQL restarted meanwhile, say) is checked first.
                .test_before_acquire(false)
                .before_acquire(|connection, meta| {
                    Box::pin(async move {
                        if meta.idle_for >= CHECKED_AFTER_IDLE {
                            connection.ping().await?;
                        }
                        Ok(true)
                    })
                })
                .after_release(|connection, _| Box::pin(reusable(connection)))
                .connect_with(options)
                .await
                .context("connecting to PostgreSQL")?;
            pipelined::open(pool.connect_options(), url).await;
            Ok(SqlxPostgresConnector::from_sqlx_postgres_pool(pool))
        }
    }
}

/// Where the sign-in checks, which every request makes before its handler runs, read (with what
/// the handler needs of the person in the same query: their teams, their role in one).
///
/// On a SQLite file, on the request's own thread ([`sqlite_reads`]): sqlx would hand each read to
/// a connection's thread and back. Each read sees every commit made before it, by any connection,
/// process or server (an ended session is refused at once). A read that cannot be made there at
/// once goes through the pool, as does every read of an in-memory database (which the pool's
/// connections share among themselves alone).
///
/// On PostgreSQL, connections of their own beside the pool. sqlx's pool pings every connection it
/// takes back, to see it can be used again: a second round trip to the database, which costs its
/// server about as much as the query itself (README, "API speed"). A connection here only ever
/// runs one read at a time, in autocommit: each read sees every commit made before it, and there
/// is no transaction to roll back. So a connection here is checked only when a check can find
/// something:
///
/// - one idle for [`CHECKED_AFTER_IDLE`] is pinged before its next read (PostgreSQL may have
///   restarted meanwhile);
/// - one whose read failed is closed, and the next read opens another;
/// - one whose read was dropped half-way (its client gone, as every load's last requests are) is
///   pinged in a task of its own, which waits for the rest of the dropped read's answer, before it
///   goes back to the list. Until then it keeps its turn, so that the next reads neither wait for
///   that answer nor open a connection in the middle of a load.
///
/// Written here because it is this small, turns and a list of free connections, with no
/// dependency.
#[derive(Debug)]
pub struct SignInReads {
    connections: Connections,
    /// A turn for each PostgreSQL connection.
    turns: Arc<Semaphore>,
    /// Reads of a SQLite file that went through the pool, for the tests.
    through_pool: AtomicU64,
}

#[derive(Debug)]
enum Connections {
    /// SQLite: reads on the caller's thread (`None` for an in-memory database), else the pool.
    Sqlite { here: Option<SqliteReads>, pool: DatabaseConnection },
    /// PostgreSQL's own connections, opened with the pool's options.
    Postgres(Arc<Kept<sqlx::PgConnection>>),
}

/// Connections of one engine: how to open one, and those not in use, opened as needed (up to
/// [`SignInReads::CONNECTIONS`]) with when each was last used.
struct Kept<C: sqlx::Connection> {
    options: Arc<C::Options>,
    free: Mutex<Vec<(C, Instant)>>,
}

impl<C: sqlx::Connection> std::fmt::Debug for Kept<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kept").finish_non_exhaustive()
    }
}

impl SignInReads {
    /// Enough for two cores: a read holds its connection for a round trip to PostgreSQL. Each
    /// server holds these beside its pool.
    const CONNECTIONS: u32 = 4;

    /// Reads of `db`'s database, whose columns (on SQLite, where values carry no Rust type) have
    /// the types `column_types` says. On PostgreSQL the connections are opened now, together:
    /// opened as the first reads came, each would hold its turn for the time PostgreSQL takes to
    /// start a process for it, while the reads behind queued for the others (about a tenth of a
    /// second on two busy cores, in the benchmark). On SQLite each opens with the first read that
    /// needs it, in well under a millisecond.
    ///
    /// # Errors
    ///
    /// PostgreSQL's, when a connection cannot be opened.
    pub async fn open(db: &DatabaseConnection, column_types: ColumnTypes) -> Result<Self, DbErr> {
        let connections = if db.get_database_backend() == DbBackend::Sqlite {
            let file = sqlite_file(db).await?;
            let here = file.map(|file| SqliteReads::new(&file, column_types));
            Connections::Sqlite { here, pool: db.clone() }
        } else {
            let kept = Kept::new(db.get_postgres_connection_pool().connect_options());
            kept.open(Self::CONNECTIONS).await?;
            Connections::Postgres(kept)
        };
        Ok(Self {
            connections,
            turns: Arc::new(Semaphore::new(Self::CONNECTIONS as usize)),
            through_pool: AtomicU64::new(0),
        })
    }

    /// The database the reads go to, for the queries' SQL.
    pub fn backend(&self) -> DbBackend {
        match self.connections {
            Connections::Sqlite { .. } => DbBackend::Sqlite,
            Connections::Postgres(_) => DbBackend::Postgres,
        }
    }

    /// The rows of `statement`, a read of a few rows by key.
    ///
    /// # Errors
    ///
    /// The database's; [`Outage::Busy`] when no connection came free or opened in time, and
    /// [`Outage::Unavailable`] once the server has closed them.
    pub async fn all(&self, statement: Statement) -> Result<Vec<Row>, DbErr> {
        let rows = match &self.connections {
            Connections::Sqlite { .. } if self.turns.is_closed() => {
                return Err(DbErr::ConnectionAcquire(ConnAcquireErr::ConnectionClosed));
            }
            Connections::Sqlite { here, pool } => {
                if let Some(here) = here {
                    match here.all(&statement) {
                        Ok(rows) => return Ok(rows.into_iter().map(Row::Typed).collect()),
                        Err(NotHere(why)) => tracing::debug!(why, "a sign-in read goes through the pool"),
                    }
                }
                self.through_pool.fetch_add(1, Ordering::Relaxed);
                pool.query_all_raw(statement).await?
            }
            Connections::Postgres(kept) => self.on_postgres(kept, statement).await?,
        };
        Ok(rows.into_iter().map(Row::Sqlx).collect())
    }

    /// Reads of a SQLite database that went through the pool.
    pub fn read_through_pool(&self) -> u64 {
        self.through_pool.load(Ordering::Relaxed)
    }

    async fn on_postgres(
        &self,
        kept: &Arc<Kept<sqlx::PgConnection>>,
        statement: Statement,
    ) -> Result<Vec<QueryResult>, DbErr> {
        // The turn, an idle connection's ping and a new connection's opening are timed together,
        // as the pool's acquiring is: a PostgreSQL gone silent answers 503, not a request that
        // hangs.
        let deadline = tokio::time::Instant::now() + ACQUIRE_TIMEOUT;
        let timed_out = |_elapsed| DbErr::ConnectionAcquire(ConnAcquireErr::Timeout);
        let turn = tokio::time::timeout_at(deadline, Arc::clone(&self.turns).acquire_owned())
            .await
            .map_err(timed_out)?
            .map_err(|_closed| DbErr::ConnectionAcquire(ConnAcquireErr::ConnectionClosed))?;
        let values = SqlxValues(statement.values.unwrap_or(Values(Vec::new())));
        let sql = sqlx::AssertSqlSafe(statement.sql);
        let taking = Taken::new(kept, turn, Some(CHECKED_AFTER_IDLE));
        let mut taken = tokio::time::timeout_at(deadline, taking).await.map_err(timed_out)??;
        let rows = sqlx::query_with(sql, values).fetch_all(taken.connection()).await;
        Ok(taken.done(rows)?.into_iter().map(QueryResult::from).collect())
    }

    /// The first row of `statement`, a read.
    ///
    /// # Errors
    ///
    /// As [`Self::all`].
    pub async fn one(&self, statement: Statement) -> Result<Option<Row>, DbErr> {
        Ok(self.all(statement).await?.into_iter().next())
    }

    /// Closes the connections as the server stops: on PostgreSQL once the reads in progress are
    /// done; on SQLite at once, and a read still running closes its own when done (there, the
    /// last connection to close folds the write-ahead log back into the database file). Reads
    /// after it fail as [`Outage::Unavailable`].
    pub async fn close(&self) {
        let Ok(_all) = self.turns.acquire_many(Self::CONNECTIONS).await else {
            return;
        };
        self.turns.close();
        match &self.connections {
            Connections::Sqlite { here, .. } => {
                if let Some(here) = here {
                    here.close();
                }
            }
            Connections::Postgres(kept) => kept.close().await,
        }
    }
}

/// A row read or written: sqlx's, or one of typed values ([`SignInReads`]' read on the request's
/// thread, or one a change answered through [`pipelined`]).
#[derive(Debug)]
pub enum Row {
    Sqlx(QueryResult),
    Typed(TypedRow),
}

impl Row {
    /// The value of the column `name`.
    ///
    /// # Errors
    ///
    /// When the row has no such column, or it is not a `T`.
    pub fn get<T: TryGetable + ValueType>(&self, name: &str) -> Result<T, DbErr> {
        match self {
            Self::Sqlx(row) => row.try_get("", name),
            Self::Typed(row) => row.get(name),
        }
    }

    /// The value of the column at `index`.
    ///
    /// # Errors
    ///
    /// As [`Self::get`].
    pub fn get_by_index<T: TryGetable + ValueType>(&self, index: usize) -> Result<T, DbErr> {
        match self {
            Self::Sqlx(row) => row.try_get_by_index(index),
            Self::Typed(row) => row.get_by_index(index),
        }
    }

    /// The model of `E` whose columns the row holds, each named `prefix` and the column's name.
    ///
    /// # Errors
    ///
    /// When a column is missing or not of its type.
    pub fn model<E>(&self, prefix: &str) -> Result<E::Model, DbErr>
    where
        E: EntityTrait,
        E::ActiveModel: TryIntoModel<E::Model>,
    {
        match self {
            Self::Sqlx(row) => E::Model::from_query_result(row, prefix),
            Self::Typed(row) => row.model::<E>(prefix),
        }
    }
}

/// The file of `db`'s SQLite database as SQLite itself names it, `None` for an in-memory one
/// (by name, or by `?mode=memory`): what [`SqliteReads`] opens, so that it reads the very file
/// the pool does. (A database opened through another VFS than the default would be read through
/// the default one there; `DATABASE_URL` names none in Bobbin's documentation.)
async fn sqlite_file(db: &DatabaseConnection) -> Result<Option<PathBuf>, DbErr> {
    let main = db
        .query_one_raw(Statement::from_string(
            DbBackend::Sqlite,
            "SELECT file FROM pragma_database_list WHERE name = 'main'",
        ))
        .await?;
    let file: Option<String> = main.map(|row| row.try_get("", "file")).transpose()?;
    Ok(file.filter(|file| !file.is_empty()).map(PathBuf::from))
}

impl<C: sqlx::Connection> Kept<C> {
    fn new(options: Arc<C::Options>) -> Arc<Self> {
        Arc::new(Self { options, free: Mutex::new(Vec::new()) })
    }

    fn free(&self) -> std::sync::MutexGuard<'_, Vec<(C, Instant)>> {
        self.free.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Opens `count` connections at once, onto the free list.
    async fn open(&self, count: u32) -> Result<(), DbErr>
    where
        C: 'static,
    {
        let mut opening = tokio::task::JoinSet::new();
        for _ in 0..count {
            let options = Arc::clone(&self.options);
            opening.spawn(async move { C::connect_with(&options).await });
        }
        while let Some(opened) = opening.join_next().await {
            let connection =
                opened.map_err(|error| DbErr::Custom(error.to_string()))?.map_err(connect_error)?;
            self.free().push((connection, Instant::now()));
        }
        Ok(())
    }

    async fn close(&self) {
        let free = std::mem::take(&mut *self.free());
        for (connection, _) in free {
            if let Err(error) = connection.close().await {
                tracing::warn!(%error, "closing a database connection");
            }
        }
    }
}

/// A connection of [`SignInReads`] taken for one read, with its turn.
struct Taken<C: sqlx::Connection + 'static> {
    kept: Arc<Kept<C>>,
    /// `None` once the read is done with it.
    connection: Option<C>,
    turn: Option<OwnedSemaphorePermit>,
}

impl<C: sqlx::Connection + 'static> Taken<C> {
    /// A free connection, pinged first if it has been idle for `checked_after`; or a new one. A
    /// connection whose ping is dropped half-way (the read's client gone, or its time up) is
    /// closed; that can only happen after a second unused.
    async fn new(
        kept: &Arc<Kept<C>>,
        turn: OwnedSemaphorePermit,
        checked_after: Option<Duration>,
    ) -> Result<Self, DbErr> {
        // The free list's lock is not held across an await.
        let free = kept.free().pop();
        let connection = match free {
            Some((connection, last_used))
                if checked_after.is_none_or(|after| last_used.elapsed() < after) =>
            {
                Some(connection)
            }
            Some((mut connection, _)) => connection.ping().await.is_ok().then_some(connection),
            None => None,
        };
        let connection = match connection {
            Some(connection) => connection,
            None => C::connect_with(&kept.options).await.map_err(connect_error)?,
        };
        Ok(Self { kept: Arc::clone(kept), connection: Some(connection), turn: Some(turn) })
    }

    fn connection(&mut self) -> &mut C {
        self.connection.as_mut().expect("a connection until the read is done")
    }

    /// `rows`, after giving the connection back to the free list if its read succeeded; else it
    /// is closed.
    fn done<T>(mut self, rows: Result<T, sqlx::Error>) -> Result<T, DbErr> {
        let connection = self.connection.take();
        match rows {
            Ok(rows) => {
                if let Some(connection) = connection {
                    self.kept.free().push((connection, Instant::now()));
                }
                Ok(rows)
            }
            Err(error) => Err(DbErr::Query(RuntimeErr::SqlxError(Arc::new(error)))),
        }
    }
}

impl<C: sqlx::Connection + 'static> Drop for Taken<C> {
    /// A read dropped half-way: its connection goes back once the rest of the answer is read (a
    /// ping waits for it), keeping its turn meanwhile; without a runtime (the server stopping) it
    /// is closed.
    fn drop(&mut self) {
        let Some(mut connection) = self.connection.take() else {
            return;
        };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let kept = Arc::clone(&self.kept);
        let turn = self.turn.take();
        runtime.spawn(async move {
            // A database gone silent does not keep the turn for longer than a request waits for one.
            if let Ok(Ok(())) = tokio::time::timeout(ACQUIRE_TIMEOUT, connection.ping()).await {
                kept.free().push((connection, Instant::now()));
            }
            drop(turn);
        });
    }
}

/// Whether a connection goes back to the pool after use. One still inside a transaction does
/// not: that happens when the database ended the transaction itself (SQLite rolls back on
/// "disk full"), so the `ROLLBACK` sent for it failed and the driver lost count. Reused, such a
/// connection would open its next transaction as a savepoint inside a phantom one, answer "saved"
/// for writes never committed, and hold the write lock until the process ended.
///
/// On SQLite a rollback still queued counts as a transaction until its worker has run it, so a
/// connection outside any transaction is reusable at once (sqlx pings every connection as it
/// comes back anyway). On PostgreSQL the count drops as the rollback is queued, which the next
/// statement sends first; the database ends such transactions itself, so the count stays true.
async fn reusable<C: sqlx::Connection>(connection: &mut C) -> Result<bool, sqlx::Error> {
    if !connection.is_in_transaction() {
        return Ok(true);
    }
    // The ping goes after any rollback still queued for the connection.
    connection.ping().await?;
    Ok(!connection.is_in_transaction())
}

/// What an operator needs to know when PostgreSQL cannot be reached at start.
fn why_postgres_is_unreachable(options: &PgConnectOptions, error: &sqlx::Error) -> String {
    let place = format!("PostgreSQL at {}:{}", options.get_host(), options.get_port());
    let user = options.get_username();
    match error {
        sqlx::Error::Io(io) if io.kind() == std::io::ErrorKind::ConnectionRefused => {
            format!("{place} refused the connection: is it running, and listening on that address?")
        }
        sqlx::Error::Io(io) if io.kind() == std::io::ErrorKind::TimedOut => {
            format!("{place} did not answer in time: check the host, the port and any firewall")
        }
        sqlx::Error::Io(io) if is_unknown_host(io) => {
            format!(
                "the host of DATABASE_URL ({}) is unknown: check its spelling and the DNS ({io})",
                options.get_host()
            )
        }
        sqlx::Error::Database(database) => match database.code().as_deref() {
            Some("28P01" | "28000") => {
                format!("{place} refused user `{user}`: authentication failed ({})", database.message())
            }
            Some("3D000") => {
                format!("{place}: {} (create it, or fix the name in DATABASE_URL)", database.message())
            }
            _ => format!("{place} refused the connection: {}", database.message()),
        },
        error => format!("cannot connect to {place}: {error}"),
    }
}

/// A failed name lookup: the standard library has no error kind of its own for it.
fn is_unknown_host(error: &std::io::Error) -> bool {
    let text = error.to_string();
    text.contains("failed to lookup address") || text.contains("Name or service not known")
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use sea_orm::{ConnectionTrait as _, DatabaseConnection, DbBackend, DbErr, Statement};

    use super::{Engine, Outage};

    #[test]
    fn storage_and_connection_failures_are_outages_and_bugs_are_not() {
        use sea_orm::ConnAcquireErr;
        assert_eq!(Outage::of_sqlite_code(13), Some(Outage::Full));
        // SQLITE_BUSY_SNAPSHOT and SQLITE_READONLY_DBMOVED: extended codes of the same primaries.
        assert_eq!(Outage::of_sqlite_code(5 | (2 << 8)), Some(Outage::Busy));
        assert_eq!(Outage::of_sqlite_code(8 | (4 << 8)), Some(Outage::ReadOnly));
        assert_eq!(Outage::of_sqlite_code(2067), None, "a unique constraint is the caller's doing");
        assert_eq!(Outage::of_sqlstate("53100"), Some(Outage::Full));
        assert_eq!(Outage::of_sqlstate("57P01"), Some(Outage::Unavailable));
        assert_eq!(Outage::of_sqlstate("08006"), Some(Outage::Unavailable));
        assert_eq!(Outage::of_sqlstate("25006"), Some(Outage::ReadOnly));
        assert_eq!(Outage::of_sqlstate("40P01"), Some(Outage::Busy));
        assert_eq!(Outage::of_sqlstate("23505"), None);
        assert_eq!(Outage::of(&DbErr::ConnectionAcquire(ConnAcquireErr::Timeout)), Some(Outage::Busy));
        assert_eq!(Outage::of(&DbErr::RecordNotFound("a quote".to_owned())), None);
    }

    /// SQLite's busy handler let writers in whatever order their sleeps ended; here, each in turn.
    #[tokio::test]
    async fn writers_to_one_sqlite_file_take_turns_in_the_order_they_came() {
        let folder = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", folder.path().join("turns.db").display());
        let args = crate::config::DatabaseArgs { database_url: url.as_str().into(), db_max_connections: 24 };
        let db = super::connect(&args).await.unwrap();
        db.execute_unprepared("CREATE TABLE turns (writer INTEGER NOT NULL)").await.unwrap();

        let holder = super::begin_write(&db).await.unwrap();
        let mut writers = Vec::new();
        for writer in 0..16 {
            let db = db.clone();
            writers.push(tokio::spawn(async move {
                let txn = super::begin_write(&db).await.unwrap();
                txn.execute_unprepared(&format!("INSERT INTO turns VALUES ({writer})")).await.unwrap();
                txn.commit().await.unwrap();
            }));
            // The test's runtime has one thread: the writer asks for its turn during this sleep.
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        holder.commit().await.unwrap();
        for writer in writers {
            writer.await.unwrap();
        }

        let rows = db
            .query_all_raw(Statement::from_string(
                DbBackend::Sqlite,
                "SELECT writer FROM turns ORDER BY rowid",
            ))
            .await
            .unwrap();
        let order: Vec<i64> = rows.iter().map(|row| row.try_get("", "writer").unwrap()).collect();
        assert_eq!(order, (0..16).collect::<Vec<i64>>());
    }

    /// A file database with `counters` (id 1 to 3 at 0, at most 40 each), and the changes
    /// [`super::committed_together`] writes, each answering its counter's new value.
    async fn counters() -> (tempfile::TempDir, DatabaseConnection) {
        let folder = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", folder.path().join("counters.db").display());
        let args = crate::config::DatabaseArgs { database_url: url.as_str().into(), db_max_connections: 4 };
        let db = super::connect(&args).await.unwrap();
        db.execute_unprepared(
            "CREATE TABLE counters (id INTEGER PRIMARY KEY, n INTEGER NOT NULL CHECK (n <= 40));
             INSERT INTO counters VALUES (1, 0), (2, 0), (3, 0)",
        )
        .await
        .unwrap();
        (folder, db)
    }

    /// Sends `sql`, a change of one counter, while the writer's turn is held elsewhere (so that it
    /// waits with the others sent meanwhile); its answer, once the turn comes.
    fn change(db: &DatabaseConnection, sql: &str) -> tokio::task::JoinHandle<Result<Vec<i64>, DbErr>> {
        let (db, statement) = (db.clone(), Statement::from_string(DbBackend::Sqlite, sql));
        tokio::spawn(async move {
            let change = super::Change { statements: vec![statement], check: None };
            let written = super::committed_together(&db, String::new(), change).await?;
            Ok(written.rows.iter().map(|row| row.get_by_index::<i64>(0).unwrap()).collect())
        })
    }

    /// Sends `sql`, a change of the counters whose first row's first column is a count, with a
    /// check that lets it stand only up to `most` ([`super::written_if`]); answers that count.
    fn checked(db: &DatabaseConnection, sql: &str, most: i64) -> tokio::task::JoinHandle<Result<i64, DbErr>> {
        let (db, statement) = (db.clone(), Statement::from_string(DbBackend::Sqlite, sql));
        tokio::spawn(async move {
            super::written_if(&db, Some("counters"), vec![statement], move |rows| {
                let count: i64 = rows[0].get_by_index(0)?;
                if count > most { Err(DbErr::Custom(format!("{count} is over {most}"))) } else { Ok(count) }
            })
            .await
        })
    }

    /// The counters' values, in order.
    async fn counts(db: &DatabaseConnection) -> Vec<i64> {
        let statement = Statement::from_string(DbBackend::Sqlite, "SELECT n FROM counters ORDER BY id");
        let rows = db.query_all_raw(statement).await.unwrap();
        rows.iter().map(|row| row.try_get_by_index(0).unwrap()).collect()
    }

    /// The frames SQLite's write-ahead log holds: a transaction adds one for each page it changed.
    async fn log_frames(db: &DatabaseConnection) -> i64 {
        let statement = Statement::from_string(DbBackend::Sqlite, "PRAGMA wal_checkpoint(PASSIVE)");
        db.query_one_raw(statement).await.unwrap().unwrap().try_get_by_index::<i64>(1).unwrap()
    }

    /// 33 changes of one row sent while the writer was busy: the first is written alone, then
    /// 32 in one transaction (the log holds the row's page twice, not 33 times), each answered
    /// with what it wrote, as if they had been written one by one.
    #[tokio::test]
    async fn changes_that_come_while_one_is_written_are_committed_together() {
        let (answers, frames) = thirty_three_while_busy(|db| {
            let answered = change(db, "UPDATE counters SET n = n + 1 WHERE id = 1 RETURNING n");
            tokio::spawn(async move { answered.await.unwrap().unwrap()[0] })
        })
        .await;
        assert_eq!(answers, (1..=33).collect::<Vec<i64>>(), "each change answered with its own count");
        assert_eq!(frames, 2, "two transactions: the first change, then the other 32");
    }

    /// Sends 33 changes (`send`: each answers the count it wrote) while the writer is busy, on
    /// counters whose log is empty; answers their counts, in order, and the frames the log then
    /// holds ([`log_frames`]).
    async fn thirty_three_while_busy(
        send: impl Fn(&DatabaseConnection) -> tokio::task::JoinHandle<i64>,
    ) -> (Vec<i64>, i64) {
        let (_folder, db) = counters().await;
        db.execute_unprepared("PRAGMA wal_checkpoint(TRUNCATE)").await.unwrap();
        assert_eq!(log_frames(&db).await, 0);
        let busy = super::begin_write(&db).await.unwrap();
        let waiting: Vec<_> = (0..33).map(|_| send(&db)).collect();
        tokio::time::sleep(Duration::from_millis(100)).await;
        busy.commit().await.unwrap();
        let mut answers = Vec::new();
        for answer in waiting {
            answers.push(answer.await.unwrap());
        }
        answers.sort_unstable();
        (answers, log_frames(&db).await)
    }

    /// A change that fails among others written together (here it breaks the table's rule) gets
    /// its own error; the others are kept and answered, and nothing of the failed one is.
    #[tokio::test]
    async fn a_change_that_fails_among_others_fails_alone() {
        let (_folder, db) = counters().await;
        let busy = super::begin_write(&db).await.unwrap();
        let first = change(&db, "UPDATE counters SET n = n + 1 WHERE id = 1 RETURNING n");
        tokio::time::sleep(Duration::from_millis(20)).await;
        let kept = change(&db, "UPDATE counters SET n = n + 2 WHERE id = 1 RETURNING n");
        let broken = change(&db, "UPDATE counters SET n = 100 WHERE id = 2 RETURNING n");
        let after = change(&db, "UPDATE counters SET n = n + 5 WHERE id = 3 RETURNING n");
        tokio::time::sleep(Duration::from_millis(50)).await;
        busy.commit().await.unwrap();

        assert_eq!(first.await.unwrap().unwrap(), [1]);
        assert_eq!(kept.await.unwrap().unwrap(), [3]);
        let error = broken.await.unwrap().unwrap_err();
        assert!(error.to_string().contains("CHECK constraint failed"), "{error}");
        assert_eq!(Outage::of(&error), None);
        assert_eq!(after.await.unwrap().unwrap(), [5]);
        assert_eq!(counts(&db).await, [3, 0, 5]);
    }

    /// A change whose request is gone (its client left, or it timed out) while it waited for the
    /// writer is not written, as one still waiting for its turn was not; the others are.
    #[tokio::test]
    async fn a_change_whose_request_is_gone_before_its_turn_is_not_written() {
        let (_folder, db) = counters().await;
        let busy = super::begin_write(&db).await.unwrap();
        let first = change(&db, "UPDATE counters SET n = n + 1 WHERE id = 1 RETURNING n");
        tokio::time::sleep(Duration::from_millis(20)).await;
        let statement = Statement::from_string(
            DbBackend::Sqlite,
            "UPDATE counters SET n = n + 1 WHERE id = 2 RETURNING n",
        );
        let alone = super::Change { statements: vec![statement], check: None };
        let gone = tokio::time::timeout(
            Duration::from_millis(20),
            super::committed_together(&db, String::new(), alone),
        )
        .await;
        assert!(gone.is_err(), "the change was still waiting");
        let kept = change(&db, "UPDATE counters SET n = n + 1 WHERE id = 3 RETURNING n");
        tokio::time::sleep(Duration::from_millis(20)).await;
        busy.commit().await.unwrap();

        assert_eq!(first.await.unwrap().unwrap(), [1]);
        assert_eq!(kept.await.unwrap().unwrap(), [1]);
        assert_eq!(counts(&db).await, [1, 0, 1]);
    }

    /// Changes whose rows decide whether they stand (`written_if`: a settings change) that come
    /// while the writer is busy go together too: 33 take two transactions, each answered with
    /// its own count.
    #[tokio::test]
    async fn checked_changes_that_come_while_one_is_written_are_committed_together() {
        let (answers, frames) = thirty_three_while_busy(|db| {
            let answered = checked(db, "UPDATE counters SET n = n + 1 WHERE id = 1 RETURNING n", 40);
            tokio::spawn(async move { answered.await.unwrap().unwrap() })
        })
        .await;
        assert_eq!(answers, (1..=33).collect::<Vec<i64>>());
        assert_eq!(frames, 2, "two transactions: the first change, then the other 32");
    }

    /// A change whose rows do not let it stand, among others written together, is refused alone:
    /// nothing of it is kept, and the others are, each once.
    #[tokio::test]
    async fn a_change_that_does_not_stand_among_others_is_refused_alone() {
        let (_folder, db) = counters().await;
        let busy = super::begin_write(&db).await.unwrap();
        let first = change(&db, "UPDATE counters SET n = n + 1 WHERE id = 1 RETURNING n");
        tokio::time::sleep(Duration::from_millis(20)).await;
        let kept = checked(&db, "UPDATE counters SET n = n + 1 WHERE id = 2 RETURNING n", 10);
        tokio::time::sleep(Duration::from_millis(20)).await;
        let refused = checked(&db, "UPDATE counters SET n = n + 7 WHERE id = 3 RETURNING n", 5);
        tokio::time::sleep(Duration::from_millis(20)).await;
        let after = change(&db, "UPDATE counters SET n = n + 1 WHERE id = 2 RETURNING n");
        tokio::time::sleep(Duration::from_millis(50)).await;
        busy.commit().await.unwrap();

        assert_eq!(first.await.unwrap().unwrap(), [1]);
        assert_eq!(kept.await.unwrap().unwrap(), 1);
        assert_eq!(refused.await.unwrap().unwrap_err().to_string(), "Custom Error: 7 is over 5");
        assert_eq!(after.await.unwrap().unwrap(), [2]);
        assert_eq!(counts(&db).await, [1, 2, 0]);
    }

    /// A check that panics (a bug) keeps nothing of its change, alone or among others, and leaves
    /// no transaction open: the next writer gets its turn at once.
    #[tokio::test]
    async fn a_check_that_panics_keeps_nothing() {
        let (_folder, db) = counters().await;
        let panicking = |db: &DatabaseConnection| {
            let (db, statement) = (
                db.clone(),
                Statement::from_string(
                    DbBackend::Sqlite,
                    "UPDATE counters SET n = n + 1 WHERE id = 1 RETURNING n",
                ),
            );
            tokio::spawn(async move {
                super::written_if(&db, Some("counters"), vec![statement], |_rows| -> Result<i64, DbErr> {
                    panic!("a bug")
                })
                .await
            })
        };
        assert!(panicking(&db).await.unwrap_err().is_panic(), "alone");
        let busy = super::begin_write(&db).await.unwrap();
        let first = change(&db, "UPDATE counters SET n = n + 1 WHERE id = 2 RETURNING n");
        tokio::time::sleep(Duration::from_millis(20)).await;
        let among = panicking(&db);
        tokio::time::sleep(Duration::from_millis(20)).await;
        let other = change(&db, "UPDATE counters SET n = n + 1 WHERE id = 3 RETURNING n");
        tokio::time::sleep(Duration::from_millis(20)).await;
        busy.commit().await.unwrap();

        assert!(among.await.unwrap_err().is_panic(), "among others");
        assert_eq!((first.await.unwrap().unwrap(), other.await.unwrap().unwrap()), (vec![1], vec![1]));
        assert_eq!(counts(&db).await, [0, 1, 1]);
        let next = tokio::time::timeout(Duration::from_secs(1), super::begin_write(&db)).await;
        next.expect("the write lock is free").unwrap().commit().await.unwrap();
    }

    /// A check that refuses a change in the transaction and lets it stand when asked again (a bug:
    /// it must answer from the rows alone) does not get the change answered as kept.
    #[tokio::test]
    async fn a_check_that_answers_otherwise_when_asked_again_is_not_answered_as_kept() {
        let (_folder, db) = counters().await;
        let asked = std::sync::atomic::AtomicBool::new(false);
        let statement = Statement::from_string(
            DbBackend::Sqlite,
            "UPDATE counters SET n = n + 1 WHERE id = 1 RETURNING n",
        );
        let answer = super::written_if(&db, Some("counters"), vec![statement], move |_rows| {
            if asked.swap(true, std::sync::atomic::Ordering::Relaxed) {
                Ok(())
            } else {
                Err(DbErr::Custom("no".into()))
            }
        })
        .await;
        assert!(answer.is_err(), "{answer:?}");
        assert_eq!(counts(&db).await, [0, 0, 0]);
    }

    /// The sign-in checks' reads of a SQLite file are made on the caller's thread, see its
    /// commits at once (an ended session is refused on the next request), and once closed
    /// before the pool they leave no write-ahead log behind. What cannot be read there (a time
    /// not in the form sqlx writes, a column of no known type), and an in-memory database's
    /// reads, go through the pool, with the same answer.
    #[tokio::test]
    async fn the_sign_in_reads_see_every_commit_at_once_and_close_with_the_pool() {
        fn column_types(name: &str) -> Option<sea_orm::ColumnType> {
            match name {
                "n" => Some(sea_orm::ColumnType::BigInteger),
                "at" => Some(sea_orm::ColumnType::TimestampWithTimeZone),
                _ => None,
            }
        }
        async fn count(reads: &super::SignInReads) -> i64 {
            let statement = Statement::from_string(DbBackend::Sqlite, "SELECT COUNT(*) AS n FROM sessions");
            reads.one(statement).await.unwrap().unwrap().get("n").unwrap()
        }
        async fn at(reads: &super::SignInReads) -> time::OffsetDateTime {
            let statement = Statement::from_string(DbBackend::Sqlite, "SELECT at FROM times");
            reads.one(statement).await.unwrap().unwrap().get("at").unwrap()
        }
        let args =
            |url: &str| crate::config::DatabaseArgs { database_url: url.into(), db_max_connections: 4 };

        // In memory by its name, and by its mode under the name of a database file that exists
        // (not that file).
        let folder = tempfile::tempdir().unwrap();
        let named = folder.path().join("named.db");
        let file = super::connect(&args(&format!("sqlite://{}", named.display()))).await.unwrap();
        file.execute_unprepared("CREATE TABLE sessions (id INTEGER)").await.unwrap();
        file.close().await.unwrap();
        for url in ["sqlite::memory:".to_owned(), format!("sqlite://{}?mode=memory", named.display())] {
            let memory = super::connect(&args(&url)).await.unwrap();
            memory
                .execute_unprepared("CREATE TABLE sessions (id INTEGER); INSERT INTO sessions VALUES (1)")
                .await
                .unwrap();
            let in_memory = super::SignInReads::open(&memory, column_types).await.unwrap();
            assert_eq!(count(&in_memory).await, 1, "the pool's in-memory database, {url}");
            assert_eq!(in_memory.read_through_pool(), 1);
        }

        let url = format!("sqlite://{}", folder.path().join("reads.db").display());
        let db = super::connect(&args(&url)).await.unwrap();
        let reads = super::SignInReads::open(&db, column_types).await.unwrap();
        db.execute_unprepared("CREATE TABLE sessions (id INTEGER); INSERT INTO sessions VALUES (1)")
            .await
            .unwrap();
        assert_eq!(count(&reads).await, 1);
        db.execute_unprepared("DELETE FROM sessions").await.unwrap();
        assert_eq!(count(&reads).await, 0, "ended at once");
        assert_eq!(reads.read_through_pool(), 0, "read on this thread");

        let written = time::macros::datetime!(2026-11-28 10:00:00.5 UTC);
        db.execute_unprepared(
            "CREATE TABLE times (at TEXT); INSERT INTO times VALUES ('2026-11-28T10:00:00.5Z')",
        )
        .await
        .unwrap();
        assert_eq!(at(&reads).await, written);
        assert_eq!(reads.read_through_pool(), 0, "a time as sqlx writes it is read here");
        db.execute_unprepared("UPDATE times SET at = '2026-11-28 10:00:00.5'").await.unwrap();
        assert_eq!(at(&reads).await, written, "sqlx reads a time without an offset as UTC");
        assert_eq!(reads.read_through_pool(), 1);
        let unknown = Statement::from_string(DbBackend::Sqlite, "SELECT 7 AS unknown");
        let seven: i64 = reads.one(unknown).await.unwrap().unwrap().get("unknown").unwrap();
        assert_eq!((seven, reads.read_through_pool()), (7, 2), "a column of no known type");

        reads.close().await;
        let closed = reads.one(Statement::from_string(DbBackend::Sqlite, "SELECT 1")).await.unwrap_err();
        assert_eq!(Outage::of(&closed), Some(Outage::Unavailable), "{closed}");
        db.close().await.unwrap();
        assert!(folder.path().join("reads.db").exists());
        assert!(!folder.path().join("reads.db-wal").exists(), "the log is folded into the database");
    }

    #[test]
    fn the_url_scheme_picks_the_engine() {
        assert_eq!(Engine::from_url("sqlite://data/bobbin.db").unwrap(), Engine::Sqlite);
        assert_eq!(Engine::from_url("sqlite::memory:").unwrap(), Engine::Sqlite);
        assert_eq!(Engine::from_url("postgres://u@h/db").unwrap(), Engine::Postgres);
        assert_eq!(Engine::from_url("postgresql://u@h/db").unwrap(), Engine::Postgres);
    }

    #[test]
    fn an_unknown_scheme_is_refused_without_echoing_the_password() {
        let error = Engine::from_url("mysql://root:hunter2@db/bobbin").unwrap_err().to_string();
        assert!(error.contains("`mysql:`"), "{error}");
        assert!(!error.contains("hunter2"), "{error}");
    }
}

/// The storage outage a request last met (a full disk, a read-only database), until the health
/// check sees writes succeed again. Only `/healthz` reads it.
#[derive(Debug, Clone, Default)]
pub struct StorageWatch(Arc<Mutex<Option<Outage>>>);

impl StorageWatch {
    pub(crate) fn get(&self) -> Option<Outage> {
        *self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub(crate) fn set(&self, outage: Option<Outage>) {
        *self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = outage;
    }
}
