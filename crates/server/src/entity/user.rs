use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

use super::ids::{TeamId, UserId};

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "users")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: UserId,
    /// Lower-cased.
    pub email: String,
    /// Argon2id PHC string; `None` for accounts that only sign in through OAuth.
    pub encrypted_password: Option<String>,
    pub email_confirmed_at: Option<OffsetDateTime>,
    pub last_sign_in_at: Option<OffsetDateTime>,
    pub raw_user_meta_data: Json,
    pub raw_app_meta_data: Json,
    pub confirmation_sent_at: Option<OffsetDateTime>,
    pub recovery_sent_at: Option<OffsetDateTime>,
    /// A new address waiting for confirmation.
    pub email_change: Option<String>,
    pub email_change_sent_at: Option<OffsetDateTime>,
    /// The team the app opens first; only meaningful while the person is still its member.
    pub default_team_id: Option<TeamId>,
    /// Set by an operator (`bobbin users disable`): the person cannot sign in while it is.
    pub disabled_at: Option<OffsetDateTime>,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
