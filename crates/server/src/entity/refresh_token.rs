use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "refresh_tokens")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub session_id: Uuid,
    /// SHA-256 of the token, hex.
    pub token_hash: String,
    pub parent_id: Option<Uuid>,
    pub revoked: bool,
    pub created_at: OffsetDateTime,
    /// When it was revoked, for revoked tokens: the start of the reuse interval.
    pub updated_at: OffsetDateTime,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
