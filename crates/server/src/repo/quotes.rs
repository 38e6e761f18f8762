//! Quotes in the database (docs/behaviour.md, "Quotes"). A quote keeps what the calculator
//! priced (its inputs and result, JSON text read back into `bobbin_core::pricing`'s types) and
//! the document its customer sees: a number in the team, the customer, the terms and the offer
//! (`bobbin_core::quote`), a validity date, a status and a version. Each change the shop makes
//! keeps the version before it ([`revise`]); the history says who did what ([`events`]); the
//! customer reaches the quote through links kept only as their tokens' SHA-256 ([`by_token`]).
//!
//! Every change of status is one `UPDATE ... WHERE` the status and version it starts from, so
//! two answers at once (a double click, two tabs) change the quote once and record one event.

use crate::db::Database;
use crate::entity::ids::QuotePublicId;
use crate::repo::RepoError;
use std::collections::HashMap;

use bobbin_core::{
    colour::Rgb8,
    pricing::{self, Job, Quote, Rates},
    quote::{ExtraLine, OptionPrice, QuoteStatus, Terms},
    settings::QuoteSettings,
};
use rust_decimal::Decimal;
use sea_orm::{
    ActiveModelTrait as _, ActiveValue::Set, ColumnTrait as _, ConnectionTrait, DatabaseTransaction,
    EntityTrait as _, PaginatorTrait as _, QueryFilter as _, QueryOrder as _, QuerySelect as _,
    prelude::Expr,
};
use serde::{Deserialize, Deserializer, Serialize, de};
use serde_json::Value;
use time::{Date, OffsetDateTime};
use utoipa::ToSchema;

use super::{
    new_public_id, stored_as,
    users::{Person, people_of},
};
use crate::{
    db::committed,
    entity::{
        ids::{
            JobId, ObjectId, QuoteEventId, QuoteId, QuoteLinkId, QuoteRevisionId, StoredQuoteStatus, TeamId,
            UserId,
        },
        job, quote, quote_event, quote_link, quote_number, quote_revision, storage_object,
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
    /// `Q-0001`: the team's numbers run without gaps in the order quotes were saved.
    pub number: String,
    pub status: QuoteStatus,
    /// The version: 1, raised by each change.
    pub revision: u32,
    pub name: String,
    pub customer_name: String,
    pub customer_company: String,
    #[schema(value_type = String, format = Date)]
    #[serde(with = "super::iso_date")]
    pub valid_until: Date,
    pub currency: String,
    /// The quantity of the option shown: the one the customer chose once approved, else the first.
    pub quantity: u32,
    /// That option's price a piece before tax, decimal text, e.g. `"7.12"`.
    pub per_piece: String,
    /// That option's total, tax included.
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
    pub customer: Customer,
    pub terms: Terms,
    /// Each quantity of `terms` priced, in its order.
    pub offer: Vec<OptionPrice>,
    pub answer: Option<Answer>,
    /// The public id of the job made from it, once approved.
    pub job_id: Option<String>,
    /// Whether a link the customer can open is live.
    pub shared: bool,
}

/// Who a quote is for.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Customer {
    pub name: String,
    pub company: String,
    /// Where the quote is e-mailed; may be empty until it is.
    pub email: String,
}

/// The customer's answer to a quote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Answer {
    /// Signed with a typed name, for the quantity chosen, with the customer's order number if any.
    Approved {
        name: String,
        po_number: String,
        quantity: u32,
        #[serde(with = "time::serde::rfc3339")]
        at: OffsetDateTime,
    },
    Declined {
        reason: String,
        #[serde(with = "time::serde::rfc3339")]
        at: OffsetDateTime,
    },
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
    status: Option<QuoteStatus>,
    page: u64,
    per_page: u64,
) -> Result<(Vec<QuoteSummary>, u64), RepoError> {
    let mut query = quote::Entity::find().filter(quote::Column::TeamId.eq(team_id));
    if let Some(text) = text {
        query = query.filter(name_contains(text));
    }
    if let Some(status) = status {
        query = query.filter(status_is(status));
    }
    let pages =
        query.order_by_desc(quote::Column::CreatedAt).order_by_desc(quote::Column::Id).paginate(db, per_page);
    let total = pages.num_items().await?;
    let rows = pages.fetch_page(page - 1).await?;
    let people = people_of(db, rows.iter().filter_map(|row| row.created_by)).await?;
    let quotes = rows.iter().map(|row| summary(row, &people)).collect::<Result<_, _>>()?;
    Ok((quotes, total))
}

/// Quotes whose status today is `status` ([`status_of`]): a quote waiting on its customer counts
/// as sent or viewed through its validity date and as expired after it.
fn status_is(status: QuoteStatus) -> sea_orm::Condition {
    use sea_orm::Condition;
    let today = OffsetDateTime::now_utc().date();
    let stored = |status: QuoteStatus| quote::Column::Status.eq(StoredQuoteStatus(status));
    match status {
        QuoteStatus::Expired => Condition::all()
            .add(quote::Column::Status.is_in([QuoteStatus::Sent, QuoteStatus::Viewed].map(StoredQuoteStatus)))
            .add(quote::Column::ValidUntil.lt(today)),
        QuoteStatus::Sent | QuoteStatus::Viewed => {
            Condition::all().add(stored(status)).add(quote::Column::ValidUntil.gte(today))
        }
        QuoteStatus::Draft | QuoteStatus::Approved | QuoteStatus::Declined => {
            Condition::all().add(stored(status))
        }
    }
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
    // The archive keeps the documents; links and jobs are the team's live state, left out.
    ids.iter().filter_map(|id| by_id.remove(id)).map(|row| view(&row, &people, None, false)).collect()
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
    full_view(db, &row).await
}

/// What a new quote is besides the calculator's inputs and result.
#[derive(Debug, Clone)]
pub struct NewQuote {
    pub name: String,
    pub currency: String,
    pub customer: Customer,
    pub terms: Terms,
    pub valid_until: Date,
}

/// Saves a new draft quote, saved by `user_id`, numbered next in the team, in the write
/// transaction `txn` (the caller's: [`super::write_keys::once`]).
///
/// # Errors
///
/// 422 `too_many_quotes`, or the terms' problems as `validation_failed`; a database error.
pub async fn save(
    txn: &DatabaseTransaction,
    team_id: TeamId,
    user_id: UserId,
    new: NewQuote,
    stored: &Stored,
    result: &Quote,
) -> Result<QuoteView, RepoError> {
    let row = insert(txn, team_id, user_id, new, stored, result).await?;
    record(txn, &row, EventKind::Made, Some(user_id), serde_json::json!({})).await?;
    full_view(txn, &row).await
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
    new: NewQuote,
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
    let offer = offer_of(stored, &new.terms, &new.currency)?;
    let headline = &offer[0];
    let row = quote::ActiveModel {
        id: Set(QuoteId::new()),
        public_id: Set(new_public_id()),
        team_id: Set(team_id),
        name: Set(new.name),
        currency: Set(new.currency),
        quantity: Set(stored_as("terms.quantities[0]", headline.quantity)?),
        per_piece: Set(headline.per_piece.to_string()),
        total: Set(headline.total.to_string()),
        input: Set(to_json(stored)?),
        result: Set(to_json(result)?),
        created_by: Set(Some(user_id)),
        created_at: Set(OffsetDateTime::now_utc()),
        design_id: Set(stored.design.as_ref().and_then(StoredDesign::library_id)),
        number: Set(next_number(db, team_id).await?),
        status: Set(StoredQuoteStatus(QuoteStatus::Draft)),
        revision: Set(1),
        customer_name: Set(new.customer.name),
        customer_email: Set(new.customer.email),
        customer_company: Set(new.customer.company),
        terms: Set(to_json(&new.terms)?),
        offer: Set(to_json(&offer)?),
        valid_until: Set(new.valid_until),
        issued_on: Set(OffsetDateTime::now_utc().date()),
        sent_by: Set(None),
        answer: Set(None),
        job_id: Set(None),
    }
    .insert(db)
    .await?;
    Ok(row)
}

/// The team's next quote number, taken in the caller's write transaction: the team's counter is
/// raised in place (its row locked until the transaction ends on PostgreSQL; SQLite has one
/// writer), so two quotes saved at once get two numbers, and a save that fails gives its
/// number back with the rest of its transaction.
async fn next_number(db: &impl ConnectionTrait, team_id: TeamId) -> Result<i32, RepoError> {
    use sea_orm::sea_query::{ExprTrait as _, OnConflict};
    let raised =
        quote_number::Entity::insert(quote_number::ActiveModel { team_id: Set(team_id), last: Set(1) })
            .on_conflict(
                OnConflict::column(quote_number::Column::TeamId)
                    .value(
                        quote_number::Column::Last,
                        Expr::col((quote_number::Entity, quote_number::Column::Last)).add(1),
                    )
                    .to_owned(),
            )
            .exec_with_returning(db)
            .await?;
    Ok(raised.last)
}

/// Each option of `terms` priced from the stored inputs. The caller has checked the terms
/// ([`Terms::problems`]) and the inputs were checked when saved: a problem here is a bug.
fn offer_of(stored: &Stored, terms: &Terms, currency: &str) -> Result<Vec<OptionPrice>, RepoError> {
    let offer = bobbin_core::quote::price_options(
        &stored.rates,
        &stored.job,
        terms,
        pricing::minor_unit_decimals(currency),
    )
    .map_err(|problems| anyhow::anyhow!("pricing a quote's options: {problems:?}"))?;
    if offer.is_empty() {
        return Err(RepoError::Broken(anyhow::anyhow!("a quote offers no quantity")));
    }
    Ok(offer)
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
        number: number_text(row.number),
        status: status_of(row),
        revision: u32::try_from(row.revision).map_err(|error| broken(row, "revision", error))?,
        name: row.name.clone(),
        customer_name: row.customer_name.clone(),
        customer_company: row.customer_company.clone(),
        valid_until: row.valid_until,
        currency: row.currency.clone(),
        quantity: u32::try_from(row.quantity).map_err(|error| broken(row, "quantity", error))?,
        per_piece: row.per_piece.clone(),
        total: row.total.clone(),
        created_by_email: creator.map(|person| person.email.clone()),
        created_by_name: creator.and_then(|person| person.name.clone()),
        created_at: row.created_at,
    })
}

/// `Q-0007`: a quote's number as people say it (five digits and more as they come).
pub fn number_text(number: i32) -> String {
    format!("Q-{number:04}")
}

/// The quote's status today: a quote waiting on its customer past its date has expired.
pub fn status_of(row: &quote::Model) -> QuoteStatus {
    row.status.0.on(row.valid_until, OffsetDateTime::now_utc().date())
}

pub fn stored_of(row: &quote::Model) -> Result<Stored, RepoError> {
    serde_json::from_str(&row.input).map_err(|error| broken(row, "input", error))
}

fn terms_of(row: &quote::Model) -> Result<Terms, RepoError> {
    serde_json::from_str(&row.terms).map_err(|error| broken(row, "terms", error))
}

fn offer_stored(row: &quote::Model) -> Result<Vec<OptionPrice>, RepoError> {
    serde_json::from_str(&row.offer).map_err(|error| broken(row, "offer", error))
}

/// The customer's answer, once given.
///
/// # Errors
///
/// A stored answer that cannot be read.
pub fn answer_of(row: &quote::Model) -> Result<Option<Answer>, RepoError> {
    row.answer.as_deref().map(serde_json::from_str).transpose().map_err(|error| broken(row, "answer", error))
}

fn customer_of(row: &quote::Model) -> Customer {
    Customer {
        name: row.customer_name.clone(),
        company: row.customer_company.clone(),
        email: row.customer_email.clone(),
    }
}

fn view(
    row: &quote::Model,
    people: &HashMap<UserId, Person>,
    job_id: Option<String>,
    shared: bool,
) -> Result<QuoteView, RepoError> {
    let stored = stored_of(row)?;
    let result = serde_json::from_str(&row.result).map_err(|error| broken(row, "result", error))?;
    Ok(QuoteView {
        summary: summary(row, people)?,
        rates: stored.rates,
        job: stored.job,
        design: stored.design,
        result,
        customer: customer_of(row),
        terms: terms_of(row)?,
        offer: offer_stored(row)?,
        answer: answer_of(row)?,
        job_id,
        shared,
    })
}

/// The quote with the public id of its job and whether a link is live.
async fn full_view(db: &impl ConnectionTrait, row: &quote::Model) -> Result<QuoteView, RepoError> {
    let people = people_of(db, row.created_by.into_iter()).await?;
    let job_id = match row.job_id {
        Some(id) => job::Entity::find_by_id(id).one(db).await?.map(|job| job.public_id),
        None => None,
    };
    let shared = live_links(row.id).count(db).await? > 0;
    view(row, &people, job_id, shared)
}

fn live_links(quote_id: QuoteId) -> sea_orm::Select<quote_link::Entity> {
    quote_link::Entity::find()
        .filter(quote_link::Column::QuoteId.eq(quote_id))
        .filter(quote_link::Column::RevokedAt.is_null())
}

/// What a line of a quote's history records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// Saved from the calculator (or copied).
    Made,
    /// Changed by the shop: a new version.
    Revised,
    /// A link made, and e-mailed to the customer where `detail.to` says.
    Sent,
    /// The customer opened the version.
    Viewed,
    Approved,
    Declined,
    /// The customer asked a question (`detail.message`).
    Asked,
    /// Every link withdrawn.
    Revoked,
    /// The job made from the approved quote.
    JobMade,
}

impl EventKind {
    const ALL: [Self; 9] = [
        Self::Made,
        Self::Revised,
        Self::Sent,
        Self::Viewed,
        Self::Approved,
        Self::Declined,
        Self::Asked,
        Self::Revoked,
        Self::JobMade,
    ];

    fn as_str(self) -> &'static str {
        match self {
            Self::Made => "made",
            Self::Revised => "revised",
            Self::Sent => "sent",
            Self::Viewed => "viewed",
            Self::Approved => "approved",
            Self::Declined => "declined",
            Self::Asked => "asked",
            Self::Revoked => "revoked",
            Self::JobMade => "job_made",
        }
    }
}

/// A line of a quote's history, as the quote page shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventView {
    pub kind: EventKind,
    /// The version it happened to.
    pub revision: u32,
    /// The team member who did it; none for the customer.
    pub by: Option<Person>,
    /// What it says besides its kind: `to` (sent), `name`, `po_number`, `quantity` (approved),
    /// `reason` (declined), `message` and `name` (asked), `job_id` (job made).
    #[schema(value_type = Object)]
    pub detail: Value,
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
}

/// The most lines of history a quote page shows: the newest.
pub const EVENTS_SHOWN: u64 = 200;

async fn record(
    db: &impl ConnectionTrait,
    row: &quote::Model,
    kind: EventKind,
    user_id: Option<UserId>,
    detail: Value,
) -> Result<(), RepoError> {
    quote_event::ActiveModel {
        id: Set(QuoteEventId::new()),
        quote_id: Set(row.id),
        kind: Set(kind.as_str().to_owned()),
        revision: Set(row.revision),
        user_id: Set(user_id),
        detail: Set(detail.to_string()),
        created_at: Set(OffsetDateTime::now_utc()),
    }
    .insert(db)
    .await?;
    Ok(())
}

/// The quote's history, newest first (at most [`EVENTS_SHOWN`]).
///
/// # Errors
///
/// 404; a database error.
pub async fn events(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    public_id: &QuotePublicId,
) -> Result<Vec<EventView>, RepoError> {
    let row = find(db, team_id, public_id).await?;
    let rows = quote_event::Entity::find()
        .filter(quote_event::Column::QuoteId.eq(row.id))
        .order_by_desc(quote_event::Column::CreatedAt)
        .order_by_desc(quote_event::Column::Id)
        .limit(EVENTS_SHOWN)
        .all(db)
        .await?;
    let people = people_of(db, rows.iter().filter_map(|event| event.user_id)).await?;
    rows.into_iter()
        .map(|event| {
            let kind = EventKind::ALL
                .into_iter()
                .find(|kind| kind.as_str() == event.kind)
                .ok_or_else(|| broken(&row, "event kind", &event.kind))?;
            Ok(EventView {
                kind,
                revision: u32::try_from(event.revision).unwrap_or(0),
                by: event.user_id.and_then(|id| people.get(&id).cloned()),
                // An object always, as the schema says (`{}` when there is nothing more to say).
                detail: match serde_json::from_str(&event.detail) {
                    Ok(detail @ Value::Object(_)) => detail,
                    _ => serde_json::json!({}),
                },
                at: event.created_at,
            })
        })
        .collect()
}

/// What a change of a quote sets: each field given, the others left as they are. The caller has
/// checked each (the terms against the quote's currency).
#[derive(Debug, Clone, Default)]
pub struct Changes {
    pub name: Option<String>,
    pub customer: Option<Customer>,
    pub terms: Option<Terms>,
    pub valid_until: Option<Date>,
}

/// The quote's currency, for checking the prices of a change before it is made.
///
/// # Errors
///
/// 404; a database error.
pub async fn currency(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    public_id: &QuotePublicId,
) -> Result<String, RepoError> {
    Ok(find(db, team_id, public_id).await?.currency)
}

/// Changes a quote the editor saw at version `revision`: the version before is kept as its
/// customer saw it, the offer is priced again, and the version raised. A quote with its customer
/// stays with them (its new version unseen); a declined or expired one becomes a draft.
///
/// # Errors
///
/// 404; 409 `edit_conflict` when it changed since, `quote_approved` for an approved quote; a
/// database error.
pub async fn revise(
    txn: &DatabaseTransaction,
    team_id: TeamId,
    user_id: UserId,
    public_id: &QuotePublicId,
    revision: u32,
    changes: Changes,
    shop: &Shop,
) -> Result<QuoteView, RepoError> {
    let row = find(txn, team_id, public_id).await?;
    let status = status_of(&row);
    if !status.editable() {
        return Err(RepoError::conflict(
            "quote_approved",
            "An approved quote is final: make a copy to change it.",
        ));
    }
    if i64::from(revision) != i64::from(row.revision) {
        return Err(super::changed_meanwhile("quote"));
    }
    let before = customer_quote(&row, shop)?;
    let stored = stored_of(&row)?;
    let terms = match changes.terms {
        Some(terms) => terms,
        None => terms_of(&row)?,
    };
    let offer = offer_of(&stored, &terms, &row.currency)?;
    let customer = changes.customer.unwrap_or_else(|| customer_of(&row));
    let next = row.revision.checked_add(1).ok_or_else(|| broken(&row, "revision", "too many versions"))?;
    let updated = quote::Entity::update_many()
        .col_expr(quote::Column::Revision, Expr::value(next))
        .col_expr(quote::Column::Status, Expr::value(StoredQuoteStatus(status.after_edit())))
        .col_expr(quote::Column::Name, Expr::value(changes.name.unwrap_or_else(|| row.name.clone())))
        .col_expr(quote::Column::CustomerName, Expr::value(customer.name))
        .col_expr(quote::Column::CustomerCompany, Expr::value(customer.company))
        .col_expr(quote::Column::CustomerEmail, Expr::value(customer.email))
        .col_expr(quote::Column::Terms, Expr::value(to_json(&terms)?))
        .col_expr(quote::Column::Offer, Expr::value(to_json(&offer)?))
        .col_expr(
            quote::Column::Quantity,
            Expr::value(stored_as::<u32, i32>("terms.quantities[0]", offer[0].quantity)?),
        )
        .col_expr(quote::Column::PerPiece, Expr::value(offer[0].per_piece.to_string()))
        .col_expr(quote::Column::Total, Expr::value(offer[0].total.to_string()))
        .col_expr(quote::Column::ValidUntil, Expr::value(changes.valid_until.unwrap_or(row.valid_until)))
        .col_expr(quote::Column::IssuedOn, Expr::value(OffsetDateTime::now_utc().date()))
        .col_expr(
            quote::Column::Answer,
            Expr::value(if status.after_edit() == QuoteStatus::Draft { None } else { row.answer.clone() }),
        )
        .filter(quote::Column::Id.eq(row.id))
        .filter(quote::Column::Revision.eq(row.revision))
        // An answer taken meanwhile (PostgreSQL lets it commit between the read and this write)
        // leaves the change refused rather than undone.
        .filter(quote::Column::Status.eq(row.status))
        .exec(txn)
        .await?;
    if updated.rows_affected != 1 {
        return Err(super::changed_meanwhile("quote"));
    }
    quote_revision::ActiveModel {
        id: Set(QuoteRevisionId::new()),
        quote_id: Set(row.id),
        revision: Set(row.revision),
        document: Set(to_json(&before)?),
        created_at: Set(OffsetDateTime::now_utc()),
    }
    .insert(txn)
    .await?;
    let row = reread(txn, row.id).await?;
    record(txn, &row, EventKind::Revised, Some(user_id), serde_json::json!({})).await?;
    full_view(txn, &row).await
}

/// An earlier version of the quote as its customer saw it.
///
/// # Errors
///
/// 404 for a quote or version the team does not have; a database error.
pub async fn revision(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    public_id: &QuotePublicId,
    revision: u32,
) -> Result<CustomerQuote, RepoError> {
    let row = find(db, team_id, public_id).await?;
    let kept = quote_revision::Entity::find()
        .filter(quote_revision::Column::QuoteId.eq(row.id))
        .filter(quote_revision::Column::Revision.eq(i64::from(revision)))
        .one(db)
        .await?
        .ok_or_else(|| RepoError::NotFound("This quote has no such earlier version.".to_owned()))?;
    serde_json::from_str(&kept.document).map_err(|error| broken(&row, "revision", error))
}

/// The quote reached by a link, as it is now (after the customer's answer).
///
/// # Errors
///
/// A database error, or the quote gone.
pub async fn reread_public(db: &impl ConnectionTrait, row: &quote::Model) -> Result<quote::Model, RepoError> {
    reread(db, row.id).await
}

async fn reread(db: &impl ConnectionTrait, id: QuoteId) -> Result<quote::Model, RepoError> {
    quote::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| RepoError::Broken(anyhow::anyhow!("quote {id} went missing in its own transaction")))
}

/// Makes a link to the quote for its customer (its token's SHA-256 is `token_hash`), records it
/// as sent (to `to`, where it was e-mailed), and marks a draft or declined quote sent.
///
/// # Errors
///
/// 404; 409 `quote_approved`, `quote_expired` (its date has passed: set a new one first); a
/// database error.
pub async fn send(
    txn: &DatabaseTransaction,
    team_id: TeamId,
    user_id: UserId,
    public_id: &QuotePublicId,
    token_hash: String,
    to: Option<&str>,
) -> Result<quote::Model, RepoError> {
    let row = find(txn, team_id, public_id).await?;
    match status_of(&row) {
        QuoteStatus::Approved => {
            return Err(RepoError::conflict("quote_approved", "This quote is approved already."));
        }
        QuoteStatus::Expired => {
            return Err(RepoError::conflict(
                "quote_expired",
                "This quote's validity date has passed: give it a new one before sending it.",
            ));
        }
        _ if row.valid_until < OffsetDateTime::now_utc().date() => {
            return Err(RepoError::conflict(
                "quote_expired",
                "This quote's validity date has passed: give it a new one before sending it.",
            ));
        }
        QuoteStatus::Draft | QuoteStatus::Declined | QuoteStatus::Sent | QuoteStatus::Viewed => {}
    }
    let next = if row.status.0.awaits_customer() { row.status.0 } else { QuoteStatus::Sent };
    let changed = quote::Entity::update_many()
        .col_expr(quote::Column::Status, Expr::value(StoredQuoteStatus(next)))
        .col_expr(quote::Column::SentBy, Expr::value(user_id))
        .col_expr(quote::Column::Answer, Expr::value(Option::<String>::None))
        .filter(quote::Column::Id.eq(row.id))
        .filter(quote::Column::Revision.eq(row.revision))
        .filter(quote::Column::Status.eq(row.status))
        .exec(txn)
        .await?;
    if changed.rows_affected != 1 {
        return Err(super::changed_meanwhile("quote"));
    }
    quote_link::ActiveModel {
        id: Set(QuoteLinkId::new()),
        quote_id: Set(row.id),
        token_hash: Set(token_hash),
        created_at: Set(OffsetDateTime::now_utc()),
        revoked_at: Set(None),
    }
    .insert(txn)
    .await?;
    record(txn, &row, EventKind::Sent, Some(user_id), serde_json::json!({ "to": to })).await?;
    reread(txn, row.id).await
}

/// The most quotes a team may e-mail in a day: enough for a busy shop, few enough that an account
/// cannot make Bobbin a mailer to strangers.
pub const EMAILS_PER_DAY: u64 = 100;

/// How many quotes the team e-mailed in the last 24 hours.
///
/// # Errors
///
/// A database error.
pub async fn emailed_today(db: &impl ConnectionTrait, team_id: TeamId) -> Result<u64, RepoError> {
    let since = OffsetDateTime::now_utc() - time::Duration::days(1);
    let quotes = quote::Entity::find()
        .select_only()
        .column(quote::Column::Id)
        .filter(quote::Column::TeamId.eq(team_id));
    Ok(quote_event::Entity::find()
        .filter(quote_event::Column::QuoteId.in_subquery(sea_orm::QueryTrait::into_query(quotes)))
        .filter(quote_event::Column::Kind.eq(EventKind::Sent.as_str()))
        .filter(quote_event::Column::Detail.ne(r#"{"to":null}"#))
        .filter(quote_event::Column::CreatedAt.gt(since))
        .count(db)
        .await?)
}

/// Withdraws every link to the quote: each answers 410 from now on. A quote waiting on its
/// customer goes back to a draft.
///
/// # Errors
///
/// 404; a database error.
pub async fn revoke(
    txn: &DatabaseTransaction,
    team_id: TeamId,
    user_id: UserId,
    public_id: &QuotePublicId,
) -> Result<QuoteView, RepoError> {
    let row = find(txn, team_id, public_id).await?;
    let now = OffsetDateTime::now_utc();
    let revoked = quote_link::Entity::update_many()
        .col_expr(quote_link::Column::RevokedAt, Expr::value(now))
        .filter(quote_link::Column::QuoteId.eq(row.id))
        .filter(quote_link::Column::RevokedAt.is_null())
        .exec(txn)
        .await?;
    if revoked.rows_affected > 0 {
        if row.status.0.awaits_customer() {
            let changed = quote::Entity::update_many()
                .col_expr(quote::Column::Status, Expr::value(StoredQuoteStatus(QuoteStatus::Draft)))
                .filter(quote::Column::Id.eq(row.id))
                .filter(quote::Column::Status.eq(row.status))
                .exec(txn)
                .await?;
            if changed.rows_affected != 1 {
                return Err(super::changed_meanwhile("quote"));
            }
        }
        record(txn, &row, EventKind::Revoked, Some(user_id), serde_json::json!({})).await?;
    }
    full_view(txn, &reread(txn, row.id).await?).await
}

/// Why a link to a quote does not open it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Closed {
    /// No link has this token.
    Unknown,
    /// The shop withdrew it.
    Revoked,
    /// The quote's validity date has passed with no answer.
    Expired,
    /// The quote is a draft again: the shop is revising it, to send it again.
    Revising,
}

/// A quote reached by its customer's link.
#[derive(Debug, Clone)]
pub struct Shared {
    pub row: quote::Model,
    pub team_name: String,
}

/// The quote a link's token opens, if it still does. An approved or declined quote stays
/// readable by its link after its date (the customer keeps their copy); a quote still waiting
/// has expired.
///
/// # Errors
///
/// A database error.
pub async fn by_token(
    db: &impl ConnectionTrait,
    token_hash: &str,
) -> Result<Result<Shared, Closed>, RepoError> {
    let Some(link) =
        quote_link::Entity::find().filter(quote_link::Column::TokenHash.eq(token_hash)).one(db).await?
    else {
        return Ok(Err(Closed::Unknown));
    };
    if link.revoked_at.is_some() {
        return Ok(Err(Closed::Revoked));
    }
    let row = reread(db, link.quote_id).await?;
    match status_of(&row) {
        QuoteStatus::Expired => return Ok(Err(Closed::Expired)),
        // Being revised after the customer declined it: its unsent edits are the shop's.
        QuoteStatus::Draft => return Ok(Err(Closed::Revising)),
        QuoteStatus::Sent | QuoteStatus::Viewed | QuoteStatus::Approved | QuoteStatus::Declined => {}
    }
    let team_name = crate::entity::team::Entity::find_by_id(row.team_id)
        .one(db)
        .await?
        .map(|team| team.name)
        .ok_or_else(|| broken(&row, "team", "missing"))?;
    Ok(Ok(Shared { row, team_name }))
}

/// Records that the customer opened version `revision`: the first time for the quote's latest
/// version, a sent quote becomes viewed. Whether this was that first time (the team is told).
///
/// # Errors
///
/// A database error.
pub async fn viewed(db: &Database, row: &quote::Model, revision: u32) -> Result<bool, RepoError> {
    if i64::from(revision) != i64::from(row.revision) || row.status.0 != QuoteStatus::Sent {
        return Ok(false);
    }
    committed(db, async |txn| {
        let changed = quote::Entity::update_many()
            .col_expr(quote::Column::Status, Expr::value(StoredQuoteStatus(QuoteStatus::Viewed)))
            .filter(quote::Column::Id.eq(row.id))
            .filter(quote::Column::Revision.eq(row.revision))
            .filter(quote::Column::Status.eq(StoredQuoteStatus(QuoteStatus::Sent)))
            .exec(txn)
            .await?;
        if changed.rows_affected == 1 {
            record(txn, row, EventKind::Viewed, None, serde_json::json!({})).await?;
        }
        Ok(changed.rows_affected == 1)
    })
    .await
}

/// What came of a customer's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answered {
    /// The quote took the answer (the team is told).
    Taken,
    /// The same answer was given before: nothing changed.
    Again,
}

/// Takes the customer's answer to version `revision`.
///
/// # Errors
///
/// 409 `quote_changed` (a newer version is out: the customer must read it first),
/// `quote_closed` (answered otherwise already, or withdrawn to a draft), `quote_expired`,
/// `edit_conflict` (another answer at the same moment); 422 `no_such_option`; a database error.
pub async fn answer(
    db: &Database,
    row: &quote::Model,
    revision: u32,
    answer: Answer,
) -> Result<Answered, RepoError> {
    let (status, kind, detail) = match &answer {
        Answer::Approved { name, po_number, quantity, .. } => (
            QuoteStatus::Approved,
            EventKind::Approved,
            serde_json::json!({ "name": name, "po_number": po_number, "quantity": quantity }),
        ),
        Answer::Declined { reason, .. } => {
            (QuoteStatus::Declined, EventKind::Declined, serde_json::json!({ "reason": reason }))
        }
    };
    committed(db, async |txn| {
        let current = reread(txn, row.id).await?;
        if same_answer(&current, &answer)? {
            return Ok(Answered::Again);
        }
        if status_of(&current) == QuoteStatus::Expired {
            return Err(RepoError::conflict(
                "quote_expired",
                "This quote has expired. Ask the shop for a new one.",
            ));
        }
        if i64::from(revision) != i64::from(current.revision) {
            return Err(RepoError::conflict(
                "quote_changed",
                "The shop has changed this quote since you opened it: please read the new version first.",
            ));
        }
        if !current.status.0.awaits_customer() {
            let message = match current.status.0 {
                QuoteStatus::Approved => "This quote is approved already.",
                QuoteStatus::Declined => "This quote was declined. Ask the shop to send it again.",
                _ => "The shop has withdrawn this quote for now.",
            };
            return Err(RepoError::conflict("quote_closed", message));
        }
        let headline = match &answer {
            Answer::Approved { quantity, .. } => {
                offer_stored(&current)?.into_iter().find(|option| option.quantity == *quantity).ok_or_else(
                    || RepoError::refused("no_such_option", "Choose one of the quantities offered."),
                )?
            }
            Answer::Declined { .. } => offer_stored(&current)?
                .into_iter()
                .next()
                .ok_or_else(|| broken(&current, "offer", "empty"))?,
        };
        let changed = quote::Entity::update_many()
            .col_expr(quote::Column::Status, Expr::value(StoredQuoteStatus(status)))
            .col_expr(quote::Column::Answer, Expr::value(to_json(&answer)?))
            .col_expr(
                quote::Column::Quantity,
                Expr::value(stored_as::<u32, i32>("quantity", headline.quantity)?),
            )
            .col_expr(quote::Column::PerPiece, Expr::value(headline.per_piece.to_string()))
            .col_expr(quote::Column::Total, Expr::value(headline.total.to_string()))
            .filter(quote::Column::Id.eq(current.id))
            .filter(quote::Column::Revision.eq(current.revision))
            .filter(quote::Column::Status.eq(current.status))
            .exec(txn)
            .await?;
        if changed.rows_affected != 1 {
            // Another answer committed meanwhile (PostgreSQL): the same one is no error.
            return if same_answer(&reread(txn, row.id).await?, &answer)? {
                Ok(Answered::Again)
            } else {
                Err(super::changed_meanwhile("quote"))
            };
        }
        record(txn, &current, kind, None, detail).await?;
        Ok(Answered::Taken)
    })
    .await
}

/// Whether the quote holds this answer already: approved for the same quantity, or declined.
fn same_answer(row: &quote::Model, answer: &Answer) -> Result<bool, RepoError> {
    Ok(match (answer_of(row)?, answer) {
        (Some(Answer::Approved { quantity: held, .. }), Answer::Approved { quantity, .. }) => {
            row.status.0 == QuoteStatus::Approved && held == *quantity
        }
        (Some(Answer::Declined { .. }), Answer::Declined { .. }) => row.status.0 == QuoteStatus::Declined,
        _ => false,
    })
}

/// The most questions a quote takes in a day: each is e-mailed to the team.
pub const QUESTIONS_PER_DAY: u64 = 10;

/// Records the customer's question about the quote.
///
/// # Errors
///
/// 422 `too_many_questions` past [`QUESTIONS_PER_DAY`]; a database error.
pub async fn ask(db: &Database, row: &quote::Model, name: &str, message: &str) -> Result<(), RepoError> {
    committed(db, async |txn| {
        // Written first, so questions at once are counted one after the other: the write holds
        // the quote's row until this transaction ends (SQLite has one writer anyway).
        quote::Entity::update_many()
            .col_expr(quote::Column::Revision, Expr::col(quote::Column::Revision))
            .filter(quote::Column::Id.eq(row.id))
            .exec(txn)
            .await?;
        let since = OffsetDateTime::now_utc() - time::Duration::days(1);
        let asked = quote_event::Entity::find()
            .filter(quote_event::Column::QuoteId.eq(row.id))
            .filter(quote_event::Column::Kind.eq(EventKind::Asked.as_str()))
            .filter(quote_event::Column::CreatedAt.gt(since))
            .count(txn)
            .await?;
        if asked >= QUESTIONS_PER_DAY {
            return Err(RepoError::refused(
                "too_many_questions",
                format!("This quote has had {QUESTIONS_PER_DAY} questions today, the most it takes. Please e-mail or call the shop."),
            ));
        }
        record(txn, row, EventKind::Asked, None, serde_json::json!({ "name": name, "message": message })).await
    })
    .await
}

/// Whom the team's notices of the customer's answers go to: who last sent the quote, if they are
/// still a member; else the team's owners.
///
/// # Errors
///
/// A database error.
pub async fn notified(db: &impl ConnectionTrait, row: &quote::Model) -> Result<Vec<String>, RepoError> {
    use crate::entity::{team_member, user};
    use bobbin_core::team::Role;
    let members = team_member::Entity::find().filter(team_member::Column::TeamId.eq(row.team_id));
    let sender = match row.sent_by {
        Some(id) => members.clone().filter(team_member::Column::UserId.eq(id)).one(db).await?,
        None => None,
    };
    let ids: Vec<UserId> = match sender {
        Some(member) => vec![member.user_id],
        None => members
            .filter(team_member::Column::Role.eq(crate::entity::ids::StoredRole(Role::Owner)))
            .all(db)
            .await?
            .into_iter()
            .map(|member| member.user_id)
            .collect(),
    };
    let users = user::Entity::find().filter(user::Column::Id.is_in(ids)).all(db).await?;
    Ok(users.into_iter().map(|user| user.email).collect())
}

/// Marks the approved quote as made into `job_id`, in the transaction that made the job.
///
/// # Errors
///
/// 409 `job_made` when its job was made meanwhile; a database error.
pub async fn made_into_job(
    txn: &DatabaseTransaction,
    row: &quote::Model,
    user_id: UserId,
    job_id: JobId,
    job_public_id: &str,
) -> Result<(), RepoError> {
    let marked = quote::Entity::update_many()
        .col_expr(quote::Column::JobId, Expr::value(job_id))
        .filter(quote::Column::Id.eq(row.id))
        .filter(quote::Column::JobId.is_null())
        .filter(quote::Column::Status.eq(StoredQuoteStatus(QuoteStatus::Approved)))
        .exec(txn)
        .await?;
    if marked.rows_affected != 1 {
        // Someone made its job at the same moment: theirs stands, this one is rolled back.
        return Err(RepoError::conflict(
            "job_made",
            "The job of this quote was just made: reload the quote.",
        ));
    }
    record(txn, row, EventKind::JobMade, Some(user_id), serde_json::json!({ "job_id": job_public_id })).await
}

/// The stored quote, by public id, for actions that need its row.
///
/// # Errors
///
/// 404; a database error.
pub async fn row(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    public_id: &QuotePublicId,
) -> Result<quote::Model, RepoError> {
    find(db, team_id, public_id).await
}

/// The shop as its customers see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Shop {
    pub name: String,
    /// Address, telephone, e-mail: a line each (may be empty).
    pub details: String,
    /// Whether the shop has a logo (`GET .../logo`).
    pub logo: bool,
}

impl Shop {
    pub fn of(team_name: &str, settings: &QuoteSettings) -> Self {
        Self {
            name: team_name.to_owned(),
            details: settings.shop_details.clone(),
            logo: settings.logo.is_some(),
        }
    }
}

/// What the customer reads of the design.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct QuoteDesign {
    pub file_name: String,
    pub stitches: u32,
    pub colours: u32,
    pub width_mm: f64,
    pub height_mm: f64,
    /// Placements on each piece.
    pub locations: u32,
    /// Whether a preview drawing exists (`GET .../preview`): the design is in the library.
    pub preview: bool,
}

/// A quote as its customer sees it: the page `/q/{token}`, its PDF, the shop's preview of both,
/// and each earlier version as it was. Holds nothing of the shop's rates, costs or margins.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CustomerQuote {
    /// `Q-0007`.
    pub number: String,
    pub revision: u32,
    pub status: QuoteStatus,
    /// What the quote is for, e.g. "Café Rosa: 50 polos".
    pub title: String,
    pub shop: Shop,
    pub customer: Customer,
    /// The day its latest version was made.
    #[schema(value_type = String, format = Date)]
    #[serde(with = "super::iso_date")]
    pub issued_on: Date,
    /// The last day it may be approved.
    #[schema(value_type = String, format = Date)]
    #[serde(with = "super::iso_date")]
    pub valid_until: Date,
    /// ISO 4217, e.g. `EUR`.
    pub currency: String,
    pub design: Option<QuoteDesign>,
    /// The quantities offered, each priced.
    pub options: Vec<OptionPrice>,
    /// The shop's own lines; each option's `lines` holds their totals at its quantity.
    pub lines: Vec<ExtraLine>,
    #[schema(value_type = String)]
    pub tax_percent: Decimal,
    pub notes: String,
    /// The customer's answer, once given.
    pub answer: Option<Answer>,
}

/// The quote as its customer sees it now.
///
/// # Errors
///
/// A stored quote that cannot be read.
pub fn customer_quote(row: &quote::Model, shop: &Shop) -> Result<CustomerQuote, RepoError> {
    let stored = stored_of(row)?;
    let terms = terms_of(row)?;
    let design = stored.design.and_then(StoredDesign::saved).map(|design| QuoteDesign {
        file_name: design.file_name.0,
        stitches: design.summary.stitches,
        colours: design.summary.colours,
        width_mm: design.summary.width_mm.0,
        height_mm: design.summary.height_mm.0,
        locations: stored.job.locations,
        preview: design.id.is_some(),
    });
    Ok(CustomerQuote {
        number: number_text(row.number),
        revision: u32::try_from(row.revision).map_err(|error| broken(row, "revision", error))?,
        status: status_of(row),
        title: row.name.clone(),
        shop: shop.clone(),
        customer: customer_of(row),
        issued_on: row.issued_on,
        valid_until: row.valid_until,
        currency: row.currency.clone(),
        design,
        options: offer_stored(row)?,
        lines: terms.lines,
        tax_percent: terms.tax_percent,
        notes: terms.notes,
        answer: answer_of(row)?,
    })
}
