//! What the security rules of the auth service need (SECURITY.md):
//!
//! - each e-mailed one-time token counts the wrong codes tried against it (`attempts`: void
//!   after five), and a sign-up's token carries the password of that sign-up (`password_hash`),
//!   set on the account only when that token's link or code proves the address;
//! - each rate-limit row says when it may be forgotten (`expires_at`, Unix seconds), so the
//!   background pruning deletes old rows whatever bucket they count;
//! - a TOTP secret may be stored encrypted, which is longer than the 64 characters its column
//!   allowed (PostgreSQL only: SQLite does not enforce lengths and cannot alter a column);
//! - team names stored before names were cleaned lose their bidirectional formatting
//!   characters (`bobbin_core::text`), as new names do.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // SQLite alters one column per statement.
        for column in
            [integer(OneTimeTokens::Attempts).default(0).to_owned(), text_null(OneTimeTokens::PasswordHash)]
        {
            manager
                .alter_table(Table::alter().table(OneTimeTokens::Table).add_column(column).to_owned())
                .await?;
        }
        manager
            .alter_table(
                Table::alter()
                    .table(RateLimits::Table)
                    .add_column(big_integer(RateLimits::ExpiresAt).default(0))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_rate_limits_expires_at")
                    .table(RateLimits::Table)
                    .col(RateLimits::ExpiresAt)
                    .to_owned(),
            )
            .await?;
        clean_team_names(manager).await?;
        if manager.get_database_backend() == sea_orm::DatabaseBackend::Postgres {
            manager
                .alter_table(
                    Table::alter()
                        .table(MfaFactors::Table)
                        .modify_column(ColumnDef::new(MfaFactors::Secret).text().not_null())
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(Index::drop().name("idx_rate_limits_expires_at").table(RateLimits::Table).to_owned())
            .await?;
        manager
            .alter_table(
                Table::alter().table(RateLimits::Table).drop_column(RateLimits::ExpiresAt).to_owned(),
            )
            .await?;
        for column in [OneTimeTokens::Attempts, OneTimeTokens::PasswordHash] {
            manager
                .alter_table(Table::alter().table(OneTimeTokens::Table).drop_column(column).to_owned())
                .await?;
        }
        // The TOTP secret column stays text: an encrypted secret would not fit back.
        Ok(())
    }
}

/// Rewrites every team name that holds a bidirectional formatting character. (A name made only
/// of them would be empty: it becomes "Team", as no name may be empty.)
async fn clean_team_names(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    let db = manager.get_connection();
    let select = Query::select().columns([Teams::PublicId, Teams::Name]).from(Teams::Table).to_owned();
    for row in db.query_all(&select).await? {
        let name: String = row.try_get("", "name")?;
        if !name.chars().any(bobbin_core::text::is_bidi_control) {
            continue;
        }
        let cleaned = bobbin_core::text::without_bidi_controls(&name);
        let cleaned = if cleaned.is_empty() { "Team".to_owned() } else { cleaned };
        let public_id: String = row.try_get("", "public_id")?;
        let update = Query::update()
            .table(Teams::Table)
            .value(Teams::Name, cleaned)
            .and_where(Expr::col(Teams::PublicId).eq(public_id))
            .to_owned();
        db.execute(&update).await?;
    }
    Ok(())
}

#[derive(DeriveIden)]
enum Teams {
    Table,
    PublicId,
    Name,
}

#[derive(DeriveIden)]
enum OneTimeTokens {
    Table,
    Attempts,
    PasswordHash,
}

#[derive(DeriveIden)]
enum RateLimits {
    Table,
    ExpiresAt,
}

#[derive(DeriveIden)]
enum MfaFactors {
    Table,
    Secret,
}
