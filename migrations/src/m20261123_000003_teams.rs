//! Teams, their members, invites and settings, and each person's default team.
//!
//! A team is addressed from outside by its `public_id` (random, not guessable); its UUID `id`
//! is the key the other tables refer to. Invite tokens, like every secret the server only has
//! to recognise, are stored as SHA-256 hashes. Settings values are compact JSON text, so both
//! databases store them alike.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        create_teams_and_members(manager).await?;
        create_invites(manager).await?;
        create_settings(manager).await?;
        // The team the app opens first. No foreign key: SQLite cannot add one to an existing
        // table, and the profile only reports it while the person is still a member (a join),
        // so a deleted team or a left one simply stops being the default.
        manager
            .alter_table(
                Table::alter().table(Users::Table).add_column(uuid_null(Users::DefaultTeamId)).to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(Table::alter().table(Users::Table).drop_column(Users::DefaultTeamId).to_owned())
            .await?;
        for table in [
            MemberSettings::Table.into_iden(),
            TeamSettings::Table.into_iden(),
            TeamInvites::Table.into_iden(),
            TeamMembers::Table.into_iden(),
            Teams::Table.into_iden(),
        ] {
            manager.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        Ok(())
    }
}

async fn create_teams_and_members(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(Teams::Table)
                .col(pk_uuid(Teams::Id))
                .col(string_len_uniq(Teams::PublicId, 32))
                .col(string_len(Teams::Name, 400))
                .col(timestamp_with_time_zone(Teams::CreatedAt))
                .col(timestamp_with_time_zone(Teams::UpdatedAt))
                .to_owned(),
        )
        .await?;
    manager
        .create_table(
            Table::create()
                .table(TeamMembers::Table)
                .col(uuid(TeamMembers::TeamId))
                .col(uuid(TeamMembers::UserId))
                // owner, admin, member or viewer (bobbin_core::team::Role).
                .col(string_len(TeamMembers::Role, 16))
                .col(timestamp_with_time_zone(TeamMembers::CreatedAt))
                .col(timestamp_with_time_zone(TeamMembers::UpdatedAt))
                .primary_key(Index::create().col(TeamMembers::TeamId).col(TeamMembers::UserId))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_team_members_team")
                        .from(TeamMembers::Table, TeamMembers::TeamId)
                        .to(Teams::Table, Teams::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_team_members_user")
                        .from(TeamMembers::Table, TeamMembers::UserId)
                        .to(Users::Table, Users::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
    // "My teams" reads members by person.
    manager
        .create_index(
            Index::create()
                .name("idx_team_members_user")
                .table(TeamMembers::Table)
                .col(TeamMembers::UserId)
                .to_owned(),
        )
        .await
}

async fn create_invites(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(TeamInvites::Table)
                .col(pk_uuid(TeamInvites::Id))
                .col(string_len_uniq(TeamInvites::PublicId, 32))
                .col(uuid(TeamInvites::TeamId))
                // Lower-cased, as users.email.
                .col(string_len(TeamInvites::Email, 320))
                .col(string_len(TeamInvites::Role, 16))
                .col(string_len_uniq(TeamInvites::TokenHash, 64))
                .col(uuid_null(TeamInvites::InvitedBy))
                .col(timestamp_with_time_zone(TeamInvites::CreatedAt))
                .col(timestamp_with_time_zone(TeamInvites::ExpiresAt))
                .col(timestamp_with_time_zone_null(TeamInvites::AcceptedAt))
                .col(uuid_null(TeamInvites::AcceptedBy))
                .col(timestamp_with_time_zone_null(TeamInvites::RevokedAt))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_team_invites_team")
                        .from(TeamInvites::Table, TeamInvites::TeamId)
                        .to(Teams::Table, Teams::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_team_invites_invited_by")
                        .from(TeamInvites::Table, TeamInvites::InvitedBy)
                        .to(Users::Table, Users::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_team_invites_accepted_by")
                        .from(TeamInvites::Table, TeamInvites::AcceptedBy)
                        .to(Users::Table, Users::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .to_owned(),
        )
        .await?;
    // "My invites" reads by address; a team's invites by team.
    for (name, column) in
        [("idx_team_invites_email", TeamInvites::Email), ("idx_team_invites_team", TeamInvites::TeamId)]
    {
        manager
            .create_index(Index::create().name(name).table(TeamInvites::Table).col(column).to_owned())
            .await?;
    }
    Ok(())
}

async fn create_settings(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(TeamSettings::Table)
                .col(uuid(TeamSettings::TeamId))
                .col(string_len(TeamSettings::Key, 64))
                .col(text(TeamSettings::Value))
                .col(timestamp_with_time_zone(TeamSettings::UpdatedAt))
                .primary_key(Index::create().col(TeamSettings::TeamId).col(TeamSettings::Key))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_team_settings_team")
                        .from(TeamSettings::Table, TeamSettings::TeamId)
                        .to(Teams::Table, Teams::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
    manager
        .create_table(
            Table::create()
                .table(MemberSettings::Table)
                .col(uuid(MemberSettings::TeamId))
                .col(uuid(MemberSettings::UserId))
                .col(string_len(MemberSettings::Key, 64))
                .col(text(MemberSettings::Value))
                .col(timestamp_with_time_zone(MemberSettings::UpdatedAt))
                .primary_key(
                    Index::create()
                        .col(MemberSettings::TeamId)
                        .col(MemberSettings::UserId)
                        .col(MemberSettings::Key),
                )
                // A member's settings go when they leave the team (or the team goes).
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_member_settings_member")
                        .from(MemberSettings::Table, (MemberSettings::TeamId, MemberSettings::UserId))
                        .to(TeamMembers::Table, (TeamMembers::TeamId, TeamMembers::UserId))
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await
}

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
    DefaultTeamId,
}

#[derive(DeriveIden)]
enum Teams {
    Table,
    Id,
    PublicId,
    Name,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum TeamMembers {
    Table,
    TeamId,
    UserId,
    Role,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum TeamInvites {
    Table,
    Id,
    PublicId,
    TeamId,
    Email,
    Role,
    TokenHash,
    InvitedBy,
    CreatedAt,
    ExpiresAt,
    AcceptedAt,
    AcceptedBy,
    RevokedAt,
}

#[derive(DeriveIden)]
enum TeamSettings {
    Table,
    TeamId,
    Key,
    Value,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum MemberSettings {
    Table,
    TeamId,
    UserId,
    Key,
    Value,
    UpdatedAt,
}
