use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

use super::ids::UserId;

/// PKCE flow state: created when a flow starts with a `code_challenge`, given an auth code when
/// the e-mailed link or the OAuth callback succeeds, and deleted when the code is exchanged.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "flow_states")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub user_id: Option<UserId>,
    pub code_challenge: String,
    /// `s256` or `plain`.
    pub code_challenge_method: String,
    pub provider_type: String,
    pub authentication_method: String,
    pub redirect_to: Option<String>,
    pub auth_code_hash: Option<String>,
    pub auth_code_issued_at: Option<OffsetDateTime>,
    pub created_at: OffsetDateTime,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
