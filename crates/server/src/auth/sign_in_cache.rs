//! Each server's copies of the sign-in checks it has read, used only while the database says
//! nothing they hold has changed since: a request's session, its person and their second
//! factors (every signed-in request), with their teams (`GET /teams`), their default team (the
//! profile), or their role in the team a team route names, with that team and its default
//! reorder point.
//!
//! Every transaction that changes what a check reads raises the sign-in epoch, a number in the
//! database, in that transaction (triggers: `migrations/src/m20261129_000012_sign_in_epoch.rs`),
//! whoever writes: a server, the operator's commands, SQL by hand. A copy keeps the epoch that
//! was read before it; a request reads the epoch after it came, and uses a copy only if the
//! copy was read at that very epoch. A session signed out, ended by a password change
//! or a replayed refresh token, or of a person disabled, on any server, is therefore refused by
//! every server sharing the database from the next request on, as when every request read its
//! check; and a change of the person or their teams is seen as soon.
//!
//! The epoch is one row of one column: on PostgreSQL, reading it takes about two fifths of the
//! machine time of the check's joins (`pgbench`: 23,000-24,000 reads a second against
//! 9,600-9,800), and the requests that come while one read of it is under way share the next
//! ([`EpochReads`]), so under load one read serves many requests. The team row a team route's
//! check reads also carries the team's thread revision, which every change of its inventory
//! raises without raising the epoch: in a copy it is the one read with the copy, so the thread
//! list reads the revision itself ([`crate::repo::thread_cache`]).
//!
//! Any change anywhere makes every copy stale, not only those it touches: the epoch says that
//! something changed, not what. A busy server's copies are then read again after each sign-in
//! (which records when it happened) or refresh; each is read again at most once an epoch.

use std::{
    future::Future,
    hash::Hash,
    sync::{Arc, Mutex, PoisonError},
    time::Duration,
};

use moka::sync::Cache;
use sea_orm::DbErr;
use tokio::sync::oneshot;
use uuid::Uuid;

use crate::{
    db::SignInReads,
    entity::ids::UserId,
    repo::{
        auth::sessions::{self, SignedIn},
        teams::{self, Joined, Membership},
        users,
    },
};

/// How many bytes of copies of each kind a server keeps, at most, as [`Weight::weight`] counts
/// them: the least used go first.
const KEPT_BYTES: u64 = 4 * 1024 * 1024;

/// How long an unused copy is kept.
const KEPT_FOR: Duration = Duration::from_mins(10);

/// A copy: what was read, and the epoch read before it.
#[derive(Debug)]
struct Kept<T> {
    epoch: i64,
    read: T,
}

/// Copies of one kind of check, by session and person (the token's claims), and for the team
/// routes' the team the path names.
type Copies<T, K = (Uuid, UserId)> = Cache<K, Arc<Kept<T>>>;

/// The copies of the four kinds of check, and the reads of the epoch.
#[derive(Debug)]
pub struct SignInCache {
    reads: Arc<SignInReads>,
    epoch: Arc<EpochReads>,
    checks: Copies<SignedIn>,
    with_teams: Copies<(SignedIn, Vec<Joined>)>,
    with_profile: Copies<(SignedIn, Option<String>)>,
    in_team: Copies<(SignedIn, Option<Membership>), (Uuid, UserId, String)>,
}

impl SignInCache {
    pub fn new(reads: Arc<SignInReads>) -> Self {
        fn copies<T: Weight + Send + Sync + 'static, K: Hash + Eq + Send + Sync + 'static>() -> Copies<T, K> {
            Cache::builder()
                .max_capacity(KEPT_BYTES)
                .weigher(|_key, kept: &Arc<Kept<T>>| kept.read.weight())
                .time_to_idle(KEPT_FOR)
                .build()
        }
        Self {
            epoch: Arc::new(EpochReads { reads: Arc::clone(&reads), waiting: Mutex::default() }),
            reads,
            checks: copies(),
            with_teams: copies(),
            with_profile: copies(),
            in_team: copies(),
        }
    }

    /// [`sessions::signed_in`], from a copy if nothing changed since it was read.
    ///
    /// # Errors
    ///
    /// The database's.
    pub async fn signed_in(&self, session_id: Uuid, user_id: UserId) -> Result<Option<SignedIn>, DbErr> {
        let read = sessions::signed_in(&self.reads, session_id, user_id);
        self.through(&self.checks, (session_id, user_id), read).await
    }

    /// [`teams::signed_in_teams`], from a copy if nothing changed since it was read.
    ///
    /// # Errors
    ///
    /// The database's.
    pub async fn signed_in_teams(
        &self,
        session_id: Uuid,
        user_id: UserId,
    ) -> Result<Option<(SignedIn, Vec<Joined>)>, DbErr> {
        let read = teams::signed_in_teams(&self.reads, session_id, user_id);
        self.through(&self.with_teams, (session_id, user_id), read).await
    }

    /// [`users::signed_in_profile`], from a copy if nothing changed since it was read.
    ///
    /// # Errors
    ///
    /// The database's.
    pub async fn signed_in_profile(
        &self,
        session_id: Uuid,
        user_id: UserId,
    ) -> Result<Option<(SignedIn, Option<String>)>, DbErr> {
        let read = users::signed_in_profile(&self.reads, session_id, user_id);
        self.through(&self.with_profile, (session_id, user_id), read).await
    }

    /// [`teams::signed_in_member`], from a copy if nothing changed since it was read. The copy's
    /// team row holds the thread revision it was read with, which changes with every change of
    /// the team's inventory and does not raise the epoch: what needs the revision reads it
    /// ([`crate::repo::thread_cache`]).
    ///
    /// # Errors
    ///
    /// The database's.
    pub async fn signed_in_member(
        &self,
        session_id: Uuid,
        user_id: UserId,
        team_id: &str,
    ) -> Result<Option<(SignedIn, Option<Membership>)>, DbErr> {
        let read = teams::signed_in_member(&self.reads, session_id, user_id, team_id);
        self.through(&self.in_team, (session_id, user_id, team_id.to_owned()), read).await
    }

    /// The copy of `key` in `copies` if the epoch, read now, is still the one it was read at;
    /// else `read` (not started until then), kept if it found the session and is worth keeping
    /// ([`Weight::worth_keeping`]). A session not found is never kept: it may be one being signed
    /// in.
    async fn through<T: Clone + Weight + Send + Sync + 'static, K: Hash + Eq + Send + Sync + 'static>(
        &self,
        copies: &Copies<T, K>,
        key: K,
        read: impl Future<Output = Result<Option<T>, DbErr>>,
    ) -> Result<Option<T>, DbErr> {
        let epoch = Arc::clone(&self.epoch).now().await?;
        // At that very epoch: an epoch never takes a value twice (migration 12), but a database
        // restored from a backup has an earlier one, which copies read since must not pass.
        if let Some(kept) = copies.get(&key).filter(|kept| kept.epoch == epoch) {
            return Ok(Some(kept.read.clone()));
        }
        // Read after the epoch was: it holds every change that epoch counts, and perhaps later ones.
        let read = read.await?;
        if let Some(read) = read.as_ref().filter(|read| read.worth_keeping()) {
            copies.insert(key, Arc::new(Kept { epoch, read: read.clone() }));
        }
        Ok(read)
    }
}

/// About how many bytes a copy holds: its strings, and a few hundred bytes for the rest of the
/// session and the person. A person may be in many teams: each is counted.
trait Weight {
    fn weight(&self) -> u32;

    /// Whether to keep the read at all.
    fn worth_keeping(&self) -> bool {
        true
    }
}

impl Weight for SignedIn {
    fn weight(&self) -> u32 {
        let user = &self.user;
        let strings = [user.raw_user_meta_data.to_string().len(), user.raw_app_meta_data.to_string().len()];
        u32::try_from(512 + strings.iter().sum::<usize>()).unwrap_or(u32::MAX)
    }
}

impl Weight for (SignedIn, Vec<Joined>) {
    fn weight(&self) -> u32 {
        let teams = self
            .1
            .iter()
            .map(|joined| 128 + joined.team.name.len() + joined.team.public_id.len())
            .sum::<usize>();
        self.0.weight().saturating_add(u32::try_from(teams).unwrap_or(u32::MAX))
    }
}

impl Weight for (SignedIn, Option<Membership>) {
    fn weight(&self) -> u32 {
        let team =
            self.1.as_ref().map_or(0, |member| 128 + member.team.name.len() + member.team.public_id.len());
        self.0.weight().saturating_add(u32::try_from(team).unwrap_or(u32::MAX))
    }

    /// Only a membership found: a path naming no team of the person's answers 404 either way,
    /// and kept under whatever the path said (up to the 16 KB of an address), such answers
    /// would push out the copies of the teams people work in.
    fn worth_keeping(&self) -> bool {
        self.1.is_some()
    }
}

impl Weight for (SignedIn, Option<String>) {
    fn weight(&self) -> u32 {
        self.0.weight().saturating_add(32)
    }
}

/// The reads of the epoch, shared by the requests that come while one is under way: each
/// request waits for a read that starts after it came (so it sees every change committed
/// before), and one read serves every request that came while the one before it was under way.
/// Written here because it is a list of waiting requests and a task, with no dependency.
#[derive(Debug)]
struct EpochReads {
    reads: Arc<SignInReads>,
    /// `None` while no read is under way; else the requests waiting for the next one.
    waiting: Mutex<Option<Vec<Reply>>>,
}

/// Where a waiting request's epoch goes.
type Reply = oneshot::Sender<Result<i64, DbErr>>;

impl EpochReads {
    /// The epoch, read after this call.
    async fn now(self: Arc<Self>) -> Result<i64, DbErr> {
        let (reply, answer) = oneshot::channel();
        let start = {
            let mut waiting = self.waiting();
            if let Some(requests) = &mut *waiting {
                requests.push(reply);
                None
            } else {
                *waiting = Some(Vec::new());
                Some(reply)
            }
        };
        if let Some(first) = start {
            // A task of its own, so that a request gone half-way (its client left) does not
            // leave the others waiting. The guard is made first: a task dropped before it ever
            // runs (the runtime stopping) still ends the read.
            let reading = Reading { reads: Arc::clone(&self), done: false };
            tokio::spawn(reading.read_as_they_come(first));
        }
        answer.await.map_err(|_stopped| DbErr::Custom("the sign-in epoch was not read".to_owned()))?
    }

    fn waiting(&self) -> std::sync::MutexGuard<'_, Option<Vec<Reply>>> {
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A read of the epoch under way. Should it stop half-way (the runtime stopping), the requests
/// still waiting are answered with an error, and the next request starts a read again.
struct Reading {
    reads: Arc<EpochReads>,
    done: bool,
}

impl Reading {
    /// Reads the epoch for `first`, then for the requests that came meanwhile, until none waits.
    async fn read_as_they_come(mut self, first: Reply) {
        let mut requests = vec![first];
        loop {
            let epoch = sessions::sign_in_epoch(&self.reads.reads).await;
            for request in requests {
                let _answered = request.send(epoch.clone());
            }
            let mut waiting = self.reads.waiting();
            requests = match waiting.as_mut() {
                Some(next) if !next.is_empty() => std::mem::take(next),
                _ => {
                    // Under the lock, so that no request waits for a read nobody will make.
                    *waiting = None;
                    drop(waiting);
                    self.done = true;
                    return;
                }
            };
        }
    }
}

impl Drop for Reading {
    fn drop(&mut self) {
        if !self.done {
            *self.reads.waiting() = None;
        }
    }
}
