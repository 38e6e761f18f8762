use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

use super::ids::{QuoteEventId, QuoteId, UserId};

/// A line of a quote's history (migration 19).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "quote_events")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: QuoteEventId,
    pub quote_id: QuoteId,
    /// `repo::quotes::EventKind`, as text.
    pub kind: String,
    /// The version it happened to.
    pub revision: i32,
    /// The team member who did it; none for the customer.
    pub user_id: Option<UserId>,
    /// JSON text: what it says besides its kind.
    pub detail: String,
    pub created_at: OffsetDateTime,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
