//! Command line and environment configuration. Every option is a flag and an environment
//! variable (`BOBBIN_*`, and the conventional `DATABASE_URL`); `bobbin --help` and
//! `bobbin serve --help` print the doc comments below.

use std::{net::SocketAddr, time::Duration};

use clap::{Args, Parser, Subcommand, ValueEnum};
use serde::Serialize;

/// Bobbin: thread and machine inventory, pricing and thread conversion for embroidery teams.
#[derive(Debug, Parser)]
#[command(name = "bobbin", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,

    #[command(flatten)]
    pub log: LogArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the web app and its API. Pending database migrations run first.
    Serve(ServeArgs),
    /// Inspect or change the database schema without serving.
    Migrate(MigrateArgs),
}

#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Address and port to listen on. Use 0.0.0.0:3000 to accept connections from other machines.
    #[arg(long, env = "BOBBIN_BIND", default_value = "127.0.0.1:3000")]
    pub bind: SocketAddr,

    /// Which deployment this is. Development and staging show a banner saying so; development
    /// also shows a breakpoint helper.
    #[arg(long = "env", env = "BOBBIN_ENV", value_enum, default_value_t = Environment::Production)]
    pub environment: Environment,

    /// Seconds to let requests in flight finish after Ctrl-C or SIGTERM before stopping anyway.
    #[arg(long, env = "BOBBIN_SHUTDOWN_GRACE", default_value_t = 10, value_name = "SECONDS")]
    pub shutdown_grace: u64,

    /// Seconds an API request may take before it is answered with 408.
    #[arg(long, env = "BOBBIN_REQUEST_TIMEOUT", default_value_t = 30, value_name = "SECONDS")]
    pub request_timeout: u64,

    #[command(flatten)]
    pub database: DatabaseArgs,
}

impl ServeArgs {
    pub fn shutdown_grace(&self) -> Duration {
        Duration::from_secs(self.shutdown_grace)
    }

    pub fn request_timeout(&self) -> Duration {
        Duration::from_secs(self.request_timeout)
    }
}

#[derive(Debug, Clone, Args)]
pub struct DatabaseArgs {
    /// Database to use; the scheme picks the engine. SQLite: `sqlite://data/bobbin.db` (a path
    /// relative to the working directory; the file and its folder are created). PostgreSQL:
    /// `postgres://user:password@host:5432/bobbin`.
    #[arg(
        long,
        env = "DATABASE_URL",
        default_value = "sqlite://data/bobbin.db",
        hide_env_values = true,
        global = true
    )]
    pub database_url: String,

    /// Largest number of pooled database connections.
    #[arg(long, env = "BOBBIN_DB_MAX_CONNECTIONS", default_value_t = 10, global = true)]
    pub db_max_connections: u32,
}

#[derive(Debug, Clone, Args)]
pub struct MigrateArgs {
    #[command(subcommand)]
    pub action: MigrateAction,

    #[command(flatten)]
    pub database: DatabaseArgs,
}

#[derive(Debug, Clone, Copy, Subcommand)]
pub enum MigrateAction {
    /// Apply all pending migrations.
    Up,
    /// List every migration and whether it is applied.
    Status,
    /// Roll back the most recent migrations.
    Down {
        /// How many migrations to roll back.
        #[arg(long, default_value_t = 1)]
        steps: u32,
    },
}

#[derive(Debug, Clone, Args)]
pub struct LogArgs {
    /// What to log, as a tracing filter: a level (`info`, `debug`) or per-module directives such
    /// as `info,bobbin_server=debug,sqlx=warn`.
    #[arg(long, env = "BOBBIN_LOG", default_value = "info,memory_serve=warn", global = true)]
    pub log: String,

    /// Log line format: `text` for people, `json` for log collectors.
    #[arg(long, env = "BOBBIN_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text, global = true)]
    pub log_format: LogFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Environment {
    Development,
    Staging,
    Production,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}
