//! Each team's thread inventory, kept in memory between list requests.
//!
//! Reading every entry from the database was most of a list request: with 20,000 entries, about
//! 120 ms of 160 (`scripts/bench-inventory.mjs`), against about 10 ms for the core's search. So
//! each server keeps the entries as the search reads them, tagged with the team's
//! `threads_revision`, which the database raises in the transaction of every change to the
//! inventory (triggers, migration 10). A request reads the team's revision after it came (not
//! from the team extractors' check, which may be a copy kept from an earlier request:
//! `auth::sign_in_cache`); one that finds it newer than the copy's reads the entries again, and
//! tags them with the revision it saw. The copy is therefore never older than its tag, no
//! request is served a copy older than the revision it read, and servers sharing one database
//! never serve a stale copy to one another.
//!
//! The requests that find a team's copy out of date at the same moment read it once between
//! them. Every change raises the revision, and before, every list request in flight
//! then read the whole team itself: 1,000 readers and a `+1` every 0.1 s took 833 MB and
//! exhausted the connection pool. Now a request that needs a newer copy takes the team's read
//! lock (a tokio mutex, one per team), looks again, and reads only if the copy is still older
//! than its revision; those that waited for it then find the new copy and use it. One that saw
//! a newer revision still (a change committed during the read) reads again, so waiting never
//! hands out an older copy. Moka's own coalescing does not fit: `get_with` fills a missing key
//! only, and would serve the out-of-date copy rather than replace it; its `and_compute_with`
//! takes a closure that cannot wait for the database (the async one needs moka's `future`
//! cache, whose dependencies would rebuild most of the server's).
//!
//! A page shows whole entries (notes, cost, who changed it), which the search does not read:
//! the copy also keeps the whole entries read for pages shown ([`TeamThreads::whole`]), each at
//! the version the search copy has (every change to an entry raises its version), and a copy
//! read again after a change takes over those whose version is unchanged. Reading the 50 whole
//! entries of a page with every request was half of a list request under load (README, "API
//! speed"); reading every column for the search copy instead doubled the read after a change.
//! Who changed an entry is kept as their id, and the copy keeps the addresses of everyone who
//! changed one of the team's entries last ([`TeamThreads::people`]), read with the entries. A
//! person may change their address at any time: the database then raises the revision of every
//! team with an entry they changed last (triggers, migration 11), so the copy is read again.
//! Reading the addresses of a page's entries with every request was a second round trip to the
//! database after the sign-in check, and a sixth of a list request.
//!
//! The copies are bounded by the bytes they hold together ([`CACHED_BYTES`], as
//! [`TeamThreads::weight`] estimates them: each copy counts the most whole entries it may keep,
//! [`WHOLE_BYTES`] or [`WHOLE_BYTES_AN_ENTRY`] an entry, kept or not, since moka weighs a copy
//! once); the least used teams are dropped first (moka). When a copy's whole entries reach its
//! bound they are all dropped, and read again as pages are shown. The locks are bounded too ([`LOCKED_TEAMS`]); a
//! lock dropped while held only lets a second read run beside the first.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex as SyncMutex, PoisonError},
};

use bobbin_core::inventory::{ThreadEntry, ThreadSource, search};
use moka::sync::Cache;
use prometheus_client::metrics::counter::Counter;
use sea_orm::ConnectionTrait;
use time::OffsetDateTime;
use tokio::sync::Mutex;

use super::{
    teams,
    threads::{self, Thread},
    users::{Person, people_of},
};
use crate::{
    db::SignInReads,
    entity::ids::{TeamId, ThreadId, UserId},
    error::AppError,
};

/// The most the copies hold together, across teams, in bytes as [`TeamThreads::weight`]
/// estimates them: 48 MB, some 70,000 entries of small teams (about 200 bytes each as the search
/// reads them, and 512 for their whole entries) or ten of the largest inventories (20,000
/// entries, 4 MB, and 256 KB of whole entries).
pub const CACHED_BYTES: u64 = 48 * 1024 * 1024;
/// The most bytes of whole entries one team's copy keeps: some 18 pages of 50 entries without
/// notes (about 280 bytes each).
pub const WHOLE_BYTES: usize = 256 * 1024;
/// For a team with few entries, the most bytes of whole entries it keeps for each: room for all
/// of them unless their notes are long.
pub const WHOLE_BYTES_AN_ENTRY: usize = 512;
/// The most teams whose read locks are kept (a few dozen bytes each).
pub const LOCKED_TEAMS: u64 = 10_000;

/// One entry as the list's search and the converter's "owned" list read it: no spool length,
/// cost or notes.
#[derive(Debug)]
pub struct Stocked {
    pub id: ThreadId,
    pub entry: ThreadEntry,
    /// Unix seconds.
    pub updated_at: i64,
    pub version: i32,
}

impl Stocked {
    /// About how many bytes the entry takes in memory: its own and its texts'.
    fn weight(&self) -> usize {
        size_of::<Self>() + texts(&self.entry)
    }
}

/// One entry whole, as a page shows it, but for the address of the person who changed it last
/// (their id only).
#[derive(Debug)]
pub struct Whole {
    pub id: ThreadId,
    pub public_id: String,
    pub entry: ThreadEntry,
    /// The colour as stored: what a catalogue thread the catalogue no longer has is shown with.
    pub stored_colour: String,
    pub version: i32,
    pub updated_by: Option<UserId>,
    pub updated_at: OffsetDateTime,
}

impl Whole {
    /// The entry as the API shows it, changed last by `changer`.
    pub fn shown(&self, changer: Option<&Person>) -> Thread {
        Thread {
            public_id: self.public_id.clone(),
            entry: self.entry.clone(),
            stored_colour: self.stored_colour.clone(),
            version: self.version,
            updated_by_email: changer.map(|person| person.email.clone()),
            updated_at: self.updated_at,
        }
    }

    fn weight(&self) -> usize {
        size_of::<Self>() + self.public_id.len() + self.stored_colour.len() + texts(&self.entry)
    }
}

/// The bytes of an entry's texts.
fn texts(entry: &ThreadEntry) -> usize {
    let source = match &entry.source {
        ThreadSource::Catalogue { line, code } => line.len() + code.len(),
        ThreadSource::Custom { name, .. } => name.len(),
    };
    source + entry.location.len() + entry.notes.len()
}

/// A team's entries as they were at `revision` (or later).
#[derive(Debug)]
pub struct TeamThreads {
    team_id: TeamId,
    revision: i64,
    /// In code order ([`search::code_order`]).
    pub threads: Vec<Stocked>,
    /// Whole entries read for pages, each at the version its entry in `threads` has.
    whole: SyncMutex<WholeEntries>,
    /// Everyone who changed one of the entries last, as they were at `revision` (or later).
    people: HashMap<UserId, Person>,
    /// Whole entries read from the database (the cache's count, shared by its copies).
    whole_reads: Counter,
}

#[derive(Debug, Default)]
struct WholeEntries {
    by_id: HashMap<ThreadId, Arc<Whole>>,
    bytes: usize,
}

impl TeamThreads {
    /// The copy of `threads`, in code order (as the core's search takes them), with the people
    /// who changed them last and the whole entries of `previous` (an older copy) whose version
    /// is unchanged.
    fn new(
        team: &Revision,
        mut threads: Vec<Stocked>,
        people: HashMap<UserId, Person>,
        previous: Option<&Self>,
        whole_reads: Counter,
    ) -> Self {
        threads.sort_by_cached_key(|thread| search::code_order(&thread.entry));
        let copy = Self {
            team_id: team.team_id,
            revision: team.revision,
            threads,
            whole: SyncMutex::default(),
            people,
            whole_reads,
        };
        let kept = previous.map(Self::whole_entries).unwrap_or_default();
        if !kept.is_empty() {
            let versions: HashMap<ThreadId, i32> =
                copy.threads.iter().map(|thread| (thread.id, thread.version)).collect();
            let mut whole = copy.lock_whole();
            // Not one whose changer is gone: removing an account leaves the entries' versions as
            // they were (`updated_by` becomes null), and the kept entry would name them still.
            let current = |entry: &Arc<Whole>| {
                versions.get(&entry.id) == Some(&entry.version)
                    && entry.updated_by.is_none_or(|id| copy.people.contains_key(&id))
            };
            for entry in kept.into_iter().filter(current) {
                copy.keep(&mut whole, entry);
            }
        }
        copy
    }

    /// The whole entries of the entries at `positions` in `threads`, in that order: those read for
    /// an earlier page from memory, the others from the database, in one query. An entry removed
    /// meanwhile is `None`; one changed meanwhile is as it is now (and not kept).
    ///
    /// # Errors
    ///
    /// A database error, or a stored entry the core cannot read.
    pub async fn whole(
        &self,
        db: &impl ConnectionTrait,
        positions: &[usize],
    ) -> Result<Vec<Option<Arc<Whole>>>, AppError> {
        let mut found: Vec<Option<Arc<Whole>>> = {
            let whole = self.lock_whole();
            positions
                .iter()
                .map(|&position| {
                    let thread = &self.threads[position];
                    whole.by_id.get(&thread.id).filter(|entry| entry.version == thread.version).cloned()
                })
                .collect()
        };
        let missing: Vec<ThreadId> = positions
            .iter()
            .zip(&found)
            .filter(|(_, entry)| entry.is_none())
            .map(|(&p, _)| self.threads[p].id)
            .collect();
        if missing.is_empty() {
            return Ok(found);
        }
        self.whole_reads.inc_by(missing.len() as u64);
        let mut read: HashMap<ThreadId, Arc<Whole>> = threads::whole_by_ids(db, self.team_id, missing)
            .await?
            .into_iter()
            .map(|entry| (entry.id, Arc::new(entry)))
            .collect();
        let mut whole = self.lock_whole();
        for (slot, &position) in found.iter_mut().zip(positions) {
            let thread = &self.threads[position];
            if slot.is_none()
                && let Some(entry) = read.remove(&thread.id)
            {
                if entry.version == thread.version {
                    self.keep(&mut whole, Arc::clone(&entry));
                }
                *slot = Some(entry);
            }
        }
        Ok(found)
    }

    /// Whole entries as the API shows them, with the address of who changed each last: from
    /// the copy, or, for an entry changed since it was read, from the database.
    ///
    /// # Errors
    ///
    /// A database error.
    pub async fn shown(&self, db: &impl ConnectionTrait, whole: &[&Whole]) -> Result<Vec<Thread>, AppError> {
        let unknown =
            whole.iter().filter_map(|entry| entry.updated_by).filter(|id| !self.people.contains_key(id));
        let read = people_of(db, unknown).await?;
        let person = |id: &UserId| self.people.get(id).or_else(|| read.get(id));
        Ok(whole.iter().map(|entry| entry.shown(entry.updated_by.as_ref().and_then(person))).collect())
    }

    /// The most bytes of whole entries this copy keeps: [`WHOLE_BYTES`], or
    /// [`WHOLE_BYTES_AN_ENTRY`] an entry for a team with few.
    fn whole_bound(&self) -> usize {
        WHOLE_BYTES.min(self.threads.len().saturating_mul(WHOLE_BYTES_AN_ENTRY))
    }

    /// About how many bytes the copy takes, at the most: the search's entries and the bound of
    /// the whole ones.
    fn weight(&self) -> usize {
        let people: usize =
            self.people.values().map(|person| size_of::<(UserId, Person)>() + person.weight()).sum();
        size_of::<Self>()
            + self.threads.iter().map(Stocked::weight).sum::<usize>()
            + people
            + self.whole_bound()
    }

    /// Keeps `entry`; when it would pass the bound, what is kept is dropped first.
    fn keep(&self, whole: &mut WholeEntries, entry: Arc<Whole>) {
        let weight = entry.weight();
        if weight > self.whole_bound() {
            return;
        }
        if whole.bytes + weight > self.whole_bound() {
            *whole = WholeEntries::default();
        }
        if let Some(replaced) = whole.by_id.insert(entry.id, entry) {
            whole.bytes -= replaced.weight();
        }
        whole.bytes += weight;
    }

    fn whole_entries(&self) -> Vec<Arc<Whole>> {
        self.lock_whole().by_id.values().cloned().collect()
    }

    fn lock_whole(&self) -> std::sync::MutexGuard<'_, WholeEntries> {
        // Nothing held under the lock can be left half changed by a panic that matters: at
        // worst a count of bytes off until the copy is read again.
        self.whole.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[derive(Clone, Debug)]
pub struct ThreadCache {
    copies: Cache<TeamId, Arc<TeamThreads>>,
    /// Held by the one request reading a team's entries.
    locks: Cache<TeamId, Arc<Mutex<()>>>,
    /// Requests served the copy in memory (`/metrics`).
    hits: Counter,
    /// How many times a team's entries were read from the database (`/metrics`; the tests of
    /// the coalescing count them).
    reads: Counter,
    /// How many whole entries were read from the database for pages (the tests count them).
    whole_reads: Counter,
}

impl ThreadCache {
    pub fn new(max_bytes: u64) -> Self {
        Self {
            copies: Cache::builder()
                .max_capacity(max_bytes)
                .weigher(|_, threads: &Arc<TeamThreads>| u32::try_from(threads.weight()).unwrap_or(u32::MAX))
                .build(),
            locks: Cache::new(LOCKED_TEAMS),
            hits: Counter::default(),
            reads: Counter::default(),
            whole_reads: Counter::default(),
        }
    }

    /// How many whole entries have been read from the database for pages since the server
    /// started.
    pub fn whole_reads(&self) -> u64 {
        self.whole_reads.get()
    }

    /// How many times a team's entries have been read from the database since the server
    /// started.
    pub fn reads(&self) -> u64 {
        self.reads.get()
    }

    /// The counts of requests served the copy (hits) and of reads from the database (misses),
    /// for `/metrics`.
    pub(crate) fn counters(&self) -> (Counter, Counter) {
        (self.hits.clone(), self.reads.clone())
    }

    /// The team's entries: the copy in memory when its revision is at least the team's, read
    /// now, else read again from the database, once for all the requests that ask at the same
    /// time (see the module's comment).
    ///
    /// # Errors
    ///
    /// A database error, or a stored entry the core cannot read.
    pub async fn threads(
        &self,
        db: &impl ConnectionTrait,
        reads: &SignInReads,
        team_id: TeamId,
    ) -> Result<Arc<TeamThreads>, AppError> {
        // Read after the request came (the team extractors' check may be a copy kept from before,
        // [`crate::auth::sign_in_cache`]): the copy served holds every change committed before.
        let revision = teams::threads_revision(reads, team_id)
            .await?
            .ok_or_else(|| AppError::NotFound(crate::extract::TEAM_NOT_FOUND.to_owned()))?;
        let team = &Revision { team_id, revision };
        if let Some(copy) = self.fresh(team) {
            self.hits.inc();
            return Ok(copy);
        }
        let lock = self.locks.get_with(team_id, Arc::default);
        let _reading = lock.lock().await;
        // Read by the request this one waited for.
        if let Some(copy) = self.fresh(team) {
            self.hits.inc();
            return Ok(copy);
        }
        self.reads.inc();
        let threads = threads::stocked_of_team(db, team_id).await?;
        let people = threads::changers_of_team(db, team_id).await?;
        let previous = self.copies.get(&team_id);
        let copy =
            Arc::new(TeamThreads::new(team, threads, people, previous.as_deref(), self.whole_reads.clone()));
        self.copies.insert(team_id, Arc::clone(&copy));
        Ok(copy)
    }

    /// The copy of the team's entries, if it is at least as new as the revision read shows.
    fn fresh(&self, team: &Revision) -> Option<Arc<TeamThreads>> {
        self.copies.get(&team.team_id).filter(|copy| copy.revision >= team.revision)
    }
}

/// A team and its thread revision, as read by a request.
#[derive(Debug, Clone, Copy)]
struct Revision {
    team_id: TeamId,
    revision: i64,
}

#[cfg(test)]
mod tests {
    use bobbin_core::inventory::Hundredths;

    use super::*;

    #[test]
    fn the_bound_counts_bytes_not_teams() {
        let team = |n: usize| {
            TeamThreads::new(
                &a_team(),
                (0..n).map(|_| stocked(1)).collect(),
                HashMap::new(),
                None,
                Counter::default(),
            )
        };
        let six = team(6).weight() as u64;
        assert!(six > 6 * (size_of::<Stocked>() + WHOLE_BYTES_AN_ENTRY) as u64, "{six}");
        let cache = ThreadCache::new(10 * six / 6);
        cache.copies.insert(TeamId::new(), Arc::new(team(6)));
        cache.copies.insert(TeamId::new(), Arc::new(team(6)));
        cache.copies.run_pending_tasks();
        assert!(cache.copies.weighted_size() <= 10 * six / 6, "held {}", cache.copies.weighted_size());
        assert_eq!(cache.copies.entry_count(), 1);
    }

    #[test]
    fn whole_entries_stay_within_their_bound_and_carry_over_at_the_same_version() {
        let team = a_team();
        let threads: Vec<Stocked> = (0..8).map(|_| stocked(1)).collect();
        let ids: Vec<ThreadId> = threads.iter().map(|thread| thread.id).collect();
        let copy = TeamThreads::new(&team, threads, HashMap::new(), None, Counter::default());
        let bound = copy.whole_bound();
        assert_eq!(bound, 8 * WHOLE_BYTES_AN_ENTRY, "a team with few entries");
        let plain = whole_entry(ids[0], 1, "").weight();
        assert!(plain * 8 <= bound, "every entry without notes fits: {plain}");
        // Notes that leave room for one more plain entry, not two.
        let long = "n".repeat(bound - 2 * plain);
        {
            let mut whole = copy.lock_whole();
            for &id in &ids {
                copy.keep(&mut whole, Arc::new(whole_entry(id, 1, "")));
            }
            assert_eq!(whole.by_id.len(), 8);
            assert_eq!(whole.bytes, 8 * plain);
            // Past the bound, what was kept goes first.
            copy.keep(&mut whole, Arc::new(whole_entry(ids[0], 1, &long)));
            assert_eq!(whole.by_id.len(), 1);
            assert!(whole.bytes <= bound);
            copy.keep(&mut whole, Arc::new(whole_entry(ids[1], 1, "")));
            assert_eq!(whole.by_id.len(), 2);
            // One larger than the bound is not kept at all, and drops nothing.
            copy.keep(&mut whole, Arc::new(whole_entry(ids[2], 1, &"n".repeat(bound))));
            assert_eq!(whole.by_id.len(), 2);
            copy.keep(&mut whole, Arc::new(whole_entry(ids[2], 1, "")));
            assert_eq!(whole.by_id.len(), 1, "a third one passes the bound: all dropped first");
            copy.keep(&mut whole, Arc::new(whole_entry(ids[1], 1, "")));
            copy.keep(&mut whole, Arc::new(whole_entry(ids[3], 1, "")));
            assert_eq!(whole.by_id.len(), 3);
        }

        // Read again after a change to the third entry (version 2) and the removal of the fourth.
        let mut changed = stocked(2);
        changed.id = ids[2];
        let mut second = stocked(1);
        second.id = ids[1];
        let again =
            TeamThreads::new(&team, vec![second, changed], HashMap::new(), Some(&copy), Counter::default());
        let kept: Vec<ThreadId> = again.whole_entries().iter().map(|entry| entry.id).collect();
        assert_eq!(kept, vec![ids[1]]);
    }

    #[test]
    fn a_whole_entry_whose_changer_is_gone_is_not_carried_over() {
        let (team, kept_by, gone) = (a_team(), UserId::new(), UserId::new());
        let threads: Vec<Stocked> = (0..2).map(|_| stocked(1)).collect();
        let ids: Vec<ThreadId> = threads.iter().map(|thread| thread.id).collect();
        let copy = TeamThreads::new(&team, threads, HashMap::new(), None, Counter::default());
        {
            let mut whole = copy.lock_whole();
            for (&id, changer) in ids.iter().zip([kept_by, gone]) {
                let entry = Whole { updated_by: Some(changer), ..whole_entry(id, 1, "") };
                copy.keep(&mut whole, Arc::new(entry));
            }
        }
        // Read again after the second changer's account was removed: the versions are unchanged.
        let again_threads = ids.iter().map(|&id| Stocked { id, ..stocked(1) }).collect();
        let people = HashMap::from([(kept_by, Person { email: "kept@example.com".into(), name: None })]);
        let again = TeamThreads::new(&team, again_threads, people, Some(&copy), Counter::default());
        let kept: Vec<ThreadId> = again.whole_entries().iter().map(|entry| entry.id).collect();
        assert_eq!(kept, vec![ids[0]]);
    }

    fn a_team() -> Revision {
        Revision { team_id: TeamId::new(), revision: 0 }
    }

    fn stocked(version: i32) -> Stocked {
        Stocked { id: ThreadId::new(), entry: entry(""), updated_at: 0, version }
    }

    fn whole_entry(id: ThreadId, version: i32, notes: &str) -> Whole {
        Whole {
            id,
            public_id: "pub-id-of-16-chr".into(),
            entry: entry(notes),
            stored_colour: "#000000".into(),
            version,
            updated_by: None,
            updated_at: OffsetDateTime::UNIX_EPOCH,
        }
    }

    fn entry(notes: &str) -> ThreadEntry {
        ThreadEntry {
            source: ThreadSource::Catalogue { line: "dmc".into(), code: "310".into() },
            quantity: Hundredths::from_hundredths(100).unwrap(),
            spool_length_m: None,
            location: String::new(),
            reorder_point: None,
            cost_per_spool: None,
            notes: notes.to_owned(),
        }
    }
}
