use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "one_time_tokens")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub user_id: Uuid,
    /// `confirmation`, `recovery`, `magiclink` or `email_change`.
    pub kind: String,
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
