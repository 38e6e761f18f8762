//! Saved quotes of the pricing calculator, per team.
//!
//! A quote keeps what was priced (the price list, the job, and the design's name and figures if
//! one was read) and the result, as JSON text, so reopening it shows exactly what the customer
//! was told even after the team's rates change. The name, currency, quantity and totals are
//! columns of their own for the list. Money is decimal text (`"356.00"`), never a float.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Quotes::Table)
                    .col(pk_uuid(Quotes::Id))
                    .col(string_len_uniq(Quotes::PublicId, 32))
                    .col(uuid(Quotes::TeamId))
                    .col(string_len(Quotes::Name, 200))
                    .col(string_len(Quotes::Currency, 3))
                    .col(integer(Quotes::Quantity))
                    .col(string_len(Quotes::PerPiece, 40))
                    .col(string_len(Quotes::Total, 40))
                    // `{ rates, job, design }` and the `Quote`, as JSON.
                    .col(text(Quotes::Input))
                    .col(text(Quotes::Result))
                    .col(uuid_null(Quotes::CreatedBy))
                    .col(timestamp_with_time_zone(Quotes::CreatedAt))
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_quotes_team")
                            .from(Quotes::Table, Quotes::TeamId)
                            .to(Teams::Table, Teams::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_quotes_created_by")
                            .from(Quotes::Table, Quotes::CreatedBy)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::SetNull),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_quotes_team_created")
                    .table(Quotes::Table)
                    .col(Quotes::TeamId)
                    .col(Quotes::CreatedAt)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(Quotes::Table).to_owned()).await
    }
}

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Teams {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Quotes {
    Table,
    Id,
    PublicId,
    TeamId,
    Name,
    Currency,
    Quantity,
    PerPiece,
    Total,
    Input,
    Result,
    CreatedBy,
    CreatedAt,
}
