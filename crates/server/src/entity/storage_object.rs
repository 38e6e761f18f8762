use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

use super::ids::{ObjectId, TeamId, UserId};

/// A file in a team's bucket: its key (`name`) and the blob holding its bytes (migration 16,
/// `crate::repo::storage`).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "storage_objects")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: ObjectId,
    pub team_id: TeamId,
    /// The key in the bucket: `folder/file.dst`.
    pub name: String,
    /// The blob's SHA-256.
    pub sha256: String,
    pub size: i64,
    pub mimetype: String,
    /// The `Cache-Control` a download of it carries (`max-age=3600`).
    pub cache_control: String,
    /// The uploader's own metadata, JSON.
    pub user_metadata: Option<String>,
    /// Who uploaded it, while their account exists.
    pub owner: Option<UserId>,
    /// What the core read of it as a design file, JSON (`crate::storage::designs`); `None` for a
    /// file that is no design.
    pub design: Option<String>,
    /// A readable design's preview, SVG.
    pub preview: Option<String>,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
