use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

use super::ids::UserId;

/// The kinds of e-mailed one-time token; the `kind` column holds the string value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(32))")]
pub enum TokenKind {
    #[sea_orm(string_value = "confirmation")]
    Confirmation,
    #[sea_orm(string_value = "recovery")]
    Recovery,
    #[sea_orm(string_value = "magiclink")]
    MagicLink,
    /// Sent to the current address of an e-mail change.
    #[sea_orm(string_value = "email_change_current")]
    EmailChangeCurrent,
    /// Sent to the new address of an e-mail change.
    #[sea_orm(string_value = "email_change_new")]
    EmailChangeNew,
}

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "one_time_tokens")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub user_id: UserId,
    pub kind: TokenKind,
    pub token_hash: String,
    pub code_hash: String,
    pub relates_to: String,
    pub flow_state_id: Option<Uuid>,
    pub created_at: OffsetDateTime,
    /// Wrong codes tried against this token's address; void at [`MAX_CODE_ATTEMPTS`].
    ///
    /// [`MAX_CODE_ATTEMPTS`]: crate::repo::auth::one_time_tokens::MAX_CODE_ATTEMPTS
    pub attempts: i32,
    /// For a sign-up's confirmation: the Argon2 hash of the password that sign-up chose, which
    /// becomes the account's password when this token proves the address.
    pub password_hash: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
