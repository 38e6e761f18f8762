//! The servers read every permission afresh (issue 47), so the sign-in epoch and its triggers
//! (migrations 12 and 13) go, and so do the triggers that raised a team's thread revision when
//! the address of someone who changed an entry changed (migration 11): a page of the thread list
//! now reads those addresses with its entries.
//!
//! A team's thread revision (migrations 6 and 10) becomes a random number, new with each
//! change, instead of the old one plus one. A server uses its copy of a team's entries only when
//! the copy's revision is exactly the team's: with a counter, a backup restored under running
//! servers moved it back, and the changes after it counted up again into numbers the copies
//! already held for other entries. A random revision never comes back.
//!
//! `down` puts each of them back as it was, with the migrations' own code.

use sea_orm_migration::{prelude::*, sea_orm::DatabaseBackend};

use crate::{
    m20261127_000010_threads_revision_triggers as revision_triggers,
    m20261127_000011_changer_address_triggers as changer_address_triggers,
    m20261129_000012_sign_in_epoch as sign_in_epoch,
    m20261129_000013_reorder_point_sign_in_epoch as reorder_point_sign_in_epoch,
};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// SQLite's trigger for each kind of change, with the row whose team it raises (the names of
/// migration 10's).
const SQLITE_TRIGGERS: [(&str, &str, &str); 3] =
    [("inserted", "INSERT", "NEW"), ("updated", "UPDATE", "NEW"), ("deleted", "DELETE", "OLD")];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        reorder_point_sign_in_epoch::Migration.down(manager).await?;
        sign_in_epoch::Migration.down(manager).await?;
        changer_address_triggers::Migration.down(manager).await?;
        revision_triggers::Migration.down(manager).await?;
        let db = manager.get_connection();
        match manager.get_database_backend() {
            DatabaseBackend::Postgres => {
                // As migration 10's, once a team a transaction, at the commit; only the value
                // is new. random() has 52 random bits.
                db.execute_unprepared(
                    "CREATE FUNCTION raise_threads_revision() RETURNS trigger LANGUAGE plpgsql AS $$ \
                     DECLARE \
                         team uuid; \
                         raised text := coalesce(current_setting('bobbin.threads_raised', true), ''); \
                     BEGIN \
                         IF TG_OP = 'DELETE' THEN team := OLD.team_id; ELSE team := NEW.team_id; END IF; \
                         IF position(team::text IN raised) = 0 THEN \
                             UPDATE teams SET threads_revision = floor(random() * 9007199254740992)::bigint \
                                 WHERE id = team; \
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
                // SQLite's random() is a random 64-bit integer.
                for (name, event, row) in SQLITE_TRIGGERS {
                    db.execute_unprepared(&format!(
                        "CREATE TRIGGER inventory_threads_{name} AFTER {event} ON inventory_threads \
                         FOR EACH ROW BEGIN \
                             UPDATE teams SET threads_revision = random() WHERE id = {row}.team_id; \
                         END"
                    ))
                    .await?;
                }
            }
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // The triggers made above have migration 10's names.
        revision_triggers::Migration.down(manager).await?;
        revision_triggers::Migration.up(manager).await?;
        changer_address_triggers::Migration.up(manager).await?;
        sign_in_epoch::Migration.up(manager).await?;
        reorder_point_sign_in_epoch::Migration.up(manager).await
    }
}
