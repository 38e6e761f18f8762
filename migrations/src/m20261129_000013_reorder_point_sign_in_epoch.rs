//! A team's default reorder point raises the sign-in epoch (migration 12) when it is set, changed
//! or removed, in that transaction: the team routes' sign-in check reads it beside the membership
//! (every answer about the team's threads needs it), and each server keeps that check while the
//! epoch holds (`crates/server/src/auth/sign_in_cache.rs`). The team's other settings (its
//! currency, say) are read by their own requests, not by the check, and raise nothing.
//!
//! In each dialect's own SQL, through migration 12's function on PostgreSQL (raised once a
//! transaction, at its commit); `TRUNCATE` of the settings raises it at once there too.

use sea_orm_migration::{prelude::*, sea_orm::DatabaseBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// Migration 12's next epoch on SQLite, written out again: a migration's SQL must not change
/// once it has run somewhere, whatever later ones do.
const NEXT_SQLITE: &str = "max(epoch + 1, CAST((julianday('now') - 2440587.5) * 86400000000.0 AS INTEGER))";

/// The setting the check reads: `bobbin_core::settings::DEFAULT_REORDER_POINT` (the migrations do
/// not depend on the core).
const KEY: &str = "default_reorder_point";

/// Each trigger: its name, the changes it follows, and the row it looks at (a removed row has only
/// its old values, an added one only its new).
const TRIGGERS: [(&str, &str, &str); 3] = [
    ("team_settings_sign_in_added", "INSERT", "NEW"),
    ("team_settings_sign_in_changed", "UPDATE", "NEW"),
    ("team_settings_sign_in_removed", "DELETE", "OLD"),
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        let postgres = manager.get_database_backend() == DatabaseBackend::Postgres;
        for (name, event, row) in TRIGGERS {
            // An update that renames the key away from it (no code does) is seen by its new key
            // only; the old row's key is checked too.
            let when = if event == "UPDATE" {
                format!("({row}.key = '{KEY}' OR OLD.key = '{KEY}')")
            } else {
                format!("{row}.key = '{KEY}'")
            };
            let sql = if postgres {
                format!(
                    "CREATE CONSTRAINT TRIGGER {name} AFTER {event} ON team_settings \
                     DEFERRABLE INITIALLY DEFERRED \
                     FOR EACH ROW WHEN ({when}) EXECUTE FUNCTION raise_sign_in_epoch()"
                )
            } else {
                format!(
                    "CREATE TRIGGER {name} AFTER {event} ON team_settings FOR EACH ROW WHEN {when} BEGIN \
                         UPDATE sign_in_epoch SET epoch = {NEXT_SQLITE} WHERE id = 1; \
                     END"
                )
            };
            db.execute_unprepared(&sql).await?;
        }
        if postgres {
            db.execute_unprepared(
                "CREATE TRIGGER team_settings_emptied_sign_in_changed AFTER TRUNCATE ON team_settings \
                 FOR EACH STATEMENT EXECUTE FUNCTION raise_sign_in_epoch()",
            )
            .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        let postgres = manager.get_database_backend() == DatabaseBackend::Postgres;
        for (name, _, _) in TRIGGERS {
            let on = if postgres { " ON team_settings" } else { "" };
            db.execute_unprepared(&format!("DROP TRIGGER {name}{on}")).await?;
        }
        if postgres {
            db.execute_unprepared("DROP TRIGGER team_settings_emptied_sign_in_changed ON team_settings")
                .await?;
        }
        Ok(())
    }
}
