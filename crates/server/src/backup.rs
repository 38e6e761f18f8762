//! Backups of the SQLite database: a copy made while the server runs (`bobbin backup`, and on a
//! schedule), putting one back (`bobbin restore`), and the copy kept before a migration.
//!
//! Every copy is made with SQLite's `VACUUM INTO` (<https://sqlite.org/lang_vacuum.html#vacuuminto>):
//! it writes what one read transaction sees, so the copy holds every commit made before it began
//! and none after, and in WAL mode writers go on meanwhile. The copy is written beside its target
//! under a hidden name, checked (`PRAGMA integrity_check`, and the migrations it has), flushed to
//! disk and only then renamed into place, so a crash or a full disk never leaves a half backup
//! under the backup's name. PostgreSQL has its own tools (`pg_dump`, `pg_restore`): see
//! docs/deploy.md.
//!
//! `bobbin restore` must not replace the file under a running server. Each server on a SQLite
//! database holds a shared lock on `<database>.lock` ([`ServerLock`]); restore takes it
//! exclusively, or stops.

use std::{
    fs::{File, TryLockError},
    path::{Path, PathBuf},
    str::FromStr as _,
    time::Duration,
};

use anyhow::{Context as _, bail};
use sea_orm::{
    ConnectionTrait as _, Statement,
    sqlx::{self, Connection as _, SqliteConnection, sqlite::SqliteConnectOptions},
};
use time::{OffsetDateTime, macros::format_description};

use crate::db::Database;
use crate::{
    config::{BackupSchedule, DatabaseArgs},
    db::{Engine, SQLITE_BUSY_TIMEOUT},
    schema::{self, SchemaState},
};

/// The SQLite database file `DATABASE_URL` names.
///
/// # Errors
///
/// For PostgreSQL (with the way to back it up), or a URL that names no file.
pub fn sqlite_file(database: &DatabaseArgs) -> anyhow::Result<PathBuf> {
    let url = database.database_url.expose();
    if Engine::from_url(url)? == Engine::Postgres {
        bail!(
            "this is for SQLite databases; for PostgreSQL use `pg_dump --format=custom` and `pg_restore` \
             (docs/deploy.md, \"Backups\")"
        );
    }
    let options = SqliteConnectOptions::from_str(url).context("DATABASE_URL is not a valid SQLite URL")?;
    let file = options.get_filename();
    if file.as_os_str().is_empty() || file == Path::new(":memory:") {
        bail!("DATABASE_URL names no database file");
    }
    Ok(file.to_path_buf())
}

/// What a checked copy holds.
#[derive(Debug, Clone)]
pub struct Checked {
    pub schema: SchemaState,
    pub users: i64,
    pub teams: i64,
    pub bytes: u64,
}

impl Checked {
    /// One line for the operator.
    pub fn summary(&self, file: &Path) -> String {
        format!(
            "{}: {} bytes, {} accounts, {} teams, {} migrations applied",
            file.display(),
            self.bytes,
            self.users,
            self.teams,
            self.schema.applied.len() + self.schema.unknown.len()
        )
    }
}

/// `bobbin backup FILE`: copies the live database `from` to `to`, which must not exist.
///
/// # Errors
///
/// When the database cannot be read, `to` exists or cannot be written, or the copy fails its
/// check.
pub async fn back_up(from: &Path, to: &Path) -> anyhow::Result<Checked> {
    if !from.exists() {
        bail!("there is no database at {}", from.display());
    }
    let options =
        SqliteConnectOptions::new().filename(from).create_if_missing(false).busy_timeout(SQLITE_BUSY_TIMEOUT);
    let mut connection = SqliteConnection::connect_with(&options)
        .await
        .with_context(|| format!("opening {}", from.display()))?;
    let result = write_checked(to, async |partial| {
        sqlx::query("VACUUM INTO ?").bind(path_text(partial)?).execute(&mut connection).await?;
        Ok(())
    })
    .await;
    connection.close().await.ok();
    result
}

/// Copies the server's own database (through its pool) to `to`.
async fn back_up_pool(db: &Database, to: &Path) -> anyhow::Result<Checked> {
    write_checked(to, async |partial| {
        let statement = Statement::from_sql_and_values(
            db.get_database_backend(),
            "VACUUM INTO ?",
            [path_text(partial)?.into()],
        );
        db.execute_raw(statement).await?;
        Ok(())
    })
    .await
}

/// Has `write` make the copy under a hidden name beside `to`, checks it, flushes it to disk and
/// renames it to `to`.
async fn write_checked(
    to: &Path,
    write: impl AsyncFnOnce(&Path) -> anyhow::Result<()>,
) -> anyhow::Result<Checked> {
    if to.exists() {
        bail!("{} exists already; choose a new name", to.display());
    }
    let folder = folder_of(to);
    std::fs::create_dir_all(&folder).with_context(|| format!("creating {}", folder.display()))?;
    let name = to.file_name().context("the backup needs a file name")?.to_string_lossy();
    let partial = folder.join(format!(".{name}.partial"));
    remove_if_there(&partial)?;
    let made = async {
        // Created empty first, readable by its owner only (a backup holds password hashes);
        // `VACUUM INTO` writes into an existing empty file.
        create_private(&partial)?;
        write(&partial).await.with_context(|| format!("copying the database to {}", partial.display()))?;
        File::open(&partial)?.sync_all()?;
        let checked = check(&partial).await?;
        std::fs::rename(&partial, to).with_context(|| format!("renaming the copy to {}", to.display()))?;
        File::open(&folder)?.sync_all()?;
        Ok(checked)
    }
    .await;
    if made.is_err() {
        remove_if_there(&partial).ok();
    }
    made
}

/// Checks that `file` is a whole, readable Bobbin database: SQLite's integrity check passes and
/// it records its migrations. Opens it read-only and immutable, so the check changes nothing.
///
/// # Errors
///
/// When it is not.
pub async fn check(file: &Path) -> anyhow::Result<Checked> {
    let bytes = std::fs::metadata(file).with_context(|| format!("reading {}", file.display()))?.len();
    let options = SqliteConnectOptions::new().filename(file).read_only(true).immutable(true);
    let mut connection = SqliteConnection::connect_with(&options)
        .await
        .with_context(|| format!("{} cannot be opened as a SQLite database", file.display()))?;
    let checked = async {
        let problems: Vec<String> =
            sqlx::query_scalar("PRAGMA integrity_check").fetch_all(&mut connection).await?;
        if problems != ["ok"] {
            bail!("it fails SQLite's integrity check: {}", problems.join("; "));
        }
        let versions: Vec<String> =
            sqlx::query_scalar("SELECT version FROM seaql_migrations ORDER BY version")
                .fetch_all(&mut connection)
                .await
                .context("it is not a Bobbin database (it records no migrations)")?;
        let schema = SchemaState::compare(&schema::known(), &versions);
        let users = sqlx::query_scalar("SELECT count(*) FROM users").fetch_one(&mut connection).await?;
        let teams = sqlx::query_scalar("SELECT count(*) FROM teams").fetch_one(&mut connection).await?;
        Ok(Checked { schema, users, teams, bytes })
    }
    .await
    .with_context(|| format!("{} is not a usable backup", file.display()));
    connection.close().await.ok();
    checked
}

/// `bobbin restore FILE`: checks `backup`, makes sure no server uses `database`, keeps the
/// database there as `<database>.before-restore-<time>` and puts a copy of `backup` in its place.
/// Answers what was restored and where the replaced database was kept (if there was one).
///
/// # Errors
///
/// When the backup fails its check, is newer than this binary, or a server runs.
pub async fn restore(backup: &Path, database: &Path) -> anyhow::Result<(Checked, Option<PathBuf>)> {
    // A copy of a live database made with `cp` has its latest commits in a `-wal` file beside it,
    // which the check (read-only, immutable) and the copy below would both leave out.
    let name = backup.file_name().unwrap_or_default().to_string_lossy();
    let wal = backup.with_file_name(format!("{name}-wal"));
    if std::fs::metadata(&wal).is_ok_and(|wal| wal.len() > 0) {
        bail!(
            "{} has a write-ahead log beside it ({}): it is a copy of a live database, not a backup. \
             Make one with `bobbin backup`.",
            backup.display(),
            wal.display()
        );
    }
    let checked = check(backup).await?;
    if !checked.schema.unknown.is_empty() {
        bail!("{} was made by a newer Bobbin: {}", backup.display(), checked.schema.summary());
    }
    let _lock = ServerLock::exclusive(database)?;
    let kept = if database.exists() {
        let kept = sibling(database, &format!("before-restore-{}", timestamp(OffsetDateTime::now_utc())?));
        back_up(database, &kept).await.context("keeping the database it replaces")?;
        Some(kept)
    } else {
        None
    };
    let folder = folder_of(database);
    std::fs::create_dir_all(&folder)?;
    let incoming = sibling(database, "restoring");
    std::fs::copy(backup, &incoming).with_context(|| format!("copying {}", backup.display()))?;
    File::open(&incoming)?.sync_all()?;
    // The old database's write-ahead log must not be replayed into the restored file.
    let name = database.file_name().unwrap_or_default().to_string_lossy();
    for suffix in ["wal", "shm"] {
        remove_if_there(&database.with_file_name(format!("{name}-{suffix}")))?;
    }
    std::fs::rename(&incoming, database).with_context(|| format!("replacing {}", database.display()))?;
    File::open(&folder)?.sync_all()?;
    Ok((checked, kept))
}

/// Before migrations change an existing SQLite database, keeps a copy of it as
/// `<database>.before-<first pending migration>` (an earlier copy of that name, from a start that
/// failed, is kept as it is: it is the older one). Answers where, when a copy was needed.
///
/// # Errors
///
/// When the copy cannot be made: the server then does not migrate.
pub async fn keep_before_migrating(
    db: &Database,
    database: &DatabaseArgs,
) -> anyhow::Result<Option<PathBuf>> {
    if Engine::from_url(database.database_url.expose())? != Engine::Sqlite {
        return Ok(None);
    }
    let state = SchemaState::read(db).await?;
    let Some(next) = state.pending.first() else { return Ok(None) };
    if state.is_new() {
        return Ok(None);
    }
    let copy = sibling(&sqlite_file(database)?, &format!("before-{next}"));
    if !copy.exists() {
        back_up_pool(db, &copy).await.context("keeping a copy of the database before migrating it")?;
    }
    Ok(Some(copy))
}

/// Starts the scheduled backups, if `--backup-dir` is set.
///
/// # Errors
///
/// When they are asked of a PostgreSQL database.
pub fn spawn_scheduled(
    db: Database,
    database: &DatabaseArgs,
    schedule: &BackupSchedule,
) -> anyhow::Result<()> {
    let Some(folder) = schedule.backup_dir.clone() else { return Ok(()) };
    sqlite_file(database).context("BOBBIN_BACKUP_DIR")?;
    let (every, keep) = (schedule.backup_interval, schedule.backup_keep.get());
    if every < Duration::from_secs(1) {
        bail!("BOBBIN_BACKUP_INTERVAL must be at least one second");
    }
    tracing::info!(folder = %folder.display(), ?every, keep, "scheduled backups on");
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            match scheduled_backup(&db, &folder, keep).await {
                Ok((file, checked)) => tracing::info!(summary = checked.summary(&file), "backup made"),
                Err(error) => tracing::error!(error = format!("{error:#}"), "scheduled backup failed"),
            }
        }
    });
    Ok(())
}

/// Prefix and suffix of a scheduled backup's name: `bobbin-20261125T171500Z.db`.
const SCHEDULED: (&str, &str) = ("bobbin-", ".db");

async fn scheduled_backup(db: &Database, folder: &Path, keep: u32) -> anyhow::Result<(PathBuf, Checked)> {
    let file =
        folder.join(format!("{}{}{}", SCHEDULED.0, timestamp(OffsetDateTime::now_utc())?, SCHEDULED.1));
    let checked = back_up_pool(db, &file).await?;
    let mut made: Vec<PathBuf> = std::fs::read_dir(folder)?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.starts_with(SCHEDULED.0) && name.ends_with(SCHEDULED.1))
        })
        .collect();
    // The names sort as their times.
    made.sort();
    let surplus = made.len().saturating_sub(usize::try_from(keep).unwrap_or(usize::MAX));
    for old in &made[..surplus] {
        std::fs::remove_file(old).with_context(|| format!("deleting the old backup {}", old.display()))?;
    }
    Ok((file, checked))
}

/// A lock that tells `bobbin restore` a server is using a SQLite database: servers hold it
/// shared (several may serve one file), restore holds it exclusively. It is `flock` on a file of
/// its own, `<database>.lock`, not on the database: SQLite's own POSIX locks on the database would
/// be dropped when any other descriptor of it is closed. The operating system frees it when the
/// process ends, however it ends.
#[derive(Debug)]
pub struct ServerLock(#[expect(dead_code, reason = "held for the lock, freed when dropped")] File);

impl ServerLock {
    /// The lock a server holds while it serves `database`; `None` for PostgreSQL.
    ///
    /// # Errors
    ///
    /// When the lock file cannot be made, or a restore is under way.
    pub fn serving(database: &DatabaseArgs) -> anyhow::Result<Option<Self>> {
        if Engine::from_url(database.database_url.expose())? != Engine::Sqlite {
            return Ok(None);
        }
        let file = lock_file(&sqlite_file(database)?)?;
        match file.try_lock_shared() {
            Ok(()) => Ok(Some(Self(file))),
            Err(TryLockError::WouldBlock) => {
                bail!("a restore of this database is under way; start again after it")
            }
            Err(TryLockError::Error(error)) => Err(error).context("locking the database's .lock file"),
        }
    }

    fn exclusive(database: &Path) -> anyhow::Result<Self> {
        let file = lock_file(database)?;
        match file.try_lock() {
            Ok(()) => Ok(Self(file)),
            Err(TryLockError::WouldBlock) => bail!(
                "a Bobbin server is using {}: stop it first (for example `systemctl stop bobbin`), then restore",
                database.display()
            ),
            Err(TryLockError::Error(error)) => Err(error).context("locking the database's .lock file"),
        }
    }
}

fn lock_file(database: &Path) -> anyhow::Result<File> {
    let path = sibling(database, "lock");
    std::fs::create_dir_all(folder_of(&path))?;
    File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .with_context(|| format!("opening {}", path.display()))
}

/// `<file>.<suffix>` in the same folder.
fn sibling(file: &Path, suffix: &str) -> PathBuf {
    let name = file.file_name().unwrap_or_default().to_string_lossy();
    file.with_file_name(format!("{name}.{suffix}"))
}

fn folder_of(file: &Path) -> PathBuf {
    match file.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

fn create_private(file: &Path) -> anyhow::Result<()> {
    let mut options = File::options();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(file).with_context(|| format!("creating {}", file.display()))?;
    Ok(())
}

fn remove_if_there(file: &Path) -> anyhow::Result<()> {
    match std::fs::remove_file(file) {
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
            Err(error).with_context(|| format!("removing {}", file.display()))
        }
        _ => Ok(()),
    }
}

fn path_text(path: &Path) -> anyhow::Result<String> {
    path.to_str().map(str::to_owned).with_context(|| format!("{} is not valid UTF-8", path.display()))
}

/// `20261125T171500Z`: sorts as time, and is a valid file name everywhere.
fn timestamp(at: OffsetDateTime) -> anyhow::Result<String> {
    Ok(at
        .to_offset(time::UtcOffset::UTC)
        .format(format_description!("[year][month][day]T[hour][minute][second]Z"))?)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{sibling, timestamp};

    #[test]
    fn names_sort_as_times_and_stay_beside_the_database() {
        let at = time::macros::datetime!(2026-11-25 17:15:00 UTC);
        assert_eq!(timestamp(at).unwrap(), "20261125T171500Z");
        assert_eq!(sibling(Path::new("data/bobbin.db"), "lock"), Path::new("data/bobbin.db.lock"));
    }
}
