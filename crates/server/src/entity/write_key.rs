use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

use super::ids::{TeamId, UserId};

/// A write a client may send again, by its `Idempotency-Key` (migration 15,
/// `crate::repo::write_keys`).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "write_keys")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub team_id: TeamId,
    #[sea_orm(primary_key, auto_increment = false)]
    pub user_id: UserId,
    #[sea_orm(primary_key, auto_increment = false)]
    pub key: String,
    /// SHA-256 of the request's method, path and body, in hex.
    pub request: String,
    /// The answer's body, JSON.
    pub answer: String,
    pub created_at: OffsetDateTime,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
