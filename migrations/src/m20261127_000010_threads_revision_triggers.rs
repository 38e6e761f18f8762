//! The database itself raises a team's `threads_revision` (migration 6) whenever a row of its
//! thread inventory is added, changed or removed, in the transaction that does it.
//!
//! The server used to raise it with a statement of its own in each change's transaction. A `+1`
//! then took four round trips to the database while it held SQLite's one write lock (begin, the
//! change, the revision, commit); with the trigger it takes three. No change can forget it
//! either, whatever makes it. (A change must still raise the entry's `version`, which the
//! servers' copies keep whole entries by.)
//!
//! This is the one migration written in each dialect's own SQL: sea-query has no statement for
//! triggers. The server's tests run both.
//!
//! SQLite's triggers run for each row, in the statement. PostgreSQL's is a constraint trigger
//! deferred to the commit: there it runs for each row changed, and raises each team's revision
//! once a transaction (the teams raised so far are noted in a setting local to the transaction,
//! `bobbin.threads_raised`). Readers see the revision only once the transaction commits, so once
//! is enough: an import, which writes entry after entry in one transaction, was much slower with
//! a raise a statement. At the commit, because the team row is then locked after the entries, as
//! the server's own statement used to lock it: raised with the first change of a transaction, it
//! would stay locked while the transaction went on to lock more entries, and a `+1` on one of
//! those, holding its entry and waiting for the team row, would deadlock with it.
//! The triggers make an import a little slower, on SQLite more than on PostgreSQL.

use sea_orm_migration::{prelude::*, sea_orm::DatabaseBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// SQLite's trigger for each kind of change, with the row whose team it raises.
const SQLITE_TRIGGERS: [(&str, &str, &str); 3] =
    [("inserted", "INSERT", "NEW"), ("updated", "UPDATE", "NEW"), ("deleted", "DELETE", "OLD")];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        match manager.get_database_backend() {
            DatabaseBackend::Postgres => {
                db.execute_unprepared(
                    "CREATE FUNCTION raise_threads_revision() RETURNS trigger LANGUAGE plpgsql AS $$ \
                     DECLARE \
                         team uuid; \
                         raised text := coalesce(current_setting('bobbin.threads_raised', true), ''); \
                     BEGIN \
                         IF TG_OP = 'DELETE' THEN team := OLD.team_id; ELSE team := NEW.team_id; END IF; \
                         IF position(team::text IN raised) = 0 THEN \
                             UPDATE teams SET threads_revision = threads_revision + 1 WHERE id = team; \
                             PERFORM set_config('bobbin.threads_raised', raised || team::text || ' ', true); \
                         END IF; \
                         RETURN NULL; \
                     END $$",
                )
                .await?;
                db.execute_unprepared(
                    "CREATE CONSTRAINT TRIGGER inventory_threads_changed \
                     AFTER INSERT OR UPDATE OR DELETE ON inventory_threads \
                     DEFERRABLE INITIALLY DEFERRED \
                     FOR EACH ROW EXECUTE FUNCTION raise_threads_revision()",
                )
                .await?;
            }
            _ => {
                for (name, event, row) in SQLITE_TRIGGERS {
                    db.execute_unprepared(&format!(
                        "CREATE TRIGGER inventory_threads_{name} AFTER {event} ON inventory_threads \
                         FOR EACH ROW BEGIN \
                             UPDATE teams SET threads_revision = threads_revision + 1 WHERE id = {row}.team_id; \
                         END"
                    ))
                    .await?;
                }
            }
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        if manager.get_database_backend() == DatabaseBackend::Postgres {
            db.execute_unprepared("DROP TRIGGER inventory_threads_changed ON inventory_threads").await?;
            db.execute_unprepared("DROP FUNCTION raise_threads_revision()").await?;
        } else {
            for (name, _, _) in SQLITE_TRIGGERS {
                db.execute_unprepared(&format!("DROP TRIGGER inventory_threads_{name}")).await?;
            }
        }
        Ok(())
    }
}
