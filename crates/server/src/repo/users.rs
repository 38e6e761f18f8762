//! People as the product API shows them: who changed an entry, who saved a quote.

use std::collections::HashMap;

use sea_orm::{ColumnTrait as _, ConnectionTrait, DbErr, EntityTrait as _, QueryFilter as _};
use uuid::Uuid;

use crate::entity::user;

/// The e-mail address of each of these users (who changed an entry, who saved a quote), read in
/// one query.
pub async fn emails_of(
    db: &impl ConnectionTrait,
    ids: impl Iterator<Item = Uuid>,
) -> Result<HashMap<Uuid, String>, DbErr> {
    let mut ids: Vec<Uuid> = ids.collect();
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let users = user::Entity::find().filter(user::Column::Id.is_in(ids)).all(db).await?;
    Ok(users.into_iter().map(|user| (user.id, user.email)).collect())
}
