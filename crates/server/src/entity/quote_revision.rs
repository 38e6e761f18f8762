use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

use super::ids::{QuoteId, QuoteRevisionId};

/// An earlier version of a quote, as its customer saw it (migration 19).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "quote_revisions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: QuoteRevisionId,
    pub quote_id: QuoteId,
    pub revision: i32,
    /// JSON text: `repo::quotes::CustomerQuote`.
    pub document: String,
    /// When the version was replaced by the next.
    pub created_at: OffsetDateTime,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
