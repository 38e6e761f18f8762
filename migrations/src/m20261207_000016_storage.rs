//! The storage service area (issue 49): each team's files, as the Supabase Storage API serves
//! them (`crate::storage` in the server). The bytes live in the database, so a backup and every
//! server instance have them: `storage_blobs` holds each distinct content of a team once, by its
//! SHA-256; `storage_objects` names it in the team's bucket. The same file uploaded twice, or
//! copied, is one blob. Blobs are a team's own, never shared between teams: how fast an upload is
//! stored must not tell a stranger whether another team holds the same file. A blob no object names any more is removed by the periodic clean-up once it has been
//! unused for a while (`last_used_at`), so an upload that names an existing blob is never left
//! pointing at one removed at the same moment.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(StorageBlobs::Table)
                    .col(uuid(StorageBlobs::TeamId))
                    // Lower-case hex SHA-256 of the bytes.
                    .col(string_len(StorageBlobs::Sha256, 64))
                    .col(blob(StorageBlobs::Bytes))
                    .col(big_integer(StorageBlobs::Size))
                    .col(timestamp_with_time_zone(StorageBlobs::LastUsedAt))
                    .primary_key(Index::create().col(StorageBlobs::TeamId).col(StorageBlobs::Sha256))
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_storage_blobs_team")
                            .from(StorageBlobs::Table, StorageBlobs::TeamId)
                            .to(Teams::Table, Teams::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(StorageObjects::Table)
                    .col(uuid(StorageObjects::Id).primary_key())
                    .col(uuid(StorageObjects::TeamId))
                    // The object's key in its bucket: `folder/file.dst`.
                    .col(string_len(StorageObjects::Name, 1024))
                    .col(string_len(StorageObjects::Sha256, 64))
                    .col(big_integer(StorageObjects::Size))
                    .col(string_len(StorageObjects::Mimetype, 255))
                    .col(string_len(StorageObjects::CacheControl, 255))
                    // The uploader's own metadata, JSON.
                    .col(text_null(StorageObjects::UserMetadata))
                    .col(uuid_null(StorageObjects::Owner))
                    // What the core read of a design file, JSON: its summary and colour blocks,
                    // or why it could not; null for a file that is no design.
                    .col(text_null(StorageObjects::Design))
                    // A design's preview, SVG (the server draws it once, when the file comes).
                    .col(text_null(StorageObjects::Preview))
                    .col(timestamp_with_time_zone(StorageObjects::CreatedAt))
                    .col(timestamp_with_time_zone(StorageObjects::UpdatedAt))
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_storage_objects_team")
                            .from(StorageObjects::Table, StorageObjects::TeamId)
                            .to(Teams::Table, Teams::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_storage_objects_owner")
                            .from(StorageObjects::Table, StorageObjects::Owner)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::SetNull),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_storage_objects_blob")
                            .from_tbl(StorageObjects::Table)
                            .from_col(StorageObjects::TeamId)
                            .from_col(StorageObjects::Sha256)
                            .to_tbl(StorageBlobs::Table)
                            .to_col(StorageBlobs::TeamId)
                            .to_col(StorageBlobs::Sha256)
                            // A team's deletion removes its blobs and its objects at once.
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_storage_objects_team_name")
                    .table(StorageObjects::Table)
                    .col(StorageObjects::TeamId)
                    .col(StorageObjects::Name)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_storage_objects_blob")
                    .table(StorageObjects::Table)
                    .col(StorageObjects::TeamId)
                    .col(StorageObjects::Sha256)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(StorageObjects::Table).to_owned()).await?;
        manager.drop_table(Table::drop().table(StorageBlobs::Table).to_owned()).await
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
enum StorageBlobs {
    Table,
    TeamId,
    Sha256,
    Bytes,
    Size,
    LastUsedAt,
}

#[derive(DeriveIden)]
enum StorageObjects {
    Table,
    Id,
    TeamId,
    Name,
    Sha256,
    Size,
    Mimetype,
    CacheControl,
    UserMetadata,
    Owner,
    Design,
    Preview,
    CreatedAt,
    UpdatedAt,
}
