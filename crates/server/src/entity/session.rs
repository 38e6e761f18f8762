use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "sessions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub user_id: Uuid,
    /// `aal1` or `aal2`.
    pub aal: String,
    pub not_after: Option<OffsetDateTime>,
    pub refreshed_at: Option<OffsetDateTime>,
    pub user_agent: Option<String>,
    pub ip: Option<String>,
    /// `[{"method": "password", "timestamp": 1700000000}, ...]`
    pub amr: Option<Json>,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
