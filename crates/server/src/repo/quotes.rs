//! Saved quotes in the database. A quote's inputs and result are stored as JSON text, read
//! back into the core's types (`bobbin_core::pricing`).

use crate::db::Database;
use crate::entity::ids::QuotePublicId;
use crate::repo::RepoError;
use std::collections::HashMap;

use bobbin_core::pricing::{Job, Quote, Rates};
use sea_orm::{
    ActiveModelTrait as _, ActiveValue::Set, ColumnTrait as _, ConnectionTrait, EntityTrait as _,
    PaginatorTrait as _, QueryFilter as _, QueryOrder as _,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use time::OffsetDateTime;
use utoipa::ToSchema;

use super::{
    new_public_id, stored_as,
    users::{Person, people_of},
};
use crate::{
    db::committed,
    entity::{
        ids::{QuoteId, TeamId, UserId},
        quote,
    },
};

/// The most quotes one team keeps.
pub const MAX_QUOTES: u64 = 10_000;
/// What a quote the team does not have answers.
pub const NOT_FOUND: &str = "There is no such quote in this team.";

/// A quote in the list.
#[derive(Debug, Serialize, ToSchema)]
pub struct QuoteSummary {
    pub id: String,
    pub name: String,
    pub currency: String,
    pub quantity: u32,
    /// Decimal text, e.g. `"7.12"`.
    pub per_piece: String,
    pub total: String,
    pub created_by_email: Option<String>,
    /// The full name of who saved it, where they gave one: shown rather than the address.
    pub created_by_name: Option<String>,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

/// A quote with everything needed to reopen it.
#[derive(Debug, Serialize, ToSchema)]
pub struct QuoteView {
    #[serde(flatten)]
    pub summary: QuoteSummary,
    #[schema(value_type = Object)]
    pub rates: Rates,
    #[schema(value_type = Object)]
    pub job: Job,
    #[schema(value_type = Option<Object>)]
    pub design: Option<Value>,
    #[schema(value_type = Object)]
    pub result: Quote,
}

/// What is stored as the quote's `input`.
#[derive(Debug, Serialize, Deserialize)]
pub struct Stored {
    pub rates: Rates,
    pub job: Job,
    pub design: Option<Value>,
}

/// One page of the team's quotes, newest first, whose names hold `text` if given, and how many
/// there are in all.
///
/// # Errors
///
/// A database error, or a stored quote that cannot be read.
pub async fn page(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    text: Option<&str>,
    page: u64,
    per_page: u64,
) -> Result<(Vec<QuoteSummary>, u64), RepoError> {
    let mut query = quote::Entity::find().filter(quote::Column::TeamId.eq(team_id));
    if let Some(text) = text {
        query = query.filter(name_contains(text));
    }
    let pages =
        query.order_by_desc(quote::Column::CreatedAt).order_by_desc(quote::Column::Id).paginate(db, per_page);
    let total = pages.num_items().await?;
    let rows = pages.fetch_page(page - 1).await?;
    let people = people_of(db, rows.iter().filter_map(|row| row.created_by)).await?;
    let quotes = rows.iter().map(|row| summary(row, &people)).collect::<Result<_, _>>()?;
    Ok((quotes, total))
}

/// Every quote of the team, newest first, each with everything needed to reopen it (the
/// team's archive).
///
/// # Errors
///
/// A database error, or a stored quote that cannot be read.
pub async fn all(db: &impl ConnectionTrait, team_id: TeamId) -> Result<Vec<QuoteView>, RepoError> {
    let rows = quote::Entity::find()
        .filter(quote::Column::TeamId.eq(team_id))
        .order_by_desc(quote::Column::CreatedAt)
        .order_by_desc(quote::Column::Id)
        .all(db)
        .await?;
    let people = people_of(db, rows.iter().filter_map(|row| row.created_by)).await?;
    rows.iter().map(|row| view(row, &people)).collect()
}

/// One quote of the team, by its public id.
///
/// # Errors
///
/// 404; a database error, or a stored quote that cannot be read.
pub async fn get(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    public_id: &QuotePublicId,
) -> Result<QuoteView, RepoError> {
    let row = find(db, team_id, public_id).await?;
    let people = people_of(db, row.created_by.into_iter()).await?;
    view(&row, &people)
}

/// Saves a quote, saved by `user_id`.
///
/// # Errors
///
/// 422 `too_many_quotes`; a database error.
pub async fn save(
    db: &Database,
    team_id: TeamId,
    user_id: UserId,
    name: String,
    currency: String,
    stored: &Stored,
    result: &Quote,
) -> Result<QuoteView, RepoError> {
    let row = committed(db, async |txn| insert(txn, team_id, user_id, name, currency, stored, result).await)
        .await?;
    let people = people_of(db, row.created_by.into_iter()).await?;
    view(&row, &people)
}

/// Removes a quote.
///
/// # Errors
///
/// 404; a database error.
pub async fn delete(db: &Database, team_id: TeamId, public_id: &QuotePublicId) -> Result<(), RepoError> {
    let row = find(db, team_id, public_id).await?;
    committed(db, async |txn| quote::Entity::delete_by_id(row.id).exec(txn).await).await?;
    Ok(())
}

/// Names holding `text`, without regard to case on both databases (PostgreSQL's `LIKE` minds
/// case, SQLite's does not); `%` and `_` are letters to look for, not wildcards.
fn name_contains(text: &str) -> sea_orm::sea_query::SimpleExpr {
    // Imported here only: `ExprTrait` would otherwise shadow `Ord::max` on numbers.
    use sea_orm::sea_query::{Expr, ExprTrait as _, Func, LikeExpr};
    let escaped = text.to_lowercase().replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
    Expr::expr(Func::lower(Expr::col(quote::Column::Name)))
        .like(LikeExpr::new(format!("%{escaped}%")).escape('\\'))
}

async fn insert(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    user_id: UserId,
    name: String,
    currency: String,
    stored: &Stored,
    result: &Quote,
) -> Result<quote::Model, RepoError> {
    let count = quote::Entity::find().filter(quote::Column::TeamId.eq(team_id)).count(db).await?;
    if count >= MAX_QUOTES {
        return Err(RepoError::refused(
            "too_many_quotes",
            format!("A team keeps at most {MAX_QUOTES} quotes: remove old ones first."),
        ));
    }
    let row = quote::ActiveModel {
        id: Set(QuoteId::new()),
        public_id: Set(new_public_id()),
        team_id: Set(team_id),
        name: Set(name),
        currency: Set(currency),
        quantity: Set(stored_as("job.quantity", stored.job.quantity)?),
        per_piece: Set(result.per_piece.to_string()),
        total: Set(result.total.to_string()),
        input: Set(to_json(stored)?),
        result: Set(to_json(result)?),
        created_by: Set(Some(user_id)),
        created_at: Set(OffsetDateTime::now_utc()),
    }
    .insert(db)
    .await?;
    Ok(row)
}

/// JSON text of what is stored; a failure here is a bug, not the caller's mistake.
fn to_json(value: &impl Serialize) -> Result<String, RepoError> {
    serde_json::to_string(value).map_err(|error| RepoError::Broken(error.into()))
}

async fn find(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    public_id: &QuotePublicId,
) -> Result<quote::Model, RepoError> {
    quote::Entity::find()
        .filter(quote::Column::TeamId.eq(team_id))
        .filter(quote::Column::PublicId.eq(public_id.as_str()))
        .one(db)
        .await?
        .ok_or_else(|| RepoError::NotFound(NOT_FOUND.to_owned()))
}

fn broken(row: &quote::Model, what: &str, error: impl std::fmt::Display) -> RepoError {
    RepoError::Broken(anyhow::anyhow!("quote {}: {what}: {error}", row.id))
}

fn summary(row: &quote::Model, people: &HashMap<UserId, Person>) -> Result<QuoteSummary, RepoError> {
    let creator = row.created_by.and_then(|id| people.get(&id));
    Ok(QuoteSummary {
        id: row.public_id.clone(),
        name: row.name.clone(),
        currency: row.currency.clone(),
        quantity: u32::try_from(row.quantity).map_err(|error| broken(row, "quantity", error))?,
        per_piece: row.per_piece.clone(),
        total: row.total.clone(),
        created_by_email: creator.map(|person| person.email.clone()),
        created_by_name: creator.and_then(|person| person.name.clone()),
        created_at: row.created_at,
    })
}

pub fn stored_of(row: &quote::Model) -> Result<Stored, RepoError> {
    serde_json::from_str(&row.input).map_err(|error| broken(row, "input", error))
}

fn view(row: &quote::Model, people: &HashMap<UserId, Person>) -> Result<QuoteView, RepoError> {
    let stored = stored_of(row)?;
    let result = serde_json::from_str(&row.result).map_err(|error| broken(row, "result", error))?;
    Ok(QuoteView {
        summary: summary(row, people)?,
        rates: stored.rates,
        job: stored.job,
        design: stored.design,
        result,
    })
}
