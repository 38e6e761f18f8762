//! Each team's thread inventory, kept in memory between list requests.
//!
//! Reading every entry from the database was most of a list request: with 20,000 entries, about
//! 120 ms of 160 (`scripts/bench-inventory.mjs`), against about 10 ms for the core's search. So
//! each server keeps the entries as the search reads them, tagged with the team's
//! `threads_revision`, which every change to the inventory raises in the change's own
//! transaction ([`touch`]). A request whose team row (read by the `TeamMember` extractor, before
//! the entries) shows another revision reads the entries again. The copy is therefore never older
//! than its tag, and servers sharing one database never serve a stale copy to one another.
//!
//! The copies are bounded by the entries they hold together ([`CACHED_ENTRIES`]); the least used
//! teams are dropped first (moka).

use std::sync::Arc;

use bobbin_core::inventory::ThreadEntry;
use moka::sync::Cache;
use sea_orm::{
    ColumnTrait as _, ConnectionTrait, DbErr, EntityTrait as _, QueryFilter as _, prelude::Expr,
    sea_query::ExprTrait as _,
};
use uuid::Uuid;

use super::threads::SearchRow;
use crate::{entity::team, error::AppError};

/// The most entries the copies hold together, across teams: five full inventories, estimated at
/// 20 MB (about 200 bytes an entry).
pub const CACHED_ENTRIES: u64 = 100_000;

/// One entry as the list and the converter's "owned" list read it.
#[derive(Debug)]
pub struct Stocked {
    pub id: Uuid,
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
pub struct ThreadCache(Cache<Uuid, Arc<TeamThreads>>);

impl ThreadCache {
    pub fn new(max_entries: u64) -> Self {
        Self(
            Cache::builder()
                .max_capacity(max_entries)
                .weigher(|_, threads: &Arc<TeamThreads>| {
                    std::cmp::max(u32::try_from(threads.threads.len()).unwrap_or(u32::MAX), 1)
                })
                .build(),
        )
    }

    /// The team's entries: the copy in memory when the team's revision has not moved since it
    /// was read, else read again from the database.
    ///
    /// # Errors
    ///
    /// A database error, or a stored entry the core cannot read.
    pub async fn threads(
        &self,
        db: &impl ConnectionTrait,
        team: &team::Model,
    ) -> Result<Arc<TeamThreads>, AppError> {
        if let Some(copy) = self.0.get(&team.id)
            && copy.revision == team.threads_revision
        {
            return Ok(copy);
        }
        let rows = SearchRow::of_team(db, team.id).await?;
        let threads = rows
            .iter()
            .map(|row| Ok(Stocked { id: row.id, entry: row.entry()?, updated_at: row.updated_at() }))
            .collect::<Result<Vec<_>, AppError>>()?;
        let copy = Arc::new(TeamThreads { revision: team.threads_revision, threads });
        self.0.insert(team.id, Arc::clone(&copy));
        Ok(copy)
    }
}

/// Raises the team's revision: call it in the transaction of every change to its threads.
///
/// # Errors
///
/// A database error.
pub async fn touch(db: &impl ConnectionTrait, team_id: Uuid) -> Result<(), DbErr> {
    team::Entity::update_many()
        .col_expr(team::Column::ThreadsRevision, Expr::col(team::Column::ThreadsRevision).add(1))
        .filter(team::Column::Id.eq(team_id))
        .exec(db)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_counts_entries_not_teams() {
        let cache = ThreadCache::new(10);
        let team =
            |n: usize| Arc::new(TeamThreads { revision: 0, threads: (0..n).map(|_| stocked()).collect() });
        cache.0.insert(Uuid::new_v4(), team(6));
        cache.0.insert(Uuid::new_v4(), team(6));
        cache.0.run_pending_tasks();
        assert!(cache.0.weighted_size() <= 10, "held {}", cache.0.weighted_size());
    }

    fn stocked() -> Stocked {
        use bobbin_core::inventory::{Hundredths, ThreadSource};
        Stocked {
            id: Uuid::new_v4(),
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
