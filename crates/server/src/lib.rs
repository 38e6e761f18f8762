//! The Bobbin server: one binary that serves the React app (embedded at build time), the product
//! API under `/api/v2` and the auth service under `/auth/v1`.
//!
//! Start at [`startup::Application`]; every route is listed in [`routes::router`].

pub mod auth;
pub mod backup;
pub mod blocking;
pub mod config;
pub mod db;
pub mod entity;
pub mod error;
pub mod extract;
pub mod limits;
pub mod listener;
pub mod mail;
pub mod metrics;
pub mod operator;
pub mod pdf;
pub mod prune;
pub mod repo;
pub mod routes;
pub mod schema;
pub mod startup;
pub mod state;
pub mod storage;
pub mod telemetry;

use std::process::ExitCode;

use anyhow::Context as _;
use migration::{Migrator, MigratorTrait as _};

use crate::config::{Cli, Command, MigrateAction, MigrateArgs};

/// The version of the server, as reported by `/healthz`, `/api/v2/meta` and the app's footer.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Runs the command line: sets up logging, then serves, migrates or prints the OpenAPI document.
pub fn run(cli: Cli) -> ExitCode {
    let _log = match telemetry::init(&cli.log) {
        Ok(guard) => guard,
        Err(error) => {
            eprintln!("bobbin: {error:#}");
            return ExitCode::FAILURE;
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("bobbin: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(dispatch(cli.command)) {
        Ok(code) => code,
        Err(error) => {
            tracing::error!(error = format!("{error:#}"), "bobbin stopped");
            ExitCode::FAILURE
        }
    }
}

async fn dispatch(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Serve(args) => {
            let app = Box::pin(startup::Application::build(*args)).await?;
            let shutdown = startup::shutdown_signal()?;
            app.run_until_stopped(shutdown).await?;
        }
        Command::Migrate(args) => return migrate(args).await,
        Command::Openapi => println!("{}", routes::openapi().to_pretty_json()?),
        Command::Backup(args) => {
            let checked = backup::back_up(&backup::sqlite_file(&args.database)?, &args.file).await?;
            println!("Backed up and checked {}", checked.summary(&args.file));
        }
        Command::Restore(args) => {
            let database = backup::sqlite_file(&args.database)?;
            let (checked, kept) = backup::restore(&args.file, &database).await?;
            println!("Restored {}", checked.summary(&args.file));
            if let Some(kept) = kept {
                println!("The database it replaced is kept as {}", kept.display());
            }
            if !checked.schema.pending.is_empty() {
                println!("{}", checked.schema.summary());
            }
        }
        Command::Users(args) => operator::users(args).await?,
        Command::Teams(args) => operator::teams(args).await?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `bobbin migrate`. `status` exits with 1 when migrations are pending and 2 when the database
/// is newer than this binary, so scripts (an upgrade, a readiness check) can tell.
async fn migrate(args: MigrateArgs) -> anyhow::Result<ExitCode> {
    let db = db::connect(&args.database).await?;
    let mut code = ExitCode::SUCCESS;
    match args.action {
        MigrateAction::Up => {
            Migrator::up(db.writes(), None).await.context("applying migrations")?;
            tracing::info!("database schema is up to date");
        }
        MigrateAction::Down { steps } => {
            Migrator::down(db.writes(), Some(steps)).await.context("rolling back migrations")?;
            tracing::info!(steps, "rolled back");
        }
        MigrateAction::Status => {
            let state = schema::SchemaState::read(&db).await?;
            for (status, names) in
                [("applied", &state.applied), ("pending", &state.pending), ("unknown", &state.unknown)]
            {
                for name in names {
                    println!("{status:<8} {name}");
                }
            }
            println!("{}", state.summary());
            code = if !state.unknown.is_empty() {
                ExitCode::from(2)
            } else if !state.pending.is_empty() {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            };
        }
    }
    db.close().await?;
    Ok(code)
}
