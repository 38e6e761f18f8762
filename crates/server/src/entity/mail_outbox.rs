use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

/// Mail kept instead of sent when no SMTP server is configured (development and tests).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "mail_outbox")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub to_address: String,
    pub subject: String,
    pub text_body: String,
    pub html_body: String,
    pub created_at: OffsetDateTime,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
