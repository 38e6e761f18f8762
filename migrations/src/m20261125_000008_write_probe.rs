//! A one-row table the server writes to learn whether the database takes writes: at start (a
//! read-only file or server is refused with the reason) and from `/healthz` after a request met
//! a full disk or a read-only database (to see whether it has recovered). `room` holds 64 KiB of
//! random bytes (PostgreSQL cannot compress them away), so a disk with room for one small row but
//! not for real work does not pass for recovered.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(WriteProbes::Table)
                    .col(integer(WriteProbes::Id).primary_key())
                    .col(big_integer(WriteProbes::WrittenAt))
                    .col(blob(WriteProbes::Room))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(WriteProbes::Table).to_owned()).await
    }
}

#[derive(DeriveIden)]
enum WriteProbes {
    Table,
    Id,
    WrittenAt,
    Room,
}
