//! A change of someone's address raises the `threads_revision` of every team with an entry they
//! changed last, so the servers' copies of those teams' entries, which keep the addresses of who
//! changed each entry, are read again (`crates/server/src/repo/thread_cache.rs`).
//!
//! Before, a page of the thread list read those addresses from the database with every request,
//! a second round trip after the sign-in check, because a person may change their address at any
//! time. An address changes seldom and a list is read all day, so the copy keeps them, and the
//! database says when they change, in the transaction that changes them, as migration 10's
//! triggers do for the entries. Removing an account sets the entries' `updated_by` to null, which
//! migration 10's triggers see as a change of those entries.
//!
//! The index on `inventory_threads.updated_by` finds a person's entries for the trigger, and for
//! that null when an account is removed, which scanned every team's entries before.
//!
//! Written in each dialect's own SQL, as migration 10 is: sea-query has no statement for
//! triggers. PostgreSQL's is a plain trigger, run at once: an address is changed in a short
//! transaction of its own, which locks the person's row, then their teams' rows in the order of
//! their ids (two people changing their addresses at once, each with entries in the same teams,
//! would otherwise lock them in opposite orders and deadlock).
//!
//! On PostgreSQL the trigger cannot miss an entry a transaction still in progress is changing:
//! a change that names a new `updated_by` checks the foreign key, which takes a key-share lock on
//! the person's row, and a change of their address (a column with a unique index) waits for it,
//! so the trigger's statement then sees the entry committed. An entry that named them already is
//! seen either way.

use sea_orm_migration::{prelude::*, sea_orm::DatabaseBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The teams with an entry changed last by the person whose address changed.
const CHANGED: &str = "SELECT team_id FROM inventory_threads WHERE updated_by = NEW.id";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_index(
                Index::create()
                    .name("idx_inventory_threads_updated_by")
                    .table(InventoryThreads::Table)
                    .col(InventoryThreads::UpdatedBy)
                    .to_owned(),
            )
            .await?;
        let db = manager.get_connection();
        match manager.get_database_backend() {
            DatabaseBackend::Postgres => {
                db.execute_unprepared(&format!(
                    "CREATE FUNCTION raise_threads_revision_of_changer() RETURNS trigger LANGUAGE plpgsql AS $$ \
                     BEGIN \
                         PERFORM 1 FROM teams WHERE id IN ({CHANGED}) ORDER BY id FOR NO KEY UPDATE; \
                         UPDATE teams SET threads_revision = threads_revision + 1 WHERE id IN ({CHANGED}); \
                         RETURN NULL; \
                     END $$"
                ))
                .await?;
                db.execute_unprepared(
                    "CREATE TRIGGER users_address_changed AFTER UPDATE OF email ON users \
                     FOR EACH ROW WHEN (OLD.email IS DISTINCT FROM NEW.email) \
                     EXECUTE FUNCTION raise_threads_revision_of_changer()",
                )
                .await?;
            }
            _ => {
                db.execute_unprepared(&format!(
                    "CREATE TRIGGER users_address_changed AFTER UPDATE OF email ON users \
                     FOR EACH ROW WHEN OLD.email IS NOT NEW.email BEGIN \
                         UPDATE teams SET threads_revision = threads_revision + 1 WHERE id IN ({CHANGED}); \
                     END"
                ))
                .await?;
            }
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        if manager.get_database_backend() == DatabaseBackend::Postgres {
            db.execute_unprepared("DROP TRIGGER users_address_changed ON users").await?;
            db.execute_unprepared("DROP FUNCTION raise_threads_revision_of_changer()").await?;
        } else {
            db.execute_unprepared("DROP TRIGGER users_address_changed").await?;
        }
        manager
            .drop_index(
                Index::drop()
                    .name("idx_inventory_threads_updated_by")
                    .table(InventoryThreads::Table)
                    .to_owned(),
            )
            .await
    }
}

#[derive(DeriveIden)]
enum InventoryThreads {
    Table,
    UpdatedBy,
}
