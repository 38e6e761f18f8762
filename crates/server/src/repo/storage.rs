//! A team's files (the storage service area, `crate::storage`): each team's bucket holds objects
//! by key, and each object names the blob of its bytes. A team's blobs are content-addressed by
//! SHA-256 (migration 16): a file uploaded twice, or copied within the team, is stored once, and
//! such a copy writes no bytes. Blobs are never shared between teams, so that how an upload is
//! stored tells no one what another team holds.
//!
//! Every write of a team's files takes the team's row lock first ([`super::members::lock_team`]),
//! so that two uploads at once cannot both find room under the quota, nor both take one new key.
//!
//! A team's files are bounded twice: by their total size (the team's quota, counted as the
//! sizes of its objects, whatever blobs they share) and by their number ([`MAX_OBJECTS`]), so that
//! listing a bucket reads a bounded number of rows. Both are checked in the write transaction
//! that adds the file.
//!
//! A blob no object names any more stays until the periodic clean-up ([`prune_blobs`]), which
//! removes only blobs unused for a while: an upload that found its blob already stored touches
//! it (`last_used_at`) in its own transaction, so the clean-up never removes a blob an upload is
//! about to name.

use sea_orm::{
    ActiveModelTrait as _,
    ActiveValue::Set,
    ColumnTrait as _, ConnectionTrait, DatabaseTransaction, DbErr, DerivePartialModel, EntityTrait as _,
    QueryFilter as _, QuerySelect as _,
    sea_query::{Expr, ExprTrait as _, Func, Query},
};
use std::collections::HashMap;

use time::{Duration, OffsetDateTime};

use super::{RepoError, members::lock_team};
use crate::{
    db::{Database, committed},
    entity::{
        ids::{ObjectId, TeamId, UserId},
        storage_blob, storage_object,
    },
};

/// The most files one team's bucket may hold.
pub const MAX_OBJECTS: u64 = 10_000;

/// What a missing object answers.
pub const NO_SUCH_KEY: &str = "Object not found";

/// What a design of the library that is not there, or not a design Bobbin can read, answers.
pub const NO_DESIGN: &str = "There is no such design in this team, or it is not a design Bobbin can read.";

/// How long a blob no object names is kept before the clean-up removes it.
pub const UNUSED_BLOBS_KEPT_FOR: Duration = Duration::hours(1);

/// A file to store: its key, its bytes and their SHA-256, and what a download of it says.
#[derive(Debug)]
pub struct NewObject {
    pub name: String,
    pub bytes: Vec<u8>,
    /// Lower-case hex SHA-256 of `bytes`.
    pub sha256: String,
    pub mimetype: String,
    pub cache_control: String,
    pub user_metadata: Option<String>,
    /// What the core read of it as a design, JSON.
    pub design: Option<String>,
    /// A readable design's preview, SVG.
    pub preview: Option<String>,
}

/// Stores `object` in `team_id`'s bucket for `owner`: a new key, or with `upsert` a new content
/// for an existing one (keeping its id). Refused (`KeyAlreadyExists`) when the key is taken and
/// `upsert` is not set, and (`EntityTooLarge`, `TooManyObjects`) when the team's files would go
/// over `quota` bytes or [`MAX_OBJECTS`] files.
///
/// # Errors
///
/// The refusals above; a database error.
pub async fn put(
    db: &Database,
    team_id: TeamId,
    owner: UserId,
    object: NewObject,
    upsert: bool,
    quota: u64,
) -> Result<storage_object::Model, RepoError> {
    committed(db, async |txn| {
        lock_team(txn, team_id).await?;
        let now = OffsetDateTime::now_utc();
        let existing = find(txn, team_id, &object.name).await.ok();
        if existing.is_some() && !upsert {
            return Err(already_exists("KeyAlreadyExists"));
        }
        let size = i64::try_from(object.bytes.len()).map_err(|_| too_large(quota))?;
        check_room(
            txn,
            team_id,
            size - existing.as_ref().map_or(0, |row| row.size),
            existing.is_none(),
            quota,
        )
        .await?;
        keep_blob(txn, team_id, &object.sha256, Some(object.bytes), now).await?;
        let row = storage_object::ActiveModel {
            id: Set(existing.as_ref().map_or_else(ObjectId::new, |row| row.id)),
            team_id: Set(team_id),
            name: Set(object.name),
            sha256: Set(object.sha256),
            size: Set(size),
            mimetype: Set(object.mimetype),
            cache_control: Set(object.cache_control),
            user_metadata: Set(object.user_metadata),
            owner: Set(Some(owner)),
            design: Set(object.design),
            preview: Set(object.preview),
            created_at: Set(existing.as_ref().map_or(now, |row| row.created_at)),
            updated_at: Set(now),
        };
        Ok(if existing.is_some() { row.update(txn).await? } else { row.insert(txn).await? })
    })
    .await
}

/// The team's object with this id, without its bytes.
///
/// # Errors
///
/// [`RepoError::NotFound`] ([`NO_SUCH_KEY`]); a database error.
pub async fn by_id(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    id: ObjectId,
) -> Result<storage_object::Model, RepoError> {
    storage_object::Entity::find_by_id(id)
        .filter(storage_object::Column::TeamId.eq(team_id))
        .one(db)
        .await?
        .ok_or_else(|| RepoError::NotFound(NO_SUCH_KEY.to_owned()))
}

/// The object `name` of the team's bucket, without its bytes.
///
/// # Errors
///
/// [`RepoError::NotFound`] ([`NO_SUCH_KEY`]); a database error.
pub async fn info(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    name: &str,
) -> Result<storage_object::Model, RepoError> {
    find(db, team_id, name).await
}

/// The object with this id, if it still has this key in the team's bucket and the content
/// `sha256`: what a signed URL made for it downloads.
///
/// # Errors
///
/// [`RepoError::NotFound`] ([`NO_SUCH_KEY`]) when it is gone, moved, replaced or another
/// object; a database error.
pub async fn signed(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    name: &str,
    (id, sha256): (ObjectId, &str),
) -> Result<storage_object::Model, RepoError> {
    let object = find(db, team_id, name).await?;
    if object.id != id || object.sha256 != sha256 {
        return Err(RepoError::NotFound(NO_SUCH_KEY.to_owned()));
    }
    Ok(object)
}

/// `length` bytes of the object's content from `offset` (fewer at its end): a download is sent
/// a piece at a time, so that a slow reader holds no more than a piece in memory.
///
/// # Errors
///
/// A database error; the blob gone (removed since the download began), as a broken row.
pub async fn piece(
    db: &impl ConnectionTrait,
    object: &storage_object::Model,
    offset: u64,
    length: u64,
) -> Result<Vec<u8>, RepoError> {
    // `substr(bytea, integer, integer)` on PostgreSQL: 32-bit, as a file's limit is.
    let start = i32::try_from(offset).unwrap_or(i32::MAX).saturating_add(1);
    let length = i32::try_from(length).unwrap_or(i32::MAX);
    let piece: Option<Vec<u8>> = storage_blob::Entity::find_by_id((object.team_id, object.sha256.clone()))
        .select_only()
        .column_as(
            Expr::from(
                Func::cust("substr").arg(Expr::col(storage_blob::Column::Bytes)).arg(start).arg(length),
            ),
            "piece",
        )
        .into_tuple()
        .one(db)
        .await?;
    piece.ok_or_else(|| RepoError::Broken(anyhow::anyhow!("the content of object {} is gone", object.id)))
}

/// An object as a list shows it: its key and figures, without its bytes, design or preview (a
/// bucket of [`MAX_OBJECTS`] previews would be hundreds of megabytes read for one list).
#[derive(Clone, Debug, PartialEq, Eq, DerivePartialModel)]
#[sea_orm(entity = "storage_object::Entity")]
pub struct Listed {
    pub id: ObjectId,
    pub name: String,
    pub sha256: String,
    pub size: i64,
    pub mimetype: String,
    pub cache_control: String,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

impl From<storage_object::Model> for Listed {
    fn from(object: storage_object::Model) -> Self {
        Self {
            id: object.id,
            name: object.name,
            sha256: object.sha256,
            size: object.size,
            mimetype: object.mimetype,
            cache_control: object.cache_control,
            created_at: object.created_at,
            updated_at: object.updated_at,
        }
    }
}

/// Every object of the team's bucket (at most [`MAX_OBJECTS`]), as lists show them, in no
/// particular order.
///
/// # Errors
///
/// A database error.
pub async fn all(db: &impl ConnectionTrait, team_id: TeamId) -> Result<Vec<Listed>, RepoError> {
    Ok(storage_object::Entity::find()
        .filter(storage_object::Column::TeamId.eq(team_id))
        .into_partial_model()
        .all(db)
        .await?)
}

/// The objects of the team's bucket that are designs Bobbin can read (those with a preview), as
/// lists show them, in no particular order.
///
/// # Errors
///
/// A database error.
pub async fn readable_designs(db: &impl ConnectionTrait, team_id: TeamId) -> Result<Vec<Listed>, RepoError> {
    Ok(storage_object::Entity::find()
        .filter(storage_object::Column::TeamId.eq(team_id))
        .filter(storage_object::Column::Preview.is_not_null())
        .into_partial_model()
        .all(db)
        .await?)
}

/// What the core read of each of these objects of the team as a design (JSON, `None` for a file
/// that is no design), by id: the designs of one page of a list.
///
/// # Errors
///
/// A database error.
pub async fn designs_of(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    ids: &[ObjectId],
) -> Result<HashMap<ObjectId, Option<String>>, RepoError> {
    let rows: Vec<(ObjectId, Option<String>)> = storage_object::Entity::find()
        .select_only()
        .columns([storage_object::Column::Id, storage_object::Column::Design])
        .filter(storage_object::Column::TeamId.eq(team_id))
        .filter(storage_object::Column::Id.is_in(ids.iter().copied()))
        .into_tuple()
        .all(db)
        .await?;
    Ok(rows.into_iter().collect())
}

/// Gives the object `from` of `from_team` the key `to` in `to_team`'s bucket (the same team, or
/// another the caller may write to). Refused (`ResourceAlreadyExists`) when `to` is taken; moving
/// to another team checks its quota.
///
/// # Errors
///
/// [`RepoError::NotFound`] when `from` is missing; the refusals above; a database error.
pub async fn rename(
    db: &Database,
    (from_team, from): (TeamId, &str),
    (to_team, to): (TeamId, &str),
    quota: u64,
) -> Result<(), RepoError> {
    committed(db, async |txn| {
        lock_teams(txn, from_team, to_team).await?;
        let object = find(txn, from_team, from).await?;
        if find(txn, to_team, to).await.is_ok() {
            return Err(already_exists("ResourceAlreadyExists"));
        }
        if to_team != from_team {
            check_room(txn, to_team, object.size, true, quota).await?;
            let bytes = whole(txn, &object).await?;
            keep_blob(txn, to_team, &object.sha256, Some(bytes), OffsetDateTime::now_utc()).await?;
        }
        let mut row: storage_object::ActiveModel = object.into();
        row.team_id = Set(to_team);
        row.name = Set(to.to_owned());
        row.updated_at = Set(OffsetDateTime::now_utc());
        row.update(txn).await?;
        Ok(())
    })
    .await
}

/// A new object `to` in `to_team`'s bucket with the content of `from` (within a team no bytes are
/// copied: both name one blob), owned by `owner`. Refused (`KeyAlreadyExists`) when `to` is taken, and when the
/// team's files would go over its quota or [`MAX_OBJECTS`].
///
/// # Errors
///
/// [`RepoError::NotFound`] when `from` is missing; the refusals above; a database error.
pub async fn copy(
    db: &Database,
    (from_team, from): (TeamId, &str),
    (to_team, to): (TeamId, &str),
    owner: UserId,
    quota: u64,
) -> Result<storage_object::Model, RepoError> {
    committed(db, async |txn| {
        lock_teams(txn, from_team, to_team).await?;
        let source = find(txn, from_team, from).await?;
        if find(txn, to_team, to).await.is_ok() {
            return Err(already_exists("KeyAlreadyExists"));
        }
        check_room(txn, to_team, source.size, true, quota).await?;
        let now = OffsetDateTime::now_utc();
        // Within the team the blob is there; another team gets a blob of its own.
        let bytes = if to_team == from_team { None } else { Some(whole(txn, &source).await?) };
        keep_blob(txn, to_team, &source.sha256, bytes, now).await?;
        let row = storage_object::ActiveModel {
            id: Set(ObjectId::new()),
            team_id: Set(to_team),
            name: Set(to.to_owned()),
            sha256: Set(source.sha256),
            size: Set(source.size),
            mimetype: Set(source.mimetype),
            cache_control: Set(source.cache_control),
            user_metadata: Set(source.user_metadata),
            owner: Set(Some(owner)),
            design: Set(source.design),
            preview: Set(source.preview),
            created_at: Set(now),
            updated_at: Set(now),
        };
        Ok(row.insert(txn).await?)
    })
    .await
}

/// Removes the objects of the team's bucket with these keys; keys it does not hold are passed
/// over. Answers the objects removed.
///
/// # Errors
///
/// A database error.
pub async fn remove(db: &Database, team_id: TeamId, names: &[String]) -> Result<Vec<Listed>, RepoError> {
    committed(db, async |txn| {
        let removed: Vec<Listed> = storage_object::Entity::find()
            .filter(storage_object::Column::TeamId.eq(team_id))
            .filter(storage_object::Column::Name.is_in(names.iter().map(String::as_str)))
            .into_partial_model()
            .all(txn)
            .await?;
        storage_object::Entity::delete_many()
            .filter(storage_object::Column::Id.is_in(removed.iter().map(|row| row.id)))
            .exec(txn)
            .await?;
        Ok(removed)
    })
    .await
}

/// The bytes the team's files take together, and how many there are.
///
/// # Errors
///
/// A database error.
pub async fn usage(db: &impl ConnectionTrait, team_id: TeamId) -> Result<(u64, u64), RepoError> {
    let (bytes, count): (Option<i64>, i64) = storage_object::Entity::find()
        .select_only()
        // PostgreSQL sums a BIGINT as a NUMERIC.
        .column_as(Expr::cust(r#"CAST(SUM("size") AS BIGINT)"#), "bytes")
        .column_as(Expr::col(storage_object::Column::Id).count(), "count")
        .filter(storage_object::Column::TeamId.eq(team_id))
        .into_tuple()
        .one(db)
        .await?
        .unwrap_or((None, 0));
    Ok((bytes.unwrap_or(0).try_into().unwrap_or(0), count.try_into().unwrap_or(0)))
}

/// Removes the blobs no object names that were last used before `unused_since`; answers how
/// many. Part of the periodic clean-up (`crate::prune`).
///
/// # Errors
///
/// A database error.
pub async fn prune_blobs(db: &Database, unused_since: OffsetDateTime) -> Result<u64, DbErr> {
    let named = Query::select()
        .expr(Expr::val(1))
        .from(storage_object::Entity)
        .and_where(
            Expr::col((storage_object::Entity, storage_object::Column::TeamId))
                .equals((storage_blob::Entity, storage_blob::Column::TeamId)),
        )
        .and_where(
            Expr::col((storage_object::Entity, storage_object::Column::Sha256))
                .equals((storage_blob::Entity, storage_blob::Column::Sha256)),
        )
        .to_owned();
    let result = committed(db, async |txn| {
        storage_blob::Entity::delete_many()
            .filter(storage_blob::Column::LastUsedAt.lt(unused_since))
            .filter(Expr::exists(named).not())
            .exec(txn)
            .await
    })
    .await?;
    Ok(result.rows_affected)
}

async fn find(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    name: &str,
) -> Result<storage_object::Model, RepoError> {
    storage_object::Entity::find()
        .filter(storage_object::Column::TeamId.eq(team_id))
        .filter(storage_object::Column::Name.eq(name))
        .one(db)
        .await?
        .ok_or_else(|| RepoError::NotFound(NO_SUCH_KEY.to_owned()))
}

/// The whole content of `object` (at most a file's limit): for a copy to another team.
async fn whole(db: &impl ConnectionTrait, object: &storage_object::Model) -> Result<Vec<u8>, RepoError> {
    let bytes: Option<Vec<u8>> = storage_blob::Entity::find_by_id((object.team_id, object.sha256.clone()))
        .select_only()
        .column(storage_blob::Column::Bytes)
        .into_tuple()
        .one(db)
        .await?;
    bytes.ok_or_else(|| RepoError::Broken(anyhow::anyhow!("object {} names a missing blob", object.id)))
}

/// Takes the row locks of both teams, in one order whatever the direction (two moves between
/// the same teams in opposite directions would otherwise wait for each other).
async fn lock_teams(txn: &DatabaseTransaction, one: TeamId, other: TeamId) -> Result<(), RepoError> {
    let (first, second) = if one <= other { (one, other) } else { (other, one) };
    lock_team(txn, first).await?;
    if second != first {
        lock_team(txn, second).await?;
    }
    Ok(())
}

/// Refuses adding `added` bytes (and, when `new_file`, one file) to the team's bucket when that
/// would go over `quota` or [`MAX_OBJECTS`].
async fn check_room(
    txn: &DatabaseTransaction,
    team_id: TeamId,
    added: i64,
    new_file: bool,
    quota: u64,
) -> Result<(), RepoError> {
    let (used, count) = usage(txn, team_id).await?;
    let after = i64::try_from(used).unwrap_or(i64::MAX).saturating_add(added);
    if after > i64::try_from(quota).unwrap_or(i64::MAX) {
        return Err(too_large(quota));
    }
    if new_file && count >= MAX_OBJECTS {
        return Err(RepoError::refused(
            "TooManyObjects",
            format!("The team's files are at their limit of {MAX_OBJECTS}: remove some first."),
        ));
    }
    Ok(())
}

/// Makes sure the team's blob `sha256` is stored (with `bytes`, when it is not yet and they are
/// given) and marks it used now.
async fn keep_blob(
    txn: &DatabaseTransaction,
    team_id: TeamId,
    sha256: &str,
    bytes: Option<Vec<u8>>,
    now: OffsetDateTime,
) -> Result<(), RepoError> {
    let touched = storage_blob::Entity::update_many()
        .col_expr(storage_blob::Column::LastUsedAt, Expr::value(now))
        .filter(storage_blob::Column::TeamId.eq(team_id))
        .filter(storage_blob::Column::Sha256.eq(sha256))
        .exec(txn)
        .await?;
    if touched.rows_affected > 0 {
        return Ok(());
    }
    let bytes = bytes.ok_or_else(|| RepoError::Broken(anyhow::anyhow!("blob {sha256} is missing")))?;
    storage_blob::Entity::insert(storage_blob::ActiveModel {
        team_id: Set(team_id),
        sha256: Set(sha256.to_owned()),
        size: Set(i64::try_from(bytes.len()).unwrap_or(i64::MAX)),
        bytes: Set(bytes),
        last_used_at: Set(now),
    })
    .exec_without_returning(txn)
    .await?;
    Ok(())
}

fn already_exists(code: &'static str) -> RepoError {
    RepoError::conflict(code, "The resource already exists")
}

fn too_large(quota: u64) -> RepoError {
    RepoError::refused(
        "EntityTooLarge",
        format!(
            "The team's files would take more than its storage of {} MB: remove some first.",
            quota / 1_000_000
        ),
    )
}
