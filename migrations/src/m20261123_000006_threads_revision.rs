//! A counter on each team, raised in the same transaction as every change to its thread
//! inventory. A server keeps a team's thread list in memory and reads it again only when the
//! counter has moved, so the list does not read every entry from the database on each request,
//! and servers sharing one database never serve one another's stale copy.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Teams::Table)
                    .add_column(big_integer(Teams::ThreadsRevision).default(0))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(Table::alter().table(Teams::Table).drop_column(Teams::ThreadsRevision).to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum Teams {
    Table,
    ThreadsRevision,
}
