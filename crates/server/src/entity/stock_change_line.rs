use sea_orm::entity::prelude::*;

use super::ids::{StockChangeId, StockLineId, ThreadId};

/// One entry's part of a stock change (migration 18).
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "stock_change_lines")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: StockLineId,
    pub change_id: StockChangeId,
    /// Null once the entry is removed from the inventory.
    pub thread_id: Option<ThreadId>,
    /// The entry as it was named then: "Madeira Polyneon 40 1800 Red".
    pub label: String,
    /// Hundredths of a spool: negative for thread used, positive for spools received.
    pub delta: i64,
    /// The metres it stands for.
    pub metres: f64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
