//! Writes a client may send again without doing them twice (`Idempotency-Key`, issue 48).
//!
//! A client that did not hear the answer to a write (the connection dropped, the page reloaded,
//! the server answered 503 or 408 after the change was made) cannot know whether it happened.
//! It sends the write again with the same key: the first time, the change is made and the key
//! is kept in the change's own transaction with a digest of the request and the answer given;
//! any later time, within [`KEPT_FOR`], the same answer is given again and nothing changes. A
//! key sent with another request is refused, as the IETF draft "The Idempotency-Key HTTP Header
//! Field" asks. Keys belong to one person in one team.
//!
//! Two sends of one key at the same moment cannot both write: on SQLite writes take turns; on
//! PostgreSQL the second one's insert of the key waits for the first's commit and then fails on
//! the primary key, which rolls its change back, and it answers what the first stored.

use sea_orm::{ActiveModelTrait as _, DatabaseTransaction, EntityTrait as _, Set, SqlErr};
use serde::Serialize;
use time::{Duration, OffsetDateTime};

use super::RepoError;
use crate::{
    db::{Database, committed},
    entity::{
        ids::{TeamId, UserId},
        write_key,
    },
};

/// How long a key is kept after its write: at least a day (the periodic clean-up deletes older
/// ones).
pub const KEPT_FOR: Duration = Duration::days(1);

/// The most characters a key may have.
pub const MAX_KEY_CHARS: usize = 255;

/// A client's name for one write, and the digest of the request it came with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteKey {
    key: String,
    /// SHA-256 of what was asked (method, path and body), in hex.
    request: String,
}

impl WriteKey {
    /// `key` as the client sent it, with the digest of its request; `None` for a key that is
    /// empty, longer than [`MAX_KEY_CHARS`] or not printable ASCII.
    pub fn new(key: &str, request: String) -> Option<Self> {
        let usable = !key.is_empty()
            && key.len() <= MAX_KEY_CHARS
            && key.bytes().all(|byte| byte.is_ascii_graphic() || byte == b' ');
        usable.then(|| Self { key: key.to_owned(), request })
    }
}

/// Who a key belongs to: one person in one team.
#[derive(Debug, Clone, Copy)]
pub struct Owner {
    pub team_id: TeamId,
    pub user_id: UserId,
}

/// What [`once`] answers: the write's answer now, or the one given when it was first made.
#[derive(Debug)]
pub enum Answer<T> {
    Made(T),
    /// The JSON of the first answer.
    Again(String),
}

/// The answer for a key sent with another request.
pub const REUSED: &str = "idempotency_key_reused";

/// Runs `write` in a write transaction of its own ([`committed`]) and, when the client sent a
/// `key`, keeps the key with `write`'s answer in that transaction; when the key was already
/// kept for this request, answers what was kept without running `write`.
///
/// # Errors
///
/// `write`'s own (then nothing is kept: the client may try again); [`REUSED`] when the key was
/// kept for another request; a database error.
pub async fn once<T: Serialize>(
    db: &Database,
    owner: Owner,
    key: Option<&WriteKey>,
    write: impl AsyncFnOnce(&DatabaseTransaction) -> Result<T, RepoError>,
) -> Result<Answer<T>, RepoError> {
    let Some(key) = key else {
        return committed(db, write).await.map(Answer::Made);
    };
    let made = committed(db, async |txn| {
        if let Some(kept) = kept(txn, owner, key).await? {
            return again(kept, key);
        }
        let answer = write(txn).await?;
        let stored = serde_json::to_string(&answer).map_err(anyhow::Error::from)?;
        keep(txn, owner, key, stored).await?;
        Ok(Answer::Made(answer))
    })
    .await;
    match made {
        // The same key, sent at the same moment, was kept by a write that committed first.
        Err(RepoError::Database(error))
            if matches!(error.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) =>
        {
            match kept(db, owner, key).await? {
                Some(kept) => again(kept, key),
                None => Err(RepoError::Database(error)),
            }
        }
        made => made,
    }
}

async fn kept(
    db: &impl sea_orm::ConnectionTrait,
    owner: Owner,
    key: &WriteKey,
) -> Result<Option<write_key::Model>, RepoError> {
    Ok(write_key::Entity::find_by_id((owner.team_id, owner.user_id, key.key.clone())).one(db).await?)
}

fn again<T>(kept: write_key::Model, key: &WriteKey) -> Result<Answer<T>, RepoError> {
    if kept.request == key.request {
        Ok(Answer::Again(kept.answer))
    } else {
        Err(RepoError::refused(
            REUSED,
            "This Idempotency-Key was already used for a different request. Send a new key with each new change.",
        ))
    }
}

async fn keep(
    txn: &DatabaseTransaction,
    owner: Owner,
    key: &WriteKey,
    answer: String,
) -> Result<(), RepoError> {
    write_key::ActiveModel {
        team_id: Set(owner.team_id),
        user_id: Set(owner.user_id),
        key: Set(key.key.clone()),
        request: Set(key.request.clone()),
        answer: Set(answer),
        created_at: Set(OffsetDateTime::now_utc()),
    }
    .insert(txn)
    .await?;
    Ok(())
}
