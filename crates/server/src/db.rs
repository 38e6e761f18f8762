//! The database named by `DATABASE_URL`: SQLite (the embedded default) or PostgreSQL, reached
//! one way, through sea-orm over sqlx and its pools ([`Database`]).
//!
//! Reads go to [`Database`] itself, which is a [`ConnectionTrait`]. Writes go through
//! [`committed`] or [`begin_write`]: a transaction on the writers' pool, which on SQLite is one
//! connection, so writers queue for it in the pool and each begins with `BEGIN IMMEDIATE`.

use std::{
    str::FromStr as _,
    sync::{Arc, Mutex},
    time::Duration,
};

use anyhow::{Context as _, bail};
use rand::RngCore as _;
use sea_orm::{
    AccessMode, ConnAcquireErr, ConnectionTrait, DatabaseConnection, DatabaseTransaction, DbBackend, DbErr,
    ExecResult, IsolationLevel, QueryResult, RuntimeErr, SqliteTransactionMode, SqlxPostgresConnector,
    SqlxSqliteConnector, Statement, TransactionOptions, TransactionTrait as _,
    sea_query::{Alias, OnConflict, Query},
    sqlx::{
        self, Connection as _,
        postgres::{PgConnectOptions, PgPoolOptions},
        sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous},
    },
};

use crate::config::DatabaseArgs;

/// How long a query waits for a locked SQLite database before failing with "database is busy".
pub const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a request waits for a pooled connection (on SQLite, a writer for the one writer
/// connection) before it is answered as busy.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a PostgreSQL connection sits unused in the pool before it is checked again as it
/// goes out: one used a moment ago was just seen working.
const CHECKED_AFTER_IDLE: Duration = Duration::from_secs(1);

/// What a person is told when a change they sent may or may not have been made.
pub const UNKNOWN_OUTCOME: &str = "The server lost its connection to the database. If you were saving a change, it may \
     or may not have been saved; sending it again with the same Idempotency-Key is safe. Try again in a moment.";

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

    /// What the person is told: that nothing was changed, except where the outage may have come
    /// after the commit ([`UNKNOWN_OUTCOME`]).
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
            // The connection may have broken after the commit: a change may have been made.
            Self::Unavailable => UNKNOWN_OUTCOME,
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
            // shutdown, crash, cannot connect now; undefined_table: the tables are being made
            // again under the running servers (a `pg_restore --clean`), back when it is done
            "57P01" | "57P02" | "57P03" | "42P01" => Some(Self::Unavailable),
            code if code.starts_with("08") => Some(Self::Unavailable), // connection exceptions
            _ => None,
        }
    }
}

/// The database: a pool for reads and one for writes. On SQLite the writers' pool holds one
/// connection, SQLite's one writer at a time, so writers wait their turn for it in the pool
/// (first come, first served) rather than in SQLite's busy handler, and readers never wait for
/// them (WAL). On PostgreSQL both are the same pool.
///
/// Reads go to the database itself ([`ConnectionTrait`]); writes through [`committed`] or
/// [`begin_write`].
#[derive(Debug, Clone)]
pub struct Database {
    reads: DatabaseConnection,
    writes: DatabaseConnection,
}

impl Database {
    /// The pool writes go to: for what runs its own transactions (migrations, a backup).
    pub fn writes(&self) -> &DatabaseConnection {
        &self.writes
    }

    /// The pool reads go to: for a read of the schema outside any request.
    pub fn reads(&self) -> &DatabaseConnection {
        &self.reads
    }

    /// Checks that the database answers (a query on the readers' pool).
    ///
    /// # Errors
    ///
    /// The database's.
    pub async fn ping(&self) -> Result<(), DbErr> {
        self.reads.ping().await
    }

    /// The connections open, of them idle, and the most there may be, in both pools.
    pub fn connections(&self) -> (u32, usize, u32) {
        fn of(db: &DatabaseConnection) -> (u32, usize, u32) {
            if db.get_database_backend() == DbBackend::Sqlite {
                let pool = db.get_sqlite_connection_pool();
                (pool.size(), pool.num_idle(), pool.options().get_max_connections())
            } else {
                let pool = db.get_postgres_connection_pool();
                (pool.size(), pool.num_idle(), pool.options().get_max_connections())
            }
        }
        let reads = of(&self.reads);
        if self.get_database_backend() != DbBackend::Sqlite {
            return reads;
        }
        let writes = of(&self.writes);
        (reads.0 + writes.0, reads.1 + writes.1, reads.2 + writes.2)
    }

    /// Closes both pools, once the queries in progress are done (on SQLite the last connection
    /// to close folds the write-ahead log back into the database file).
    ///
    /// # Errors
    ///
    /// The database's.
    pub async fn close(self) -> Result<(), DbErr> {
        self.reads.close().await?;
        self.writes.close().await
    }
}

#[async_trait::async_trait]
impl ConnectionTrait for Database {
    fn get_database_backend(&self) -> DbBackend {
        self.reads.get_database_backend()
    }

    async fn execute_raw(&self, statement: Statement) -> Result<ExecResult, DbErr> {
        self.reads.execute_raw(statement).await
    }

    async fn execute_unprepared(&self, sql: &str) -> Result<ExecResult, DbErr> {
        self.reads.execute_unprepared(sql).await
    }

    async fn query_one_raw(&self, statement: Statement) -> Result<Option<QueryResult>, DbErr> {
        self.reads.query_one_raw(statement).await
    }

    async fn query_all_raw(&self, statement: Statement) -> Result<Vec<QueryResult>, DbErr> {
        self.reads.query_all_raw(statement).await
    }
}

/// Begins a transaction that will write, on the writers' pool. On SQLite it takes the write lock
/// at once (`BEGIN IMMEDIATE`): a transaction that reads first and writes later (as most do)
/// would otherwise fail with "database is locked" whenever another connection wrote in between,
/// which the busy timeout cannot cure. PostgreSQL ignores the mode.
///
/// # Errors
///
/// When the database cannot start the transaction, or no connection came within
/// [`ACQUIRE_TIMEOUT`] (an [`Outage::Busy`]).
pub async fn begin_write(db: &Database) -> Result<DatabaseTransaction, DbErr> {
    db.writes
        .begin_with_options(TransactionOptions {
            sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
            ..TransactionOptions::default()
        })
        .await
}

/// Begins a transaction that only reads, on the readers' pool: every read in it sees the
/// database as it was at one moment, whatever commits meanwhile (on SQLite from its first read;
/// on PostgreSQL `REPEATABLE READ`).
///
/// # Errors
///
/// The database's.
pub async fn begin_read(db: &Database) -> Result<DatabaseTransaction, DbErr> {
    match db.get_database_backend() {
        DbBackend::Postgres => {
            db.reads.begin_with_config(Some(IsolationLevel::RepeatableRead), Some(AccessMode::ReadOnly)).await
        }
        _ => db.reads.begin().await,
    }
}

/// Runs `write` in a write transaction of its own ([`begin_write`]), and answers only once it is
/// committed. An `Err` from `write` rolls everything back.
///
/// sea-orm writes `insert` and `update` as `INSERT/UPDATE … RETURNING`. On SQLite such a
/// statement outside a transaction commits only when the driver resets it after reading the
/// row, and sqlx drops the error of that reset (launchbadge/sqlx#2099): on a full disk the
/// write was answered as saved and then lost. Inside a transaction the `COMMIT` reports it.
///
/// Nothing here runs a change twice: an error on or after `COMMIT` (a broken connection, a
/// terminated backend) leaves its outcome unknown, and it is answered as an outage, never
/// written again.
///
/// # Errors
///
/// The write's own error, or the database's when it cannot begin or commit.
pub async fn committed<T, E: From<DbErr>>(
    db: &Database,
    write: impl AsyncFnOnce(&DatabaseTransaction) -> Result<T, E>,
) -> Result<T, E> {
    let txn = begin_write(db).await?;
    let value = write(&txn).await?;
    txn.commit().await?;
    Ok(value)
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
pub async fn probe_writes(db: &Database) -> Result<(), DbErr> {
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
pub async fn ensure_writable(db: &Database) -> anyhow::Result<()> {
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

/// Opens the database's pools. SQLite gets WAL (readers never wait for the writer), foreign keys
/// enforced, a busy timeout instead of immediate "database is locked" errors (for other processes:
/// the operator's commands, a backup), and its file and folder created on first start.
///
/// # Errors
///
/// When the URL is not one, or the database cannot be opened or reached (with why).
pub async fn connect(args: &DatabaseArgs) -> anyhow::Result<Database> {
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
            let pool = |connections| {
                SqlitePoolOptions::new()
                    .max_connections(connections)
                    .acquire_timeout(ACQUIRE_TIMEOUT)
                    // A SQLite connection cannot die while idle in the pool (a file error shows
                    // on the next statement): no check as it goes out.
                    .test_before_acquire(false)
                    .after_release(|connection, _| Box::pin(reusable(connection)))
            };
            // The writer first: it makes the file and turns WAL on before the readers open it.
            let writes =
                pool(1).connect_with(options.clone()).await.context("opening the SQLite database")?;
            let reads = pool(args.db_max_connections)
                .connect_with(options)
                .await
                .context("opening the SQLite database")?;
            Ok(Database {
                reads: SqlxSqliteConnector::from_sqlx_sqlite_pool(reads),
                writes: SqlxSqliteConnector::from_sqlx_sqlite_pool(writes),
            })
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
                // sqlx would ping every connection as it goes out: a round trip to PostgreSQL
                // before each query. Only one idle for a while is checked (PostgreSQL may have
                // restarted meanwhile); one that fails later is answered as an outage.
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
            let db = SqlxPostgresConnector::from_sqlx_postgres_pool(pool);
            Ok(Database { reads: db.clone(), writes: db })
        }
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
    use sea_orm::DbErr;

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
        assert_eq!(Outage::of_sqlstate("42P01"), Some(Outage::Unavailable));
        assert_eq!(Outage::of_sqlstate("08006"), Some(Outage::Unavailable));
        assert_eq!(Outage::of_sqlstate("25006"), Some(Outage::ReadOnly));
        assert_eq!(Outage::of_sqlstate("40P01"), Some(Outage::Busy));
        assert_eq!(Outage::of_sqlstate("23505"), None);
        assert_eq!(Outage::of(&DbErr::ConnectionAcquire(ConnAcquireErr::Timeout)), Some(Outage::Busy));
        assert_eq!(Outage::of(&DbErr::RecordNotFound("a quote".to_owned())), None);
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
