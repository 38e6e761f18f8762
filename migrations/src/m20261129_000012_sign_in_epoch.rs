//! The sign-in epoch: one number, which the database raises in every transaction that changes
//! what a request's sign-in check reads (a session, a person, their second factors, who is in
//! which team, a team's name or its removal), in that transaction.
//!
//! Each server keeps the sign-in checks it has read (`crates/server/src/auth/sign_in_cache.rs`)
//! with the epoch they were read at, and uses one only while the epoch read after the request
//! came is still that one: a session signed out, a password changed, a person disabled, on any
//! server or by the operator's commands, raises it, so every server sharing the database reads
//! the check again for the next request that comes. Reading one number is cheaper than reading
//! the check (on PostgreSQL, a single-row read takes two fifths of the machine time of the sign-in
//! check's joins), and the requests that arrive while one read of it is under way share the
//! next.
//!
//! Written in each dialect's own SQL, as migrations 10 and 11 are: sea-query has no statement for
//! triggers. PostgreSQL's are constraint triggers deferred to the commit, as migration 10's are,
//! which raise the epoch once a transaction (noted in a setting local to it,
//! `bobbin.sign_in_raised`): the epoch's row is then locked only for the commit, after every
//! other row the transaction locks, so two writers do not wait on each other's rows through it.
//! SQLite's run for each row, in the statement; its writers take turns anyway.
//!
//! A team's row also changes when its thread inventory does (`threads_revision`, migration 10):
//! that change is not one of the sign-in's and does not raise the epoch. A new session or a new
//! team does not either: a check is kept only once read, and a session or team nobody has read
//! yet is in no kept check.

use sea_orm_migration::{prelude::*, sea_orm::DatabaseBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// Each trigger: its name, its table, the changes it follows, and the condition it runs on
/// (PostgreSQL's syntax; SQLite's is the same here but for the parentheses).
const TRIGGERS: [(&str, &str, &str, Option<&str>); 6] = [
    ("sessions_sign_in_changed", "sessions", "UPDATE OR DELETE", None),
    ("users_sign_in_changed", "users", "UPDATE OR DELETE", None),
    ("mfa_factors_sign_in_changed", "mfa_factors", "INSERT OR UPDATE OR DELETE", None),
    ("team_members_sign_in_changed", "team_members", "INSERT OR UPDATE OR DELETE", None),
    ("teams_sign_in_changed", "teams", "UPDATE", Some("OLD.threads_revision = NEW.threads_revision")),
    ("teams_removed_sign_in_changed", "teams", "DELETE", None),
];

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
        manager
            .exec_stmt(
                Query::insert()
                    .into_table(SignInEpoch::Table)
                    .columns([SignInEpoch::Id, SignInEpoch::Epoch])
                    .values_panic([1.into(), 0.into()])
                    .to_owned(),
            )
            .await?;
        let db = manager.get_connection();
        match manager.get_database_backend() {
            DatabaseBackend::Postgres => {
                db.execute_unprepared(
                    "CREATE FUNCTION raise_sign_in_epoch() RETURNS trigger LANGUAGE plpgsql AS $$ \
                     BEGIN \
                         IF current_setting('bobbin.sign_in_raised', true) IS DISTINCT FROM 'yes' THEN \
                             UPDATE sign_in_epoch SET epoch = epoch + 1 WHERE id = 1; \
                             PERFORM set_config('bobbin.sign_in_raised', 'yes', true); \
                         END IF; \
                         RETURN NULL; \
                     END $$",
                )
                .await?;
                for (name, table, events, condition) in TRIGGERS {
                    let when = condition.map(|condition| format!("WHEN ({condition})")).unwrap_or_default();
                    db.execute_unprepared(&format!(
                        "CREATE CONSTRAINT TRIGGER {name} AFTER {events} ON {table} \
                         DEFERRABLE INITIALLY DEFERRED \
                         FOR EACH ROW {when} EXECUTE FUNCTION raise_sign_in_epoch()"
                    ))
                    .await?;
                }
            }
            _ => {
                for (name, table, events, condition) in TRIGGERS {
                    let when = condition.map(|condition| format!("WHEN {condition}")).unwrap_or_default();
                    // SQLite's triggers follow one kind of change each.
                    for event in events.split(" OR ") {
                        let kind = event.to_lowercase();
                        db.execute_unprepared(&format!(
                            "CREATE TRIGGER {name}_{kind} AFTER {event} ON {table} FOR EACH ROW {when} BEGIN \
                                 UPDATE sign_in_epoch SET epoch = epoch + 1 WHERE id = 1; \
                             END"
                        ))
                        .await?;
                    }
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
