//! Accounts and their sign-in sessions: the tables the auth service (`/auth/v1`) builds on.
//!
//! Identifiers are random UUIDs, never sequential, so nothing about the number of users leaks
//! through them. Times are stored with their time zone and written in UTC.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Users::Table)
                    .col(pk_uuid(Users::Id))
                    // Stored lower-cased by the server, so uniqueness is case-insensitive on both
                    // databases without relying on PostgreSQL's citext.
                    .col(string_len_uniq(Users::Email, 320))
                    // Argon2id PHC string; empty for accounts that only sign in through OAuth.
                    .col(string_null(Users::EncryptedPassword))
                    .col(timestamp_with_time_zone_null(Users::EmailConfirmedAt))
                    .col(timestamp_with_time_zone_null(Users::LastSignInAt))
                    // `user_metadata` (editable by the user, e.g. full_name) and `app_metadata`
                    // (set by the server only, e.g. provider) of the auth API.
                    .col(json(Users::RawUserMetaData))
                    .col(json(Users::RawAppMetaData))
                    .col(timestamp_with_time_zone(Users::CreatedAt))
                    .col(timestamp_with_time_zone(Users::UpdatedAt))
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(Sessions::Table)
                    .col(pk_uuid(Sessions::Id))
                    .col(uuid(Sessions::UserId))
                    // Authenticator assurance level: aal1 (password, link) or aal2 (with a factor).
                    .col(string_len(Sessions::Aal, 8))
                    .col(timestamp_with_time_zone_null(Sessions::NotAfter))
                    .col(timestamp_with_time_zone_null(Sessions::RefreshedAt))
                    .col(string_len_null(Sessions::UserAgent, 512))
                    .col(string_len_null(Sessions::Ip, 64))
                    .col(timestamp_with_time_zone(Sessions::CreatedAt))
                    .col(timestamp_with_time_zone(Sessions::UpdatedAt))
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_sessions_user")
                            .from(Sessions::Table, Sessions::UserId)
                            .to(Users::Table, Users::Id)
                            // Deleting an account ends all of its sessions.
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;

        manager
            .create_index(
                Index::create()
                    .name("idx_sessions_user_id")
                    .table(Sessions::Table)
                    .col(Sessions::UserId)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(Sessions::Table).to_owned()).await?;
        manager.drop_table(Table::drop().table(Users::Table).to_owned()).await
    }
}

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
    Email,
    EncryptedPassword,
    EmailConfirmedAt,
    LastSignInAt,
    RawUserMetaData,
    RawAppMetaData,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum Sessions {
    Table,
    Id,
    UserId,
    Aal,
    NotAfter,
    RefreshedAt,
    UserAgent,
    Ip,
    CreatedAt,
    UpdatedAt,
}
