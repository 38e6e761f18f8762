//! Each team's thread inventory as the list's search reads it, kept in memory between requests.
//!
//! Reading every entry from the database was most of a list request, far more than the core's
//! search over them. So each server keeps a copy of the entries as the search reads them, tagged
//! with the team's `threads_revision`, which the database sets to a new random number in the
//! transaction of every change to the inventory (triggers: migrations 10 and 14). A request
//! uses the copy only when its revision is exactly the one the request's own team check read
//! ([`crate::extract::team`]), or when the copy was read after the request came. Servers sharing
//! one database therefore never serve each other's changes late, and a backup restored under
//! running servers, which moves the revision to an older value, cannot match a copy of other
//! entries: a random revision does not come back.
//!
//! The requests that find a team's copy out of date at the same moment read it once between
//! them (single flight): a request that needs a new copy takes the team's read lock (a tokio
//! mutex, one per team), looks again, and reads only if no copy read meanwhile will do. Moka's
//! own coalescing does not fit: `get_with` fills a missing key only, and would serve the
//! out-of-date copy rather than replace it.
//!
//! A page shows its entries whole (notes, cost, who changed each), which the copy does not
//! hold: they are read with the page, in one query ([`threads::page`]).
//!
//! The copies are bounded by the bytes they hold together ([`CACHED_BYTES`], as
//! [`TeamThreads::weight`] estimates them); the least used teams are dropped first (moka). The
//! locks are bounded too ([`LOCKED_TEAMS`]); a lock dropped while held only lets a second read
//! run beside the first.

use crate::repo::RepoError;
use std::sync::Arc;

use moka::sync::Cache;
use prometheus_client::metrics::counter::Counter;
use tokio::{sync::Mutex, time::Instant};

use super::threads::{self, Stocked};
use crate::{
    db::Database,
    entity::{ids::TeamId, team},
};

/// The most the copies hold together, across teams, in bytes as [`TeamThreads::weight`]
/// estimates them: room for the largest inventories of several teams, or many small ones.
pub const CACHED_BYTES: u64 = 48 * 1024 * 1024;
/// The most teams whose read locks are kept (a few dozen bytes each).
pub const LOCKED_TEAMS: u64 = 10_000;

/// A team's entries as they were at `revision`.
#[derive(Debug)]
pub struct TeamThreads {
    revision: i64,
    /// When the read of this copy began.
    read_at: Instant,
    /// In code order ([`bobbin_core::inventory::search::code_order`]).
    pub threads: Vec<Stocked>,
}

impl TeamThreads {
    /// About how many bytes the copy takes.
    fn weight(&self) -> usize {
        size_of::<Self>() + self.threads.iter().map(Stocked::weight).sum::<usize>()
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
    /// the single flight count them).
    reads: Counter,
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

    /// The entries of `team`, as this request's team check read it: the copy in memory if it is
    /// at the team's revision, or was read since the request came; else read again from the
    /// database, once for all the requests that ask at the same time (see the module's comment).
    /// `None` when the team is gone since.
    ///
    /// # Errors
    ///
    /// A database error, or a stored entry the core cannot read.
    pub async fn threads(
        &self,
        db: &Database,
        team: &team::Model,
    ) -> Result<Option<Arc<TeamThreads>>, RepoError> {
        let came = Instant::now();
        let current =
            |copy: &Arc<TeamThreads>| copy.revision == team.threads_revision || copy.read_at >= came;
        if let Some(copy) = self.copies.get(&team.id).filter(current) {
            self.hits.inc();
            return Ok(Some(copy));
        }
        let lock = self.locks.get_with(team.id, Arc::default);
        let _reading = lock.lock().await;
        // Read by the request this one waited for.
        if let Some(copy) = self.copies.get(&team.id).filter(current) {
            self.hits.inc();
            return Ok(Some(copy));
        }
        self.reads.inc();
        let read_at = Instant::now();
        let Some((revision, threads)) = threads::stocked_of_team(db, team.id).await? else {
            return Ok(None);
        };
        let copy = Arc::new(TeamThreads { revision, read_at, threads });
        self.copies.insert(team.id, Arc::clone(&copy));
        Ok(Some(copy))
    }
}

#[cfg(test)]
mod tests {
    use bobbin_core::inventory::{Hundredths, ThreadEntry, ThreadSource};

    use crate::entity::ids::ThreadId;

    use super::*;

    #[test]
    fn the_bound_counts_bytes_not_teams() {
        let team = |n: usize| TeamThreads {
            revision: 0,
            read_at: Instant::now(),
            threads: (0..n).map(|_| stocked()).collect(),
        };
        let six = team(6).weight() as u64;
        assert!(six > 6 * size_of::<Stocked>() as u64, "{six}");
        let cache = ThreadCache::new(10 * six / 6);
        cache.copies.insert(TeamId::new(), Arc::new(team(6)));
        cache.copies.insert(TeamId::new(), Arc::new(team(6)));
        cache.copies.run_pending_tasks();
        assert!(cache.copies.weighted_size() <= 10 * six / 6, "held {}", cache.copies.weighted_size());
        assert_eq!(cache.copies.entry_count(), 1);
    }

    fn stocked() -> Stocked {
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
