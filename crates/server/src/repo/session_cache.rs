//! Each server's copies of the sign-in checks it has made (a session, its person and whether
//! they have a second factor), so that a request of a known session goes to its handler without
//! a trip to the database first.
//!
//! A copy is used only while nothing that could change it has been committed since it was read,
//! on any server or by any process sharing the database. Each copy carries the [`Changes`] stamp
//! read before its query, and is used only while the stamp is still the same:
//!
//! - **SQLite**: `PRAGMA data_version` on a connection of the cache's own. SQLite changes it
//!   with every commit by any other connection, of this process or another (the operator's
//!   `bobbin users disable`, say), so a copy never outlives any write at all. That connection is
//!   read in the request's own thread (a few microseconds): through sqlx it would be a trip to a
//!   worker thread and back, which is what the copies save.
//! - **PostgreSQL**: triggers on `users`, `sessions` and `mfa_factors` notify the channel
//!   [`CHANNEL`] in the writing transaction (migration `m20261126_000010_auth_changes`), whoever
//!   writes; every server listens, and each notification outdates all of its copies. A revocation
//!   reaches the other servers when PostgreSQL delivers the notification, which it does at commit.
//!   While the listening connection is down, and until it listens again, no copy is used; a
//!   connection that has heard nothing (not even the servers' [`HEARTBEAT`]s) for
//!   [`SILENCE_LIMIT`] counts as down.
//!
//! Any other change outdates the copies too (a sign-in elsewhere, a refresh), which only costs
//! the next request the query it would have made anyway.

use std::{
    path::Path,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use sea_orm::{
    ConnectionTrait as _, DatabaseConnection, DbBackend, DbErr, Statement, sqlx::postgres::PgListener,
};
use uuid::Uuid;

use crate::{
    entity::ids::UserId,
    repo::auth::sessions::{self, SignedIn},
};

/// The PostgreSQL channel the triggers notify when a user, a session or a second factor changes.
pub const CHANNEL: &str = "bobbin_auth";
/// The payload of the notifications each server sends itself now and then, to know its
/// listening connection still hears (it changes nothing, so it outdates no copy).
const HEARTBEAT: &str = "heartbeat";
/// How often each server sends a [`HEARTBEAT`].
const HEARTBEAT_EVERY: Duration = Duration::from_secs(10);
/// How long a listening connection may hear nothing before it counts as down.
const SILENCE_LIMIT: Duration = Duration::from_secs(25);
/// How many sessions the copies cover; the least used go first.
const SESSIONS: u64 = 10_000;

/// The copies, and how to tell whether they are still true.
#[derive(Debug, Clone)]
pub struct SessionCache {
    copies: moka::sync::Cache<Uuid, Arc<Copy>>,
    changes: Changes,
}

#[derive(Debug)]
struct Copy {
    stamp: u64,
    signed_in: SignedIn,
}

impl SessionCache {
    /// Copies checked against `db`'s changes. On PostgreSQL this starts the task that listens
    /// for them (it ends when the pool closes); on an in-memory SQLite database, which no other
    /// connection can see into, nothing is kept.
    pub fn new(db: &DatabaseConnection) -> Self {
        let changes = match db.get_database_backend() {
            DbBackend::Sqlite => {
                let options = db.get_sqlite_connection_pool().connect_options();
                sqlite_version_reader(options.get_filename())
                    .map_or(Changes::Off, |connection| Changes::Sqlite(Arc::new(Mutex::new(connection))))
            }
            DbBackend::Postgres => {
                let generation = Arc::new(AtomicU64::new(1));
                tokio::spawn(listen(db.clone(), Arc::clone(&generation)));
                tokio::spawn(send_heartbeats(db.clone()));
                Changes::Postgres(generation)
            }
            _ => Changes::Off,
        };
        Self { copies: moka::sync::Cache::builder().max_capacity(SESSIONS).build(), changes }
    }

    /// [`sessions::signed_in`], from a copy while nothing was committed since it was read.
    ///
    /// # Errors
    ///
    /// The database's.
    pub async fn signed_in(
        &self,
        db: &DatabaseConnection,
        id: Uuid,
        user_id: UserId,
    ) -> Result<Option<SignedIn>, DbErr> {
        let stamp = self.changes.stamp();
        if let Some(stamp) = stamp
            && let Some(copy) = self.copies.get(&id)
            && copy.stamp == stamp
            && copy.signed_in.user.id == user_id
        {
            return Ok(Some(copy.signed_in.clone()));
        }
        let found = sessions::signed_in(db, id, user_id).await?;
        if let (Some(stamp), Some(signed_in)) = (stamp, &found) {
            self.copies.insert(id, Arc::new(Copy { stamp, signed_in: signed_in.clone() }));
        }
        Ok(found)
    }
}

/// Where to learn that something was committed.
#[derive(Debug, Clone)]
enum Changes {
    /// Nothing to learn from: no copy is used.
    Off,
    /// A read-only connection to the SQLite file, asked for `PRAGMA data_version`.
    Sqlite(Arc<Mutex<rusqlite::Connection>>),
    /// Raised by 2 with each notification heard. Odd while the server is not listening.
    Postgres(Arc<AtomicU64>),
}

impl Changes {
    /// What stamps a copy read now; `None` when copies cannot be trusted at the moment.
    fn stamp(&self) -> Option<u64> {
        match self {
            Self::Off => None,
            Self::Sqlite(connection) => {
                let connection = connection.lock().ok()?;
                let version = connection
                    .prepare_cached("PRAGMA data_version")
                    .and_then(|mut statement| statement.query_row([], |row| row.get::<_, i64>(0)));
                // An error (the file busy being recovered, say) just means no copy this time.
                version.ok().and_then(|version| u64::try_from(version).ok())
            }
            Self::Postgres(generation) => {
                let generation = generation.load(Ordering::SeqCst);
                (generation % 2 == 0).then_some(generation)
            }
        }
    }
}

/// A read-only connection to the SQLite database at `file`, which fails at once rather than
/// wait when the file is busy; `None` for an in-memory database or when it cannot be opened.
fn sqlite_version_reader(file: &Path) -> Option<rusqlite::Connection> {
    if file.as_os_str().is_empty() || file.as_os_str() == ":memory:" {
        return None;
    }
    let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let opened = rusqlite::Connection::open_with_flags(file, flags)
        .and_then(|connection| connection.busy_timeout(Duration::ZERO).map(|()| connection));
    match opened {
        Ok(connection) => Some(connection),
        Err(error) => {
            tracing::warn!(%error, "the sign-in checks will not be remembered: cannot open the database read-only");
            None
        }
    }
}

/// Listens on [`CHANNEL`] for as long as the pool is open, raising `generation` by 2 for each
/// notification; odd (no copy used) from a lost or silent connection until it listens again.
async fn listen(db: DatabaseConnection, generation: Arc<AtomicU64>) {
    let pool = db.get_postgres_connection_pool();
    let mut retry_in = Duration::from_millis(100);
    while !pool.is_closed() {
        let mut listener = match PgListener::connect_with(pool).await {
            Ok(listener) => listener,
            Err(error) => {
                tracing::warn!(%error, "cannot listen for sign-in changes; the sign-in check reads the database until then");
                tokio::time::sleep(retry_in).await;
                retry_in = (retry_in * 2).min(Duration::from_secs(5));
                continue;
            }
        };
        // A lost connection is reported at once, not after reconnecting: copies stop being
        // used before then.
        listener.eager_reconnect(false);
        if let Err(error) = listener.listen(CHANNEL).await {
            tracing::warn!(%error, "cannot listen for sign-in changes");
            tokio::time::sleep(retry_in).await;
            continue;
        }
        retry_in = Duration::from_millis(100);
        // Listening again: whatever was committed while not listening outdates every copy.
        generation.fetch_add(1, Ordering::SeqCst);
        loop {
            match tokio::time::timeout(SILENCE_LIMIT, listener.try_recv()).await {
                Ok(Ok(Some(notification))) if notification.payload() == HEARTBEAT => {}
                Ok(Ok(Some(_))) => {
                    generation.fetch_add(2, Ordering::SeqCst);
                }
                Ok(Ok(None) | Err(_)) | Err(_) => break,
            }
        }
        generation.fetch_add(1, Ordering::SeqCst);
        tracing::warn!("stopped hearing sign-in changes; listening again");
    }
}

/// Notifies [`CHANNEL`] with a [`HEARTBEAT`] every [`HEARTBEAT_EVERY`], for as long as the pool
/// is open, so that every server's listening connection hears something while all is quiet.
async fn send_heartbeats(db: DatabaseConnection) {
    let mut every = tokio::time::interval(HEARTBEAT_EVERY);
    while !db.get_postgres_connection_pool().is_closed() {
        every.tick().await;
        let heartbeat = Statement::from_sql_and_values(
            DbBackend::Postgres,
            "SELECT pg_notify($1, $2)",
            [CHANNEL.into(), HEARTBEAT.into()],
        );
        if let Err(error) = db.execute_raw(heartbeat).await {
            tracing::debug!(%error, "could not send a heartbeat to the sign-in listeners");
        }
    }
}

#[cfg(test)]
mod tests {
    use sea_orm::ConnectionTrait as _;

    use super::SessionCache;

    /// The stamp stays while nothing is committed, and moves with a commit through the server's
    /// own pool and with one by another connection (as the operator's command, a process of its
    /// own, makes), so that no copy outlives either.
    #[tokio::test]
    async fn on_sqlite_any_commit_by_anyone_outdates_the_copies() {
        let folder = tempfile::tempdir().unwrap();
        let file = folder.path().join("stamps.db");
        let url = format!("sqlite://{}", file.display());
        let args = crate::config::DatabaseArgs { database_url: url.as_str().into(), db_max_connections: 4 };
        let db = crate::db::connect(&args).await.unwrap();
        db.execute_unprepared("CREATE TABLE notes (text TEXT NOT NULL)").await.unwrap();
        let cache = SessionCache::new(&db);

        let first = cache.changes.stamp().expect("a file database has stamps");
        assert_eq!(cache.changes.stamp(), Some(first), "nothing was committed");
        db.execute_unprepared("SELECT count(*) FROM notes").await.unwrap();
        assert_eq!(cache.changes.stamp(), Some(first), "a read commits nothing");

        db.execute_unprepared("INSERT INTO notes VALUES ('through the pool')").await.unwrap();
        let second = cache.changes.stamp().unwrap();
        assert_ne!(second, first, "a commit through the server's pool");

        let other = rusqlite::Connection::open(&file).unwrap();
        other.execute("INSERT INTO notes VALUES ('by someone else')", []).unwrap();
        let third = cache.changes.stamp().unwrap();
        assert_ne!(third, second, "a commit by another connection");
        assert_eq!(cache.changes.stamp(), Some(third));
    }

    #[tokio::test]
    async fn an_in_memory_database_keeps_no_copies() {
        let args =
            crate::config::DatabaseArgs { database_url: "sqlite::memory:".into(), db_max_connections: 1 };
        let db = crate::db::connect(&args).await.unwrap();
        assert_eq!(SessionCache::new(&db).changes.stamp(), None);
    }
}
