use sea_orm::entity::prelude::*;

use super::ids::TeamId;

/// The last quote number a team gave (migration 19).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "quote_numbers")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub team_id: TeamId,
    pub last: i32,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
