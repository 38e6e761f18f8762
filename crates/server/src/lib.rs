//! The Bobbin server: one binary that serves the React app (embedded at build time), the product
//! API under `/api/v2` and the auth service under `/auth/v1`.
//!
//! Start at [`startup::Application`]; every route is listed in [`routes::router`].

pub mod auth;
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
pub mod prune;
pub mod repo;
pub mod routes;
pub mod startup;
pub mod state;
pub mod telemetry;

use std::process::ExitCode;

use anyhow::Context as _;
use migration::{Migrator, MigratorTrait as _};

use crate::config::{Cli, Command, MigrateAction, MigrateArgs};

/// The version of the server, as reported by `/healthz`, `/api/v2/meta` and the app's footer.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Runs the command line: sets up logging, then serves, migrates or prints the OpenAPI document.
pub fn run(cli: Cli) -> ExitCode {
    if let Err(error) = telemetry::init(&cli.log) {
        eprintln!("bobbin: {error:#}");
        return ExitCode::FAILURE;
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("bobbin: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(dispatch(cli.command)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(error = format!("{error:#}"), "bobbin stopped");
            ExitCode::FAILURE
        }
    }
}

async fn dispatch(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Serve(args) => {
            let app = Box::pin(startup::Application::build(*args)).await?;
            let shutdown = startup::shutdown_signal()?;
            app.run_until_stopped(shutdown).await
        }
        Command::Migrate(args) => migrate(args).await,
        Command::Openapi => {
            println!("{}", routes::openapi().to_pretty_json()?);
            Ok(())
        }
    }
}

async fn migrate(args: MigrateArgs) -> anyhow::Result<()> {
    let db = db::connect(&args.database).await?;
    match args.action {
        MigrateAction::Up => {
            Migrator::up(&db, None).await.context("applying migrations")?;
            tracing::info!("database schema is up to date");
        }
        MigrateAction::Down { steps } => {
            Migrator::down(&db, Some(steps)).await.context("rolling back migrations")?;
            tracing::info!(steps, "rolled back");
        }
        MigrateAction::Status => {
            for migration in Migrator::get_migration_with_status(&db).await? {
                println!("{:<8} {}", migration.status().to_string().to_lowercase(), migration.name());
            }
        }
    }
    db.close().await?;
    Ok(())
}
