//! Opening the database named by `DATABASE_URL`: SQLite (the embedded default) or PostgreSQL.

use std::{str::FromStr as _, time::Duration};

use anyhow::{Context as _, bail};
use sea_orm::{
    DatabaseConnection, DatabaseTransaction, DbErr, SqliteTransactionMode, SqlxPostgresConnector,
    SqlxSqliteConnector, TransactionOptions, TransactionTrait as _,
    sqlx::{
        postgres::{PgConnectOptions, PgPoolOptions},
        sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous},
    },
};

use crate::config::DatabaseArgs;

/// How long a query waits for a locked SQLite database before failing with "database is busy".
pub const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a request waits for a free pooled connection.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

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

/// Begins a transaction that will write. On SQLite it takes the write lock at once (`BEGIN
/// IMMEDIATE`), waiting up to the busy timeout for it: a transaction that reads first and
/// writes later (as most do) would otherwise fail with "database is locked" whenever another
/// connection wrote in between, which the busy timeout cannot cure. PostgreSQL ignores the mode.
///
/// # Errors
///
/// When the database cannot start the transaction.
pub async fn begin_write(db: &DatabaseConnection) -> Result<DatabaseTransaction, DbErr> {
    db.begin_with_options(TransactionOptions {
        sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
        ..TransactionOptions::default()
    })
    .await
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
                .connect_with(options)
                .await
                .context("opening the SQLite database")?;
            Ok(SqlxSqliteConnector::from_sqlx_sqlite_pool(pool))
        }
        Engine::Postgres => {
            let options = PgConnectOptions::from_str(url)
                .context("DATABASE_URL is not a valid PostgreSQL URL")?
                .application_name("bobbin");
            let pool = PgPoolOptions::new()
                .max_connections(args.db_max_connections)
                .acquire_timeout(ACQUIRE_TIMEOUT)
                .connect_with(options)
                .await
                .context("connecting to PostgreSQL")?;
            Ok(SqlxPostgresConnector::from_sqlx_postgres_pool(pool))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Engine;

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
