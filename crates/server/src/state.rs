use std::{num::NonZeroU8, ops::Deref, sync::Arc};

use tokio::sync::Semaphore;

use crate::db::Database;
use crate::{
    auth::AuthService,
    blocking::HeavyWork,
    config::{Environment, Secret},
    db::StorageWatch,
    limits::{Exports, InFlight, PerClient},
    metrics::Metrics,
    repo::thread_cache::ThreadCache,
};

/// What every handler can reach: a handle to one [`Shared`], so that the many copies a request
/// makes (each extractor and middleware takes its own) cost one reference count each.
#[derive(Debug, Clone)]
pub struct AppState(Arc<Shared>);

impl AppState {
    pub fn new(shared: Shared) -> Self {
        Self(Arc::new(shared))
    }
}

impl Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// Nothing here may hold per-user state that only this process knows: several server instances
/// can run behind one load balancer against PostgreSQL. (The thread cache holds copies only,
/// each checked against the database before use.)
#[derive(Debug)]
pub struct Shared {
    pub db: Database,
    pub environment: Environment,
    pub auth: Arc<AuthService>,
    /// How many trusted proxies add to `X-Forwarded-For` in front of this server, when the
    /// client address comes from it (`--trust-forwarded-for`); `None`: the header is ignored.
    pub trusted_proxy_hops: Option<NonZeroU8>,
    /// Each team's thread entries as the list searches them, used only at the team's revision
    /// read on this request, so it is never stale across instances.
    pub threads: ThreadCache,
    /// Conversions each client network may ask for (`--convert-rate-limit` a minute).
    pub convert_limit: Arc<PerClient>,
    /// Requests each client network may make by quote links (`--quote-link-rate-limit` a minute).
    pub quote_link_limit: Arc<PerClient>,
    /// The storage outage (full disk, read-only database) requests last met, for `/healthz`.
    pub storage: StorageWatch,
    /// The API requests in progress (`--max-requests-in-flight` reads and as many changes).
    pub in_flight: Arc<InFlight>,
    /// Turns for work that is CPU, not waiting (large conversions, CSV imports): off the async
    /// workers, a bounded number at once.
    pub heavy_work: Arc<HeavyWork>,
    /// The team archives being written (`--max-exports`, one a team).
    pub exports: Arc<Exports>,
    /// The limits of the teams' files (`crate::storage`).
    pub files: Files,
    /// What `/metrics` shows; `None` when metrics are off (neither `--metrics-bind` nor
    /// `--metrics-token`).
    pub metrics: Option<Arc<Metrics>>,
    /// The token `/metrics` on this address answers to; without it, that path answers 404.
    pub metrics_token: Option<Secret>,
    /// Where `/icons/` sends the browser for an icon the embedded set lacks (`--icon-fallback-url`).
    pub icon_fallback: Option<url::Url>,
}

/// The limits of the teams' files (the storage service area, `crate::storage`).
#[derive(Debug)]
pub struct Files {
    /// The most one team's files take together (`--team-storage-mb`), in bytes.
    pub team_bytes: u64,
    /// The largest file (`--max-file-mb`), in bytes.
    pub file_bytes: u64,
    /// The uploads read at once: each holds its file in memory until it is stored, so past
    /// [`Files::UPLOADS_AT_ONCE`] an upload waits its turn (`crate::storage`).
    pub uploads: Arc<Semaphore>,
}

impl Files {
    /// Uploads read at once, on one server.
    pub const UPLOADS_AT_ONCE: usize = 4;

    pub fn new(team_mb: u32, file_mb: u32) -> Self {
        Self {
            team_bytes: u64::from(team_mb) * 1_000_000,
            file_bytes: u64::from(file_mb) * 1_000_000,
            uploads: Arc::new(Semaphore::new(Self::UPLOADS_AT_ONCE)),
        }
    }
}
