use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

use super::ids::{MachineId, StoredMachineStatus, TeamId, UserId};

/// One embroidery machine of a team (`bobbin_core::inventory::machine::Machine`).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "machines")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: MachineId,
    pub public_id: String,
    pub team_id: TeamId,
    pub name: String,
    pub brand: String,
    pub model: String,
    pub serial_number: String,
    pub heads: i32,
    pub needles_per_head: i32,
    pub max_spm: Option<i32>,
    pub typical_spm: Option<i32>,
    /// JSON text: a list of `Hoop`.
    pub hoops: String,
    pub status: StoredMachineStatus,
    /// `YYYY-MM-DD`.
    pub purchase_date: Option<String>,
    pub notes: String,
    /// JSON text: a list of `Interval`, one per kind set (`[]`: the defaults).
    pub maintenance_intervals: String,
    pub version: i32,
    pub updated_by: Option<UserId>,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
