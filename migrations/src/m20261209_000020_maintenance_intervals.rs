//! Each machine keeps its own maintenance intervals (issue 52): JSON text, a list of
//! `bobbin_core::inventory::machine::Interval`, one per kind set. Machines listed before have
//! none set (`[]`), which reads as the defaults of every kind.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Machines::Table)
                    .add_column(text(Machines::MaintenanceIntervals).default("[]"))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter().table(Machines::Table).drop_column(Machines::MaintenanceIntervals).to_owned(),
            )
            .await
    }
}

#[derive(DeriveIden)]
enum Machines {
    Table,
    MaintenanceIntervals,
}
