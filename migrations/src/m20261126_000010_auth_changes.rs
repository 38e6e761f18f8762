//! On PostgreSQL, every change to a user, a session or a second factor notifies the channel
//! `bobbin_auth`, whoever makes it (a server, the operator's commands, SQL typed by hand): each
//! server keeps copies of the sign-in checks it has made and drops them all when it hears one
//! (`crates/server/src/repo/session_cache.rs`). PostgreSQL delivers the notification when the
//! change commits, and not at all when it rolls back.
//!
//! Triggers are PostgreSQL's own SQL, so this migration is written in it; on SQLite it does
//! nothing (there a server asks SQLite whether anything was committed instead).

use sea_orm_migration::{prelude::*, sea_orm::DbBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The tables whose changes can end or alter a signed-in session.
const TABLES: [&str; 3] = ["users", "sessions", "mfa_factors"];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if manager.get_database_backend() != DbBackend::Postgres {
            return Ok(());
        }
        let db = manager.get_connection();
        // One notification per statement, however many rows it touched; PostgreSQL also folds
        // the identical notifications of one transaction into one.
        db.execute_unprepared(
            "CREATE FUNCTION bobbin_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$ \
             BEGIN PERFORM pg_notify('bobbin_auth', TG_TABLE_NAME); RETURN NULL; END $$",
        )
        .await?;
        for table in TABLES {
            db.execute_unprepared(&format!(
                "CREATE TRIGGER {table}_auth_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON {table} \
                 FOR EACH STATEMENT EXECUTE FUNCTION bobbin_auth_changed()"
            ))
            .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if manager.get_database_backend() != DbBackend::Postgres {
            return Ok(());
        }
        let db = manager.get_connection();
        for table in TABLES {
            db.execute_unprepared(&format!("DROP TRIGGER {table}_auth_changed ON {table}")).await?;
        }
        db.execute_unprepared("DROP FUNCTION bobbin_auth_changed()").await?;
        Ok(())
    }
}
