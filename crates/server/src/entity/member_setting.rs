use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

use super::ids::{TeamId, UserId};

/// One key of one member's own settings in one team; `value` is compact JSON text.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "member_settings")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub team_id: TeamId,
    #[sea_orm(primary_key, auto_increment = false)]
    pub user_id: UserId,
    #[sea_orm(primary_key, auto_increment = false)]
    pub key: String,
    pub value: String,
    pub updated_at: OffsetDateTime,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
