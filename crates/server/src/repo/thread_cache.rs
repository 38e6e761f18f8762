//! Each team's thread inventory, kept in memory between list requests.
//!
//! Reading every entry from the database was most of a list request: with 20,000 entries, about
//! 120 ms of 160 (`scripts/bench-inventory.mjs`), against about 10 ms for the core's search. So
//! each server keeps the entries as the search reads them, tagged with the team's
//! `threads_revision`, which every change to the inventory raises in the change's own
//! transaction (`repo::threads`). A request whose team row (read by the team extractors, before
//! the entries) shows a newer revision than the copy's reads the entries again, and tags them
//! with the revision it saw. The copy is therefore never older than its tag, no request is
//! served a copy older than the team row it read, and servers sharing one database never serve
//! a stale copy to one another.
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
//! The copies are bounded by the entries they hold together ([`CACHED_ENTRIES`]); the least used
//! teams are dropped first (moka). The locks are bounded too ([`LOCKED_TEAMS`]); a lock dropped
//! while held only lets a second read run beside the first.

use std::sync::Arc;

use bobbin_core::inventory::ThreadEntry;
use moka::sync::Cache;
use prometheus_client::metrics::counter::Counter;
use sea_orm::ConnectionTrait;
use tokio::sync::Mutex;

use super::threads::SearchRow;
use crate::{
    entity::{
        ids::{TeamId, ThreadId},
        team,
    },
    error::AppError,
};

/// The most entries the copies hold together, across teams: five full inventories, estimated at
/// 20 MB (about 200 bytes an entry).
pub const CACHED_ENTRIES: u64 = 100_000;
/// The most teams whose read locks are kept (a few dozen bytes each).
pub const LOCKED_TEAMS: u64 = 10_000;

/// One entry as the list and the converter's "owned" list read it.
#[derive(Debug)]
pub struct Stocked {
    pub id: ThreadId,
    pub entry: ThreadEntry,
    /// Unix seconds.
    pub updated_at: i64,
}

/// A team's entries as they were at `revision` (or later).
#[derive(Debug)]
pub struct TeamThreads {
    revision: i64,
    pub threads: Vec<Stocked>,
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
}

impl ThreadCache {
    pub fn new(max_entries: u64) -> Self {
        Self {
            copies: Cache::builder()
                .max_capacity(max_entries)
                .weigher(|_, threads: &Arc<TeamThreads>| {
                    std::cmp::max(u32::try_from(threads.threads.len()).unwrap_or(u32::MAX), 1)
                })
                .build(),
            locks: Cache::new(LOCKED_TEAMS),
            hits: Counter::default(),
            reads: Counter::default(),
        }
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

    /// The team's entries: the copy in memory when its revision is at least the one `team`
    /// shows, else read again from the database, once for all the requests that ask at the same
    /// time (see the module's comment).
    ///
    /// # Errors
    ///
    /// A database error, or a stored entry the core cannot read.
    pub async fn threads(
        &self,
        db: &impl ConnectionTrait,
        team: &team::Model,
    ) -> Result<Arc<TeamThreads>, AppError> {
        if let Some(copy) = self.fresh(team) {
            self.hits.inc();
            return Ok(copy);
        }
        let lock = self.locks.get_with(team.id, Arc::default);
        let _reading = lock.lock().await;
        // Read by the request this one waited for.
        if let Some(copy) = self.fresh(team) {
            self.hits.inc();
            return Ok(copy);
        }
        self.reads.inc();
        let rows = SearchRow::of_team(db, team.id).await?;
        let threads = rows
            .iter()
            .map(|row| Ok(Stocked { id: row.id, entry: row.entry()?, updated_at: row.updated_at() }))
            .collect::<Result<Vec<_>, AppError>>()?;
        let copy = Arc::new(TeamThreads { revision: team.threads_revision, threads });
        self.copies.insert(team.id, Arc::clone(&copy));
        Ok(copy)
    }

    /// The copy of the team's entries, if it is at least as new as the team row shows.
    fn fresh(&self, team: &team::Model) -> Option<Arc<TeamThreads>> {
        self.copies.get(&team.id).filter(|copy| copy.revision >= team.threads_revision)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_counts_entries_not_teams() {
        let cache = ThreadCache::new(10);
        let team =
            |n: usize| Arc::new(TeamThreads { revision: 0, threads: (0..n).map(|_| stocked()).collect() });
        cache.copies.insert(TeamId::new(), team(6));
        cache.copies.insert(TeamId::new(), team(6));
        cache.copies.run_pending_tasks();
        assert!(cache.copies.weighted_size() <= 10, "held {}", cache.copies.weighted_size());
    }

    fn stocked() -> Stocked {
        use bobbin_core::inventory::{Hundredths, ThreadSource};
        Stocked {
            id: ThreadId::new(),
            entry: ThreadEntry {
                source: ThreadSource::Catalogue { line: "dmc".into(), code: "310".into() },
                quantity: Hundredths::from_hundredths(100).unwrap(),
                spool_length_m: None,
                location: String::new(),
                reorder_point: None,
                cost_per_spool: None,
                notes: String::new(),
            },
            updated_at: 0,
        }
    }
}
