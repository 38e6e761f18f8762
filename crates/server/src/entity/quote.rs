use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

use super::ids::{ObjectId, QuoteId, TeamId, UserId};

/// A saved quote of the pricing calculator (`crate::routes::quotes`).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "quotes")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: QuoteId,
    pub public_id: String,
    pub team_id: TeamId,
    pub name: String,
    pub currency: String,
    pub quantity: i32,
    /// Decimal text, e.g. `"7.12"`.
    pub per_piece: String,
    pub total: String,
    /// JSON text: `{ rates, job, design }`.
    pub input: String,
    /// JSON text: the core's `Quote`.
    pub result: String,
    pub created_by: Option<UserId>,
    pub created_at: OffsetDateTime,
    /// The design of the team's library it was priced from (`storage_objects.id`), if any; it
    /// may since have been removed (migration 17).
    pub design_id: Option<ObjectId>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
