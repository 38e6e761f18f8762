//! Everything else the auth service (`/auth/v1`) keeps: rotating refresh tokens, e-mailed one-time
//! tokens, PKCE flow state, OAuth identities, TOTP factors and their challenges, the JWT signing
//! key, rate-limit counters and the development outbox.
//!
//! Secrets the server only needs to recognise (refresh tokens, e-mailed link tokens and codes,
//! PKCE auth codes) are stored as SHA-256 hashes, so a copy of the database cannot be replayed.
//! Rate-limit counters live here rather than in one process's memory so that several server
//! instances sharing one PostgreSQL enforce one limit.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        extend_users_and_sessions(manager).await?;
        create_token_tables(manager).await?;
        create_account_tables(manager).await?;
        create_service_tables(manager).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            MailOutbox::Table.into_iden(),
            RateLimits::Table.into_iden(),
            SigningKeys::Table.into_iden(),
            MfaChallenges::Table.into_iden(),
            MfaFactors::Table.into_iden(),
            Identities::Table.into_iden(),
            OneTimeTokens::Table.into_iden(),
            FlowStates::Table.into_iden(),
            RefreshTokens::Table.into_iden(),
        ] {
            manager.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        manager
            .alter_table(Table::alter().table(Sessions::Table).drop_column(Sessions::Amr).to_owned())
            .await?;
        for column in
            [Users::ConfirmationSentAt, Users::RecoverySentAt, Users::EmailChange, Users::EmailChangeSentAt]
        {
            manager.alter_table(Table::alter().table(Users::Table).drop_column(column).to_owned()).await?;
        }
        Ok(())
    }
}

/// The new columns of `users` and `sessions`.
async fn extend_users_and_sessions(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    // SQLite alters one column per statement.
    for column in [
        timestamp_with_time_zone_null(Users::ConfirmationSentAt),
        timestamp_with_time_zone_null(Users::RecoverySentAt),
        string_len_null(Users::EmailChange, 320),
        timestamp_with_time_zone_null(Users::EmailChangeSentAt),
    ] {
        manager.alter_table(Table::alter().table(Users::Table).add_column(column).to_owned()).await?;
    }
    // The authentication methods of a session (`amr` claim): `[{"method":"password","timestamp":..}]`.
    manager
        .alter_table(Table::alter().table(Sessions::Table).add_column(json_null(Sessions::Amr)).to_owned())
        .await?;
    Ok(())
}

/// Refresh tokens, PKCE flow state and e-mailed one-time tokens.
async fn create_token_tables(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(RefreshTokens::Table)
                .col(pk_uuid(RefreshTokens::Id))
                .col(uuid(RefreshTokens::SessionId))
                .col(string_len_uniq(RefreshTokens::TokenHash, 64))
                // The token this one replaced: the family of a session is its chain.
                .col(uuid_null(RefreshTokens::ParentId))
                .col(boolean(RefreshTokens::Revoked))
                .col(timestamp_with_time_zone(RefreshTokens::CreatedAt))
                .col(timestamp_with_time_zone(RefreshTokens::UpdatedAt))
                .foreign_key(&mut cascade(
                    "fk_refresh_tokens_session",
                    RefreshTokens::Table,
                    RefreshTokens::SessionId,
                    Sessions::Table,
                    Sessions::Id,
                ))
                .to_owned(),
        )
        .await?;
    index(manager, "idx_refresh_tokens_session_id", RefreshTokens::Table, RefreshTokens::SessionId).await?;

    manager
        .create_table(
            Table::create()
                .table(FlowStates::Table)
                .col(pk_uuid(FlowStates::Id))
                .col(uuid_null(FlowStates::UserId))
                .col(string_len(FlowStates::CodeChallenge, 128))
                .col(string_len(FlowStates::CodeChallengeMethod, 8))
                // `email`, `recovery`, `magiclink`, `email_change` or an OAuth provider's name.
                .col(string_len(FlowStates::ProviderType, 32))
                .col(string_len(FlowStates::AuthenticationMethod, 32))
                .col(string_len_null(FlowStates::RedirectTo, 2048))
                // Set once the e-mailed link or the OAuth callback succeeded.
                .col(string_len_null(FlowStates::AuthCodeHash, 64).unique_key())
                .col(timestamp_with_time_zone_null(FlowStates::AuthCodeIssuedAt))
                .col(timestamp_with_time_zone(FlowStates::CreatedAt))
                .foreign_key(&mut cascade(
                    "fk_flow_states_user",
                    FlowStates::Table,
                    FlowStates::UserId,
                    Users::Table,
                    Users::Id,
                ))
                .to_owned(),
        )
        .await?;

    manager
        .create_table(
            Table::create()
                .table(OneTimeTokens::Table)
                .col(pk_uuid(OneTimeTokens::Id))
                .col(uuid(OneTimeTokens::UserId))
                // `confirmation`, `recovery`, `magiclink`, `email_change`.
                .col(string_len(OneTimeTokens::Kind, 32))
                // Hash of the secret in the e-mailed link.
                .col(string_len_uniq(OneTimeTokens::TokenHash, 64))
                // Hash of the six-digit code in the same e-mail, salted with the address.
                .col(string_len(OneTimeTokens::CodeHash, 64))
                // The address the e-mail went to (the new address for an e-mail change).
                .col(string_len(OneTimeTokens::RelatesTo, 320))
                .col(uuid_null(OneTimeTokens::FlowStateId))
                .col(timestamp_with_time_zone(OneTimeTokens::CreatedAt))
                .foreign_key(&mut cascade(
                    "fk_one_time_tokens_user",
                    OneTimeTokens::Table,
                    OneTimeTokens::UserId,
                    Users::Table,
                    Users::Id,
                ))
                .to_owned(),
        )
        .await?;
    index(manager, "idx_one_time_tokens_user_id", OneTimeTokens::Table, OneTimeTokens::UserId).await?;
    Ok(())
}

/// OAuth identities and TOTP factors with their challenges.
async fn create_account_tables(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(Identities::Table)
                .col(pk_uuid(Identities::Id))
                .col(uuid(Identities::UserId))
                .col(string_len(Identities::Provider, 32))
                // The user's id at the provider (the user id itself for `email`).
                .col(string_len(Identities::ProviderId, 255))
                .col(json(Identities::IdentityData))
                .col(string_len_null(Identities::Email, 320))
                .col(timestamp_with_time_zone_null(Identities::LastSignInAt))
                .col(timestamp_with_time_zone(Identities::CreatedAt))
                .col(timestamp_with_time_zone(Identities::UpdatedAt))
                .foreign_key(&mut cascade(
                    "fk_identities_user",
                    Identities::Table,
                    Identities::UserId,
                    Users::Table,
                    Users::Id,
                ))
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("idx_identities_provider_id")
                .table(Identities::Table)
                .col(Identities::Provider)
                .col(Identities::ProviderId)
                .unique()
                .to_owned(),
        )
        .await?;
    index(manager, "idx_identities_user_id", Identities::Table, Identities::UserId).await?;

    manager
        .create_table(
            Table::create()
                .table(MfaFactors::Table)
                .col(pk_uuid(MfaFactors::Id))
                .col(uuid(MfaFactors::UserId))
                .col(string_len_null(MfaFactors::FriendlyName, 100))
                .col(string_len(MfaFactors::FactorType, 16))
                // `unverified` until the first code is verified, then `verified`.
                .col(string_len(MfaFactors::Status, 16))
                // The TOTP secret (base32). It must be readable to check codes, so it cannot be
                // hashed; anyone who can read this table can also read the signing key.
                .col(string_len(MfaFactors::Secret, 64))
                // The last accepted 30-second step: a code is never accepted twice.
                .col(big_integer_null(MfaFactors::LastUsedStep))
                .col(timestamp_with_time_zone(MfaFactors::CreatedAt))
                .col(timestamp_with_time_zone(MfaFactors::UpdatedAt))
                .foreign_key(&mut cascade(
                    "fk_mfa_factors_user",
                    MfaFactors::Table,
                    MfaFactors::UserId,
                    Users::Table,
                    Users::Id,
                ))
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("idx_mfa_factors_user_friendly_name")
                .table(MfaFactors::Table)
                .col(MfaFactors::UserId)
                .col(MfaFactors::FriendlyName)
                .unique()
                .to_owned(),
        )
        .await?;

    manager
        .create_table(
            Table::create()
                .table(MfaChallenges::Table)
                .col(pk_uuid(MfaChallenges::Id))
                .col(uuid(MfaChallenges::FactorId))
                .col(string_len_null(MfaChallenges::Ip, 64))
                .col(timestamp_with_time_zone(MfaChallenges::CreatedAt))
                .col(timestamp_with_time_zone_null(MfaChallenges::VerifiedAt))
                .foreign_key(&mut cascade(
                    "fk_mfa_challenges_factor",
                    MfaChallenges::Table,
                    MfaChallenges::FactorId,
                    MfaFactors::Table,
                    MfaFactors::Id,
                ))
                .to_owned(),
        )
        .await?;
    Ok(())
}

/// The signing key, rate-limit counters and the development outbox.
async fn create_service_tables(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(SigningKeys::Table)
                // The JWT `kid`.
                .col(string_len(SigningKeys::Id, 64).primary_key())
                .col(string_len(SigningKeys::Algorithm, 16))
                // PKCS#8 PEM of the private key.
                .col(text(SigningKeys::PrivateKey))
                .col(timestamp_with_time_zone(SigningKeys::CreatedAt))
                .to_owned(),
        )
        .await?;

    manager
        .create_table(
            Table::create()
                .table(RateLimits::Table)
                // e.g. `token:ip:203.0.113.9` or `email:someone@example.com`.
                .col(string_len(RateLimits::Key, 400).primary_key())
                // Unix seconds: compared arithmetically in SQL on both databases.
                .col(big_integer(RateLimits::WindowStart))
                .col(integer(RateLimits::Count))
                .to_owned(),
        )
        .await?;

    manager
        .create_table(
            Table::create()
                .table(MailOutbox::Table)
                .col(pk_uuid(MailOutbox::Id))
                .col(string_len(MailOutbox::ToAddress, 320))
                .col(string_len(MailOutbox::Subject, 200))
                .col(text(MailOutbox::TextBody))
                .col(text(MailOutbox::HtmlBody))
                .col(timestamp_with_time_zone(MailOutbox::CreatedAt))
                .to_owned(),
        )
        .await
}

/// A foreign key whose rows go when the row they point at goes.
fn cascade(
    name: &str,
    from: impl IntoIden,
    from_col: impl IntoIden,
    to: impl IntoIden,
    to_col: impl IntoIden,
) -> ForeignKeyCreateStatement {
    ForeignKey::create()
        .name(name)
        .from(from, from_col)
        .to(to, to_col)
        .on_delete(ForeignKeyAction::Cascade)
        .to_owned()
}

async fn index(
    manager: &SchemaManager<'_>,
    name: &str,
    table: impl IntoIden,
    column: impl IntoIden,
) -> Result<(), DbErr> {
    manager.create_index(Index::create().name(name).table(table).col(column).to_owned()).await
}

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
    ConfirmationSentAt,
    RecoverySentAt,
    EmailChange,
    EmailChangeSentAt,
}

#[derive(DeriveIden)]
enum Sessions {
    Table,
    Id,
    Amr,
}

#[derive(DeriveIden)]
enum RefreshTokens {
    Table,
    Id,
    SessionId,
    TokenHash,
    ParentId,
    Revoked,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum FlowStates {
    Table,
    Id,
    UserId,
    CodeChallenge,
    CodeChallengeMethod,
    ProviderType,
    AuthenticationMethod,
    RedirectTo,
    AuthCodeHash,
    AuthCodeIssuedAt,
    CreatedAt,
}

#[derive(DeriveIden)]
enum OneTimeTokens {
    Table,
    Id,
    UserId,
    Kind,
    TokenHash,
    CodeHash,
    RelatesTo,
    FlowStateId,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Identities {
    Table,
    Id,
    UserId,
    Provider,
    ProviderId,
    IdentityData,
    Email,
    LastSignInAt,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum MfaFactors {
    Table,
    Id,
    UserId,
    FriendlyName,
    FactorType,
    Status,
    Secret,
    LastUsedStep,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum MfaChallenges {
    Table,
    Id,
    FactorId,
    Ip,
    CreatedAt,
    VerifiedAt,
}

#[derive(DeriveIden)]
enum SigningKeys {
    Table,
    Id,
    Algorithm,
    PrivateKey,
    CreatedAt,
}

#[derive(DeriveIden)]
enum RateLimits {
    Table,
    Key,
    WindowStart,
    Count,
}

#[derive(DeriveIden)]
enum MailOutbox {
    Table,
    Id,
    ToAddress,
    Subject,
    TextBody,
    HtmlBody,
    CreatedAt,
}
