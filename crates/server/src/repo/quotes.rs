//! Saved quotes in the database. A quote's inputs and result are stored as JSON text, read
//! back into the core's types (`bobbin_core::pricing`).

use crate::db::Database;
use crate::entity::ids::QuotePublicId;
use crate::repo::RepoError;
use std::collections::HashMap;

use bobbin_core::{
    colour::Rgb8,
    pricing::{Job, Quote, Rates},
};
use sea_orm::{
    ActiveModelTrait as _, ActiveValue::Set, ColumnTrait as _, ConnectionTrait, DatabaseTransaction,
    EntityTrait as _, PaginatorTrait as _, QueryFilter as _, QueryOrder as _, QuerySelect as _,
    prelude::Expr,
};
use serde::{Deserialize, Deserializer, Serialize, de};
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
        ids::{ObjectId, QuoteId, TeamId, UserId},
        quote, storage_object,
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
    pub design: Option<StoredDesign>,
    #[schema(value_type = Object)]
    pub result: Quote,
}

/// What is stored as the quote's `input`.
#[derive(Debug, Serialize, Deserialize)]
pub struct Stored {
    pub rates: Rates,
    pub job: Job,
    pub design: Option<StoredDesign>,
}

/// What a saved quote keeps of its design file: the file's name and the figures the calculator
/// read from it, never the stitches. Checked field by field when a quote is saved (a field of
/// another type, an unknown field or a list too long answers `422 validation_failed` naming it,
/// e.g. `design.summary.threads[0].blocks`), so whoever reopens the quote gets what the app
/// can show.
///
/// The figures are those of `bobbin_core::design::DesignSummary`, which the reader in the
/// browser makes; this is the saved record's own type because quotes saved before a field was
/// added lack it (`threads`, `threads_needed`), and the core's summary is only ever written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SavedDesign {
    /// The design file's name, at most 255 characters.
    #[schema(value_type = String, max_length = 255)]
    pub file_name: Text<255>,
    pub summary: SavedDesignSummary,
    /// The design's id in the team's library (`/storage/v1`), when it was priced from there:
    /// the quote then shows its preview, and the design's page lists the quote.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<ObjectId>,
}

/// A design's figures, as the calculator read them from its file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SavedDesignSummary {
    pub format: DesignFormat,
    /// Stitch records: needle penetrations.
    pub stitches: u32,
    /// Moves without stitching.
    pub jumps: u32,
    /// Trim commands; `null` where the format has none (DST, JEF).
    pub trims: Option<u32>,
    pub colour_changes: u32,
    /// Colour blocks.
    pub colours: u32,
    /// The width of the stitches' bounding box, 0 or more.
    #[schema(value_type = f64, minimum = 0)]
    pub width_mm: Millimetres,
    /// The height of the stitches' bounding box, 0 or more.
    #[schema(value_type = f64, minimum = 0)]
    pub height_mm: Millimetres,
    /// The colour of each block in stitch order, where the file stores them (PES, VP3).
    #[schema(value_type = Vec<Rgb8>, max_items = 1000)]
    pub thread_colours: AtMost<Rgb8, 1000>,
    /// The threads of those blocks, each once, in order of first use; absent from quotes saved
    /// before threads were counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<SavedThread>>, max_items = 256)]
    pub threads: Option<AtMost<SavedThread, 256>>,
    /// The threads a machine is set up with; absent from quotes saved before it was counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threads_needed: Option<u32>,
}

/// One thread a design needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SavedThread {
    pub colour: Rgb8,
    /// The file palette's name for it (PES, VP3), at most 200 characters, or `null`.
    #[schema(value_type = Option<String>, max_length = 200)]
    pub name: Option<Text<200>>,
    /// The colour blocks sewn with it, counted from 1.
    #[schema(value_type = Vec<u32>, max_items = 1000)]
    pub blocks: AtMost<u32, 1000>,
}

/// The design-file formats the calculator reads (`bobbin_core::design::Format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DesignFormat {
    Dst,
    Pes,
    Jef,
    Exp,
    Vp3,
}

/// A stored quote's design: of the [`SavedDesign`] shape, or, for a quote saved before that
/// shape was checked, whatever JSON object it was saved with, answered as it is (the app checks
/// what it reads and says when it cannot show a design). A copy of such a quote keeps no design.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum StoredDesign {
    Saved(SavedDesign),
    #[schema(value_type = Object)]
    Unchecked(Value),
}

impl StoredDesign {
    /// The design, if it is of the checked shape.
    pub fn saved(self) -> Option<SavedDesign> {
        match self {
            Self::Saved(design) => Some(design),
            Self::Unchecked(_) => None,
        }
    }

    /// The design's id in the team's library, if it came from there.
    pub fn library_id(&self) -> Option<ObjectId> {
        match self {
            Self::Saved(design) => design.id,
            Self::Unchecked(_) => None,
        }
    }
}

/// A list of at most `N` items: a longer one is refused while it is read, so the error names
/// its field.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(transparent)]
pub struct AtMost<T, const N: usize>(pub Vec<T>);

impl<'de, T: Deserialize<'de>, const N: usize> Deserialize<'de> for AtMost<T, N> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let items = Vec::<T>::deserialize(deserializer)?;
        if items.len() > N {
            return Err(de::Error::custom(format_args!("a list of at most {N} items, not {}", items.len())));
        }
        Ok(Self(items))
    }
}

/// Text of at most `N` characters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Text<const N: usize>(pub String);

impl<'de, const N: usize> Deserialize<'de> for Text<N> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        if text.chars().count() > N {
            return Err(de::Error::custom(format_args!("text of at most {N} characters")));
        }
        Ok(Self(text))
    }
}

/// A length in millimetres: a finite number, 0 or more.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Millimetres(pub f64);

impl<'de> Deserialize<'de> for Millimetres {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let length = f64::deserialize(deserializer)?;
        if !(length.is_finite() && length >= 0.0) {
            return Err(de::Error::custom("a length in millimetres, 0 or more"));
        }
        Ok(Self(length))
    }
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

/// The team's newest quotes (at most `limit`) priced from the design `design_id` of its
/// library, and how many there are in all.
///
/// # Errors
///
/// A database error, or a stored quote that cannot be read.
pub async fn using_design(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    design_id: ObjectId,
    limit: u64,
) -> Result<(Vec<QuoteSummary>, u64), RepoError> {
    let query = quote::Entity::find()
        .filter(quote::Column::TeamId.eq(team_id))
        .filter(quote::Column::DesignId.eq(design_id));
    let pages =
        query.order_by_desc(quote::Column::CreatedAt).order_by_desc(quote::Column::Id).paginate(db, limit);
    let total = pages.num_items().await?;
    let rows = pages.fetch_page(0).await?;
    let people = people_of(db, rows.iter().filter_map(|row| row.created_by)).await?;
    let quotes = rows.iter().map(|row| summary(row, &people)).collect::<Result<_, _>>()?;
    Ok((quotes, total))
}

/// The team's quotes newest first, each as its id and the characters its name, inputs and
/// result hold: what the team's archive reads its quotes by, a few at a time ([`by_ids`]), so
/// that however large some quotes are, the few read at once stay small.
///
/// # Errors
///
/// A database error.
pub async fn sizes(db: &impl ConnectionTrait, team_id: TeamId) -> Result<Vec<(QuoteId, u64)>, RepoError> {
    let rows: Vec<(QuoteId, i64)> = quote::Entity::find()
        .select_only()
        .column(quote::Column::Id)
        .column_as(
            Expr::cust(r#"CAST(LENGTH("name") + LENGTH("input") + LENGTH("result") AS BIGINT)"#),
            "size",
        )
        .filter(quote::Column::TeamId.eq(team_id))
        .order_by_desc(quote::Column::CreatedAt)
        .order_by_desc(quote::Column::Id)
        .into_tuple()
        .all(db)
        .await?;
    Ok(rows.into_iter().map(|(id, size)| (id, u64::try_from(size).unwrap_or(0))).collect())
}

/// The team's quotes with these ids, in the order of `ids`, each with everything needed to
/// reopen it; an id of no quote of the team is left out.
///
/// # Errors
///
/// A database error, or a stored quote that cannot be read.
pub async fn by_ids(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    ids: &[QuoteId],
) -> Result<Vec<QuoteView>, RepoError> {
    let rows = quote::Entity::find()
        .filter(quote::Column::TeamId.eq(team_id))
        .filter(quote::Column::Id.is_in(ids.iter().copied()))
        .all(db)
        .await?;
    let people = people_of(db, rows.iter().filter_map(|row| row.created_by)).await?;
    let mut by_id: HashMap<QuoteId, quote::Model> = rows.into_iter().map(|row| (row.id, row)).collect();
    ids.iter().filter_map(|id| by_id.remove(id)).map(|row| view(&row, &people)).collect()
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

/// Saves a quote, saved by `user_id`, in the write transaction `txn` (the caller's:
/// [`super::write_keys::once`]).
///
/// # Errors
///
/// 422 `too_many_quotes`; a database error.
pub async fn save(
    txn: &DatabaseTransaction,
    team_id: TeamId,
    user_id: UserId,
    name: String,
    currency: String,
    stored: &Stored,
    result: &Quote,
) -> Result<QuoteView, RepoError> {
    let row = insert(txn, team_id, user_id, name, currency, stored, result).await?;
    let people = people_of(txn, row.created_by.into_iter()).await?;
    view(&row, &people)
}

/// Refuses a new quote whose design names a file that is not in the team's library (another
/// team's id would show nothing, and say nothing to anyone), in the transaction that saves it. A
/// copy of a quote is not checked: it keeps its design when the file has gone.
///
/// # Errors
///
/// 422 `no_such_design`; a database error.
pub async fn check_library_design(
    txn: &DatabaseTransaction,
    team_id: TeamId,
    stored: &Stored,
) -> Result<(), RepoError> {
    let Some(design_id) = stored.design.as_ref().and_then(StoredDesign::library_id) else { return Ok(()) };
    let there = storage_object::Entity::find_by_id(design_id)
        .filter(storage_object::Column::TeamId.eq(team_id))
        .count(txn)
        .await?;
    if there == 0 {
        return Err(RepoError::refused(
            "no_such_design",
            "That design is not in this team's library (it may have been removed): choose it again.",
        ));
    }
    Ok(())
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
        design_id: Set(stored.design.as_ref().and_then(StoredDesign::library_id)),
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
