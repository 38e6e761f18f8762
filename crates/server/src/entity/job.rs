use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

use super::ids::{JobId, MachineId, ObjectId, QuoteId, StoredJobStatus, TeamId, UserId};

/// A job: a design run `quantity` times (migration 18, `crate::repo::jobs`).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "jobs")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: JobId,
    pub public_id: String,
    pub team_id: TeamId,
    pub name: String,
    pub customer: String,
    /// The library file it was made from, while the team has it.
    pub design_id: Option<ObjectId>,
    /// The design's figures, blocks and threads when the job was made, JSON
    /// (`bobbin_core::job::JobDesign`).
    pub design: String,
    pub quantity: i32,
    pub pieces_done: i32,
    pub machine_id: Option<MachineId>,
    /// `YYYY-MM-DD`.
    pub due_date: Option<String>,
    pub status: StoredJobStatus,
    /// JSON: per thread of the design, an inventory entry's public id or null.
    pub plan: String,
    pub notes: String,
    pub quote_id: Option<QuoteId>,
    pub version: i32,
    pub created_by: Option<UserId>,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
