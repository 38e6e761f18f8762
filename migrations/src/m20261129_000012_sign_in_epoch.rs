//! The sign-in epoch: one number, which the database raises in every transaction that changes
//! what a request's sign-in check reads (a session, a person, their second factors, who is in
//! which team, a team's name or its removal; and a team's default reorder point, migration 13),
//! in that transaction. It is raised to the time in
//! microseconds (or one more, if that is later), so it never takes the same value twice, even
//! when a backup is restored or the table made again.
//!
//! Each server keeps the sign-in checks it has read (`crates/server/src/auth/sign_in_cache.rs`)
//! with the epoch they were read at, and uses one only while the epoch read after the request
//! came is still that one: a session signed out, a password changed, a person disabled, on any
//! server or by the operator's commands, raises it, so every server sharing the database reads
//! the check again for the next request that comes. Reading one number is cheaper than reading
//! the check (on PostgreSQL, a single-row read takes much less of the machine's time than the
//! sign-in check's joins), and the requests that arrive while one read of it is under way share
//! the next.
//!
//! Written in each dialect's own SQL, as migrations 10 and 11 are: sea-query has no statement for
//! triggers. PostgreSQL's are constraint triggers deferred to the commit, as migration 10's are,
//! which raise the epoch once a transaction (noted in a setting local to it,
//! `bobbin.sign_in_raised`): the epoch's row is then locked only for the commit, after the rows
//! the transaction's statements lock (a transaction whose commit raises a thread revision after
//! the epoch locks that team's row first: `repo::account::delete`). `TRUNCATE` of one of these
//! tables, which runs no row trigger, raises it at once. SQLite's run for each row, in the
//! statement; its writers take turns anyway. What runs no trigger at all (triggers disabled by
//! hand, `session_replication_role = replica`) does not raise it: after such a change, the
//! servers must be restarted.
//!
//! A team's row also changes when its thread inventory does (`threads_revision`, migration 10):
//! that change is not one of the sign-in's and does not raise the epoch. A new session or a new
//! team does not either: a check is kept only once read, and a session nobody has read yet is in
//! no kept check; a team's check is kept only for a member, and a new team's first member is
//! added in its transaction, which that raises.

use sea_orm_migration::{prelude::*, sea_orm::DatabaseBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// Each trigger: its name, its table, the changes it follows, and whether it runs only when a
/// team's own columns change ([`TEAM_CHANGED`]).
const TRIGGERS: [(&str, &str, &str, bool); 6] = [
    ("sessions_sign_in_changed", "sessions", "UPDATE OR DELETE", false),
    ("users_sign_in_changed", "users", "UPDATE OR DELETE", false),
    ("mfa_factors_sign_in_changed", "mfa_factors", "INSERT OR UPDATE OR DELETE", false),
    ("team_members_sign_in_changed", "team_members", "INSERT OR UPDATE OR DELETE", false),
    ("teams_sign_in_changed", "teams", "UPDATE", true),
    ("teams_removed_sign_in_changed", "teams", "DELETE", false),
];

/// The columns of a team a sign-in check reads, whose change raises the epoch (its thread
/// revision, which every change of its inventory raises, is not one of them).
const TEAM_COLUMNS: [&str; 4] = ["name", "public_id", "created_at", "updated_at"];

/// The condition of a trigger that runs when one of [`TEAM_COLUMNS`] changed, in each dialect's
/// words for "is distinct from".
fn team_changed(distinct: &str) -> String {
    TEAM_COLUMNS.map(|column| format!("OLD.{column} {distinct} NEW.{column}")).join(" OR ")
}

/// The tables whose rows a sign-in check reads: on PostgreSQL, emptying one with `TRUNCATE`
/// (which runs no row trigger) raises the epoch too.
const TABLES: [&str; 5] = ["sessions", "users", "mfa_factors", "team_members", "teams"];

/// The epoch's next value, in each dialect: the time now in microseconds, or one more than it
/// was if that is later. It never takes a value twice, even when a backup of the database is
/// restored, or its table made again: a server's copies are used only at the very epoch they
/// were read at, so none read before is used again.
const NEXT_POSTGRES: &str = "greatest(epoch + 1, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint)";
const NEXT_SQLITE: &str = "max(epoch + 1, CAST((julianday('now') - 2440587.5) * 86400000000.0 AS INTEGER))";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(SignInEpoch::Table)
                    .col(ColumnDef::new(SignInEpoch::Id).integer().not_null().primary_key())
                    .col(ColumnDef::new(SignInEpoch::Epoch).big_integer().not_null())
                    .to_owned(),
            )
            .await?;
        let db = manager.get_connection();
        if manager.get_database_backend() == DatabaseBackend::Postgres {
            db.execute_unprepared(&format!(
                "INSERT INTO sign_in_epoch (id, epoch) SELECT 1, {}",
                NEXT_POSTGRES.replace("epoch + 1", "0")
            ))
            .await?;
            db.execute_unprepared(&format!(
                "CREATE FUNCTION raise_sign_in_epoch() RETURNS trigger LANGUAGE plpgsql AS $$ \
                 BEGIN \
                     IF current_setting('bobbin.sign_in_raised', true) IS DISTINCT FROM 'yes' THEN \
                         UPDATE sign_in_epoch SET epoch = {NEXT_POSTGRES} WHERE id = 1; \
                         PERFORM set_config('bobbin.sign_in_raised', 'yes', true); \
                     END IF; \
                     RETURN NULL; \
                 END $$"
            ))
            .await?;
            for (name, table, events, of_team) in TRIGGERS {
                let when = if of_team {
                    format!("WHEN ({})", team_changed("IS DISTINCT FROM"))
                } else {
                    String::new()
                };
                db.execute_unprepared(&format!(
                    "CREATE CONSTRAINT TRIGGER {name} AFTER {events} ON {table} \
                     DEFERRABLE INITIALLY DEFERRED \
                     FOR EACH ROW {when} EXECUTE FUNCTION raise_sign_in_epoch()"
                ))
                .await?;
            }
            for table in TABLES {
                db.execute_unprepared(&format!(
                    "CREATE TRIGGER {table}_emptied_sign_in_changed AFTER TRUNCATE ON {table} \
                     FOR EACH STATEMENT EXECUTE FUNCTION raise_sign_in_epoch()"
                ))
                .await?;
            }
        } else {
            db.execute_unprepared(&format!(
                "INSERT INTO sign_in_epoch (id, epoch) SELECT 1, {}",
                NEXT_SQLITE.replace("epoch + 1", "0")
            ))
            .await?;
            for (name, table, events, of_team) in TRIGGERS {
                let when = if of_team { format!("WHEN {}", team_changed("IS NOT")) } else { String::new() };
                // SQLite's triggers follow one kind of change each.
                for event in events.split(" OR ") {
                    let kind = event.to_lowercase();
                    db.execute_unprepared(&format!(
                        "CREATE TRIGGER {name}_{kind} AFTER {event} ON {table} FOR EACH ROW {when} BEGIN \
                             UPDATE sign_in_epoch SET epoch = {NEXT_SQLITE} WHERE id = 1; \
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
        for (name, table, events, _) in TRIGGERS {
            if manager.get_database_backend() == DatabaseBackend::Postgres {
                db.execute_unprepared(&format!("DROP TRIGGER {name} ON {table}")).await?;
            } else {
                for event in events.split(" OR ") {
                    db.execute_unprepared(&format!("DROP TRIGGER {name}_{}", event.to_lowercase())).await?;
                }
            }
        }
        if manager.get_database_backend() == DatabaseBackend::Postgres {
            for table in TABLES {
                db.execute_unprepared(&format!("DROP TRIGGER {table}_emptied_sign_in_changed ON {table}"))
                    .await?;
            }
            db.execute_unprepared("DROP FUNCTION raise_sign_in_epoch()").await?;
        }
        manager.drop_table(Table::drop().table(SignInEpoch::Table).to_owned()).await
    }
}

#[derive(DeriveIden)]
enum SignInEpoch {
    Table,
    Id,
    Epoch,
}
