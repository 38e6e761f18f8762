//! An operator can disable an account (`bobbin users disable`): while `disabled_at` is set the
//! person cannot sign in or refresh a session.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Users::Table)
                    .add_column(timestamp_with_time_zone_null(Users::DisabledAt))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(Table::alter().table(Users::Table).drop_column(Users::DisabledAt).to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum Users {
    Table,
    DisabledAt,
}
