use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

use super::ids::{TeamId, ThreadId, UserId};

/// One thread a team owns (`bobbin_core::inventory::ThreadEntry`); amounts in hundredths.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "inventory_threads")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: ThreadId,
    pub public_id: String,
    pub team_id: TeamId,
    /// `ThreadSource::identity()`: unique per team.
    pub identity: String,
    pub line_id: Option<String>,
    pub code: Option<String>,
    /// Custom threads only.
    pub name: Option<String>,
    /// `#RRGGBB`.
    pub colour: String,
    pub quantity: i64,
    pub spool_length_m: Option<i32>,
    pub location: String,
    pub reorder_point: Option<i64>,
    pub cost_per_spool: Option<i64>,
    pub notes: String,
    pub version: i32,
    pub updated_by: Option<UserId>,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
