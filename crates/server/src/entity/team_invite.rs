use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

use super::ids::{InviteId, StoredRole, TeamId, UserId};

/// An invitation to join a team, addressed to an e-mail. The e-mailed token is kept only as
/// its SHA-256; the status follows from the times (`bobbin_core::team::InviteStatus`).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "team_invites")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: InviteId,
    pub public_id: String,
    pub team_id: TeamId,
    /// Lower-cased.
    pub email: String,
    pub role: StoredRole,
    pub token_hash: String,
    pub invited_by: Option<UserId>,
    pub created_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
    pub accepted_at: Option<OffsetDateTime>,
    pub accepted_by: Option<UserId>,
    pub revoked_at: Option<OffsetDateTime>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {
    #[sea_orm(belongs_to = "super::team::Entity", from = "Column::TeamId", to = "super::team::Column::Id")]
    Team,
}

impl Related<super::team::Entity> for Entity {
    fn to() -> RelationDef {
        Relation::Team.def()
    }
}

impl ActiveModelBehavior for ActiveModel {}
