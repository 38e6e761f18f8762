//! Quotes a customer opens, approves and signs (issue 51).
//!
//! - `quotes` gains what makes it a document: a number per team (`Q-0001`, unique in the team),
//!   a status, the customer, the terms (the quantities offered, the shop's lines, the tax rate
//!   and notes, JSON), the offer (each quantity priced, JSON, fixed when the version is made), a
//!   validity date, the version (`revision`), who last sent it, the customer's answer (JSON) and
//!   the job made from it.
//! - `quote_numbers`: the last number each team gave, raised in the transaction that saves a
//!   quote, so numbers have no gaps or duplicates however many save at once.
//! - `quote_revisions`: each earlier version, as the customer saw it (JSON).
//! - `quote_events`: the quote's history: made, changed, sent, viewed, approved, declined,
//!   asked, link revoked, job made.
//! - `quote_links`: the links sent to customers, each kept only as the SHA-256 of its token.
//!
//! Quotes saved before become drafts numbered in the order they were saved, valid for 30 days
//! from then, offering the quantity they were priced at, with the tax rate of their price list.

use bobbin_core::pricing::{self, Job, Rates};
use bobbin_core::quote::{Terms, price_options};
use sea_orm_migration::{
    prelude::*,
    schema::*,
    sea_orm::prelude::{TimeDateTimeWithTimeZone, Uuid},
};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_document_columns(manager).await?;
        create_numbers(manager).await?;
        create_revisions(manager).await?;
        create_events(manager).await?;
        create_links(manager).await?;
        number_saved_quotes(manager).await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_quotes_team_number")
                    .table(Quotes::Table)
                    .col(Quotes::TeamId)
                    .col(Quotes::Number)
                    .unique()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            QuoteLinks::Table.into_iden(),
            QuoteEvents::Table.into_iden(),
            QuoteRevisions::Table.into_iden(),
            QuoteNumbers::Table.into_iden(),
        ] {
            manager.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        manager
            .drop_index(Index::drop().name("idx_quotes_team_number").table(Quotes::Table).to_owned())
            .await?;
        for column in [
            Quotes::Number,
            Quotes::Status,
            Quotes::Revision,
            Quotes::CustomerName,
            Quotes::CustomerEmail,
            Quotes::CustomerCompany,
            Quotes::Terms,
            Quotes::Offer,
            Quotes::ValidUntil,
            Quotes::IssuedOn,
            Quotes::SentBy,
            Quotes::Answer,
            Quotes::JobId,
        ] {
            manager.alter_table(Table::alter().table(Quotes::Table).drop_column(column).to_owned()).await?;
        }
        Ok(())
    }
}

async fn add_document_columns(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    // One column a statement: SQLite alters a table one column at a time. The defaults only fill
    // the rows saved before (`number_saved_quotes` writes their real values).
    let columns = [
        integer(Quotes::Number).default(0).to_owned(),
        string_len(Quotes::Status, 16).default("draft").to_owned(),
        integer(Quotes::Revision).default(1).to_owned(),
        string_len(Quotes::CustomerName, 200).default("").to_owned(),
        string_len(Quotes::CustomerEmail, 254).default("").to_owned(),
        string_len(Quotes::CustomerCompany, 200).default("").to_owned(),
        text(Quotes::Terms).default("{}").to_owned(),
        text(Quotes::Offer).default("[]").to_owned(),
        date(Quotes::ValidUntil).default("2000-01-01").to_owned(),
        date(Quotes::IssuedOn).default("2000-01-01").to_owned(),
        uuid_null(Quotes::SentBy),
        text_null(Quotes::Answer),
        uuid_null(Quotes::JobId),
    ];
    for mut column in columns {
        manager.alter_table(Table::alter().table(Quotes::Table).add_column(&mut column).to_owned()).await?;
    }
    Ok(())
}

async fn create_numbers(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(QuoteNumbers::Table)
                .col(pk_uuid(QuoteNumbers::TeamId))
                .col(integer(QuoteNumbers::Last))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_quote_numbers_team")
                        .from(QuoteNumbers::Table, QuoteNumbers::TeamId)
                        .to(Teams::Table, Teams::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await
}

async fn create_revisions(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(QuoteRevisions::Table)
                .col(pk_uuid(QuoteRevisions::Id))
                .col(uuid(QuoteRevisions::QuoteId))
                .col(integer(QuoteRevisions::Revision))
                .col(text(QuoteRevisions::Document))
                .col(timestamp_with_time_zone(QuoteRevisions::CreatedAt))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_quote_revisions_quote")
                        .from(QuoteRevisions::Table, QuoteRevisions::QuoteId)
                        .to(Quotes::Table, Quotes::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("idx_quote_revisions_quote")
                .table(QuoteRevisions::Table)
                .col(QuoteRevisions::QuoteId)
                .col(QuoteRevisions::Revision)
                .unique()
                .to_owned(),
        )
        .await
}

async fn create_events(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(QuoteEvents::Table)
                .col(pk_uuid(QuoteEvents::Id))
                .col(uuid(QuoteEvents::QuoteId))
                .col(string_len(QuoteEvents::Kind, 16))
                .col(integer(QuoteEvents::Revision))
                // The team member who did it; none for the customer's own actions.
                .col(uuid_null(QuoteEvents::UserId))
                // What the event says besides its kind (the address sent to, the name signed...).
                .col(text(QuoteEvents::Detail))
                .col(timestamp_with_time_zone(QuoteEvents::CreatedAt))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_quote_events_quote")
                        .from(QuoteEvents::Table, QuoteEvents::QuoteId)
                        .to(Quotes::Table, Quotes::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_quote_events_user")
                        .from(QuoteEvents::Table, QuoteEvents::UserId)
                        .to(Users::Table, Users::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("idx_quote_events_quote")
                .table(QuoteEvents::Table)
                .col(QuoteEvents::QuoteId)
                .col(QuoteEvents::CreatedAt)
                .to_owned(),
        )
        .await
}

async fn create_links(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(QuoteLinks::Table)
                .col(pk_uuid(QuoteLinks::Id))
                .col(uuid(QuoteLinks::QuoteId))
                // The SHA-256 of the link's token, in hex; the token itself is never stored.
                .col(string_len_uniq(QuoteLinks::TokenHash, 64))
                .col(timestamp_with_time_zone(QuoteLinks::CreatedAt))
                .col(timestamp_with_time_zone_null(QuoteLinks::RevokedAt))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_quote_links_quote")
                        .from(QuoteLinks::Table, QuoteLinks::QuoteId)
                        .to(Quotes::Table, Quotes::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("idx_quote_links_quote")
                .table(QuoteLinks::Table)
                .col(QuoteLinks::QuoteId)
                .to_owned(),
        )
        .await
}

/// Numbers the quotes saved before, per team in the order they were saved, and gives each its
/// terms and offer as a new quote would have them.
async fn number_saved_quotes(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    let db = manager.get_connection();
    let saved = Query::select()
        .columns([Quotes::Id, Quotes::TeamId, Quotes::Currency, Quotes::Input, Quotes::CreatedAt])
        .from(Quotes::Table)
        .order_by(Quotes::TeamId, Order::Asc)
        .order_by(Quotes::CreatedAt, Order::Asc)
        .order_by(Quotes::Id, Order::Asc)
        .to_owned();
    let mut last: Option<(Uuid, i32)> = None;
    for row in db.query_all(&saved).await? {
        let id: Uuid = row.try_get("", "id")?;
        let team_id: Uuid = row.try_get("", "team_id")?;
        let currency: String = row.try_get("", "currency")?;
        let input: String = row.try_get("", "input")?;
        let created_at: TimeDateTimeWithTimeZone = row.try_get("", "created_at")?;
        let number = match last {
            Some((team, number)) if team == team_id => number + 1,
            _ => 1,
        };
        last = Some((team_id, number));
        let mut update = Query::update()
            .table(Quotes::Table)
            .value(Quotes::Number, number)
            .value(Quotes::ValidUntil, bobbin_core::quote::valid_until(created_at.date(), 30))
            .value(Quotes::IssuedOn, created_at.date())
            .and_where(Expr::col(Quotes::Id).eq(id))
            .to_owned();
        if let Some(offered) = offer_of(&input, &currency) {
            update
                .value(Quotes::Terms, offered.terms)
                .value(Quotes::Offer, offered.offer)
                .value(Quotes::PerPiece, offered.per_piece)
                .value(Quotes::Total, offered.total);
        }
        db.execute(&update).await?;
        let upsert = Query::insert()
            .into_table(QuoteNumbers::Table)
            .columns([QuoteNumbers::TeamId, QuoteNumbers::Last])
            .values_panic([team_id.into(), number.into()])
            .on_conflict(
                OnConflict::column(QuoteNumbers::TeamId).update_column(QuoteNumbers::Last).to_owned(),
            )
            .to_owned();
        db.execute(&upsert).await?;
    }
    Ok(())
}

/// A saved quote's terms and offer as JSON, with the price a piece and the total of its one
/// option (what the list shows: before tax, and the tax on top).
struct Offered {
    terms: String,
    offer: String,
    per_piece: String,
    total: String,
}

/// What a saved quote offers, from its stored `{ rates, job, design }`; none for one that cannot
/// be read (a quote the server priced when saving always can).
fn offer_of(input: &str, currency: &str) -> Option<Offered> {
    #[derive(serde::Deserialize)]
    struct Stored {
        rates: Rates,
        job: Job,
    }
    let stored: Stored = serde_json::from_str(input).ok()?;
    let terms = Terms::for_job(&stored.job, &stored.rates);
    let offer =
        price_options(&stored.rates, &stored.job, &terms, pricing::minor_unit_decimals(currency)).ok()?;
    let first = offer.first()?;
    Some(Offered {
        terms: serde_json::to_string(&terms).ok()?,
        per_piece: first.per_piece.to_string(),
        total: first.total.to_string(),
        offer: serde_json::to_string(&offer).ok()?,
    })
}

#[derive(DeriveIden)]
enum Teams {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Quotes {
    Table,
    Id,
    TeamId,
    Currency,
    Input,
    PerPiece,
    Total,
    CreatedAt,
    Number,
    Status,
    Revision,
    CustomerName,
    CustomerEmail,
    CustomerCompany,
    Terms,
    Offer,
    ValidUntil,
    IssuedOn,
    SentBy,
    Answer,
    JobId,
}

#[derive(DeriveIden)]
enum QuoteNumbers {
    Table,
    TeamId,
    Last,
}

#[derive(DeriveIden)]
enum QuoteRevisions {
    Table,
    Id,
    QuoteId,
    Revision,
    Document,
    CreatedAt,
}

#[derive(DeriveIden)]
enum QuoteEvents {
    Table,
    Id,
    QuoteId,
    Kind,
    Revision,
    UserId,
    Detail,
    CreatedAt,
}

#[derive(DeriveIden)]
enum QuoteLinks {
    Table,
    Id,
    QuoteId,
    TokenHash,
    CreatedAt,
    RevokedAt,
}
