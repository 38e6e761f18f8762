use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

use super::ids::{LogId, MachineId, StoredMaintenanceKind, UserId};

/// One entry of a machine's maintenance log.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "machine_maintenance")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: LogId,
    pub public_id: String,
    pub machine_id: MachineId,
    /// `YYYY-MM-DD`.
    pub performed_on: String,
    /// `bobbin_core::inventory::machine::MaintenanceKind` as text.
    pub kind: StoredMaintenanceKind,
    pub notes: String,
    pub stitch_counter: Option<i64>,
    pub recorded_by: Option<UserId>,
    pub created_at: OffsetDateTime,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
