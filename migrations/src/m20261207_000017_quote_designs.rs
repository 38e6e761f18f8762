//! A saved quote names the design of the team's library it was priced from (issue 49): the
//! design's page lists the quotes that use it, and a reopened quote shows its preview again. No
//! foreign key: a design removed from the library leaves its quotes their figures, and the id
//! then finds nothing.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter().table(Quotes::Table).add_column(uuid_null(Quotes::DesignId)).to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_quotes_design")
                    .table(Quotes::Table)
                    .col(Quotes::TeamId)
                    .col(Quotes::DesignId)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_index(Index::drop().name("idx_quotes_design").table(Quotes::Table).to_owned()).await?;
        manager
            .alter_table(Table::alter().table(Quotes::Table).drop_column(Quotes::DesignId).to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum Quotes {
    Table,
    TeamId,
    DesignId,
}
