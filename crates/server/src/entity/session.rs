use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

use serde::{Deserialize, Serialize};

use super::ids::UserId;

/// A session's authenticator assurance level: `aal1` after a password, link or provider,
/// `aal2` once a second factor was verified too. Access tokens carry it as the `aal` claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, EnumIter, DeriveActiveEnum, Serialize, Deserialize)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(8))")]
#[serde(rename_all = "lowercase")]
pub enum Aal {
    #[sea_orm(string_value = "aal1")]
    Aal1,
    #[sea_orm(string_value = "aal2")]
    Aal2,
}

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "sessions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub user_id: UserId,
    pub aal: Aal,
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
