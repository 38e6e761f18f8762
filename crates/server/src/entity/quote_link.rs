use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

use super::ids::{QuoteId, QuoteLinkId};

/// A link to a quote sent to its customer (migration 19).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "quote_links")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: QuoteLinkId,
    pub quote_id: QuoteId,
    /// The SHA-256 of the link's token, hex.
    pub token_hash: String,
    pub created_at: OffsetDateTime,
    pub revoked_at: Option<OffsetDateTime>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
