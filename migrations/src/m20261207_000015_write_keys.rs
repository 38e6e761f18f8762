//! The writes a client may send again (issue 48): a request that carries an `Idempotency-Key`
//! leaves its key here, in the transaction of its change, with a digest of the request and the
//! answer it was given. The same key sent again by the same person in the same team answers that
//! answer and changes nothing; with another request, it is refused. Rows older than a day go in
//! the periodic clean-up.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(WriteKeys::Table)
                    .col(uuid(WriteKeys::TeamId))
                    .col(uuid(WriteKeys::UserId))
                    .col(string_len(WriteKeys::Key, 255))
                    // SHA-256 of the method, the path and the body, in hex.
                    .col(string_len(WriteKeys::Request, 64))
                    // The answer's body, JSON.
                    .col(text(WriteKeys::Answer))
                    .col(timestamp_with_time_zone(WriteKeys::CreatedAt))
                    .primary_key(
                        Index::create().col(WriteKeys::TeamId).col(WriteKeys::UserId).col(WriteKeys::Key),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_write_keys_team")
                            .from(WriteKeys::Table, WriteKeys::TeamId)
                            .to(Teams::Table, Teams::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_write_keys_user")
                            .from(WriteKeys::Table, WriteKeys::UserId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_write_keys_created")
                    .table(WriteKeys::Table)
                    .col(WriteKeys::CreatedAt)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(WriteKeys::Table).to_owned()).await
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
enum WriteKeys {
    Table,
    TeamId,
    UserId,
    Key,
    Request,
    Answer,
    CreatedAt,
}
