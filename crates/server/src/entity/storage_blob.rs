use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

use super::ids::TeamId;

/// The bytes of one distinct file content of a team, by its SHA-256 (migration 16,
/// `crate::repo::storage`).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "storage_blobs")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub team_id: TeamId,
    /// Lower-case hex SHA-256 of `bytes`.
    #[sea_orm(primary_key, auto_increment = false)]
    pub sha256: String,
    pub bytes: Vec<u8>,
    pub size: i64,
    /// When an object last came to name it: the clean-up removes a blob no object names only once
    /// this is old.
    pub last_used_at: OffsetDateTime,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
