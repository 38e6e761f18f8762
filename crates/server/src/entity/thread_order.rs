use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

use super::ids::{OrderId, StockChangeId, TeamId, ThreadId, UserId};

/// Spools of an inventory entry ordered from the shopping list (migration 18).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "thread_orders")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: OrderId,
    pub public_id: String,
    pub team_id: TeamId,
    pub thread_id: ThreadId,
    pub spools: i32,
    pub created_by: Option<UserId>,
    pub created_at: OffsetDateTime,
    /// Null while ordered.
    pub received_at: Option<OffsetDateTime>,
    /// The stock change that added the spools, once received.
    pub change_id: Option<StockChangeId>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
