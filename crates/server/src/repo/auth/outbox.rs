//! The development outbox (`mail_outbox`): e-mail kept instead of sent when no SMTP server is
//! configured.

use sea_orm::{
    ActiveValue::Set, ConnectionTrait, DbErr, EntityTrait as _, QueryOrder as _, QuerySelect as _,
};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::Database;
use crate::{db::committed, entity::mail_outbox};

/// An e-mail to keep.
#[derive(Debug, Clone)]
pub struct NewMail {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
}

/// Keeps `mail`, committed before this returns.
///
/// # Errors
///
/// The database's.
pub async fn store(db: &Database, mail: NewMail) -> Result<(), DbErr> {
    let stored = mail_outbox::ActiveModel {
        id: Set(Uuid::new_v4()),
        to_address: Set(mail.to),
        subject: Set(mail.subject),
        text_body: Set(mail.text),
        html_body: Set(mail.html),
        created_at: Set(OffsetDateTime::now_utc()),
    };
    committed(db, async |txn| mail_outbox::Entity::insert(stored).exec(txn).await).await?;
    Ok(())
}

/// The `limit` newest e-mails, newest first.
///
/// # Errors
///
/// The database's.
pub async fn newest(db: &impl ConnectionTrait, limit: u64) -> Result<Vec<mail_outbox::Model>, DbErr> {
    mail_outbox::Entity::find().order_by_desc(mail_outbox::Column::CreatedAt).limit(limit).all(db).await
}
