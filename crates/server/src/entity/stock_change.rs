use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

use super::ids::{JobId, StockChangeId, TeamId, UserId};

/// A change of the inventory's stock made by a job's pieces or an order received (migration 18,
/// `crate::repo::stock`); its lines are `stock_change_lines`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "stock_changes")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: StockChangeId,
    pub public_id: String,
    pub team_id: TeamId,
    /// `job` or `received`.
    pub kind: String,
    pub job_id: Option<JobId>,
    /// The job's pieces it counts.
    pub pieces: Option<i32>,
    pub summary: String,
    pub created_by: Option<UserId>,
    pub created_at: OffsetDateTime,
    pub undone_at: Option<OffsetDateTime>,
    pub undone_by: Option<UserId>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
