//! Keeping the auth tables bounded: rows that can no longer be used are deleted in the
//! background, a few seconds after start and then every `--prune-interval`. Every instance runs
//! it; the deletes are idempotent, so several instances on one PostgreSQL do no harm. Which rows
//! go, and when, is [`crate::repo::auth::prune`]'s table.
//!
//! It also removes the stored file contents no team's file names any more, once unused for an
//! hour (`crate::repo::storage`), and forgets the converter's per-client counts of clients that
//! have gone quiet.

use std::time::Duration as StdDuration;

use time::OffsetDateTime;

use crate::{
    repo::{
        auth::prune::{SessionEnds, unusable_rows},
        storage,
    },
    state::AppState,
};

/// How long after start it first runs (or after one interval, if that is shorter): soon, but
/// not in the rush of a start.
const FIRST_RUN: StdDuration = StdDuration::from_secs(5);

/// Runs the pruning in the background every `interval` for as long as the server runs (never,
/// for a zero interval). A failure is logged and tried again at the next turn.
pub fn spawn(state: AppState, interval: StdDuration) {
    if interval.is_zero() {
        return;
    }
    let limits = &state.auth.session_limits;
    let sessions = SessionEnds { lifetime: limits.lifetime(), inactivity: limits.inactivity() };
    tokio::spawn(async move {
        tokio::time::sleep(FIRST_RUN.min(interval)).await;
        let mut every = tokio::time::interval(interval);
        loop {
            every.tick().await;
            match unusable_rows(&state.db, sessions, OffsetDateTime::now_utc()).await {
                Ok(0) => {}
                Ok(rows) => tracing::info!(rows, "pruned rows that can no longer be used"),
                Err(error) => tracing::warn!(error = format!("{error:#}"), "pruning old rows failed"),
            }
            let unused_since = OffsetDateTime::now_utc() - storage::UNUSED_BLOBS_KEPT_FOR;
            match storage::prune_blobs(&state.db, unused_since).await {
                Ok(0) => {}
                Ok(blobs) => tracing::info!(blobs, "removed stored files no team holds any more"),
                Err(error) => {
                    tracing::warn!(error = format!("{error:#}"), "removing unused stored files failed");
                }
            }
            state.convert_limit.forget_idle();
            state.quote_link_limit.forget_idle();
        }
    });
}
