//! Limits that guard this server's own CPU and memory, counted in this process's memory: the
//! anonymous work of the converter endpoints per client network ([`PerClient`]), the API
//! requests in progress at once ([`InFlight`]), and the team archives being written ([`Exports`]). Unlike the auth service's limits, which guard
//! accounts and so must hold across instances (they are counted in the database), these guard
//! each instance: each instance counting its own callers is what is wanted, and a database write
//! per request would cost more than what it guards.

use std::{
    collections::HashSet,
    num::NonZeroU32,
    sync::{Arc, Mutex, PoisonError},
};

use axum::{
    extract::{Request, State},
    http::Method,
    middleware::Next,
    response::{IntoResponse as _, Response},
};
use governor::{DefaultKeyedRateLimiter, Quota};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::{entity::ids::TeamId, error::AppError};

/// At most a number of requests per minute from each client network, with that many at once.
#[derive(Debug)]
pub struct PerClient {
    limiter: DefaultKeyedRateLimiter<String>,
}

impl PerClient {
    pub fn per_minute(requests: NonZeroU32) -> Self {
        Self { limiter: DefaultKeyedRateLimiter::keyed(Quota::per_minute(requests)) }
    }

    /// Counts one request from `network` (see `auth::extract::Client::network`), and whether
    /// it is within the limit.
    pub fn allow(&self, network: &str) -> bool {
        self.limiter.check_key(&network.to_owned()).is_ok()
    }

    /// Forgets networks that would be allowed a full burst again, so the table holds only
    /// recent callers (run by the background pruning).
    pub fn forget_idle(&self) {
        self.limiter.retain_recent();
        self.limiter.shrink_to_fit();
    }
}

/// The API requests this server works on at once (`--max-requests-in-flight`), counted apart
/// for reads and for changes (docs/behaviour.md, "The API's order of checks", step 5).
///
/// Past the limit a request is refused at once with 503 `server_busy` and `Retry-After`
/// ([`shed_load`]) rather than queued: queued requests would hold memory and connections
/// without bound while their answers only came later. Before the limit, 1,000 readers of one
/// list swelled the server's memory, and hundreds of their requests failed after waiting 5 s for
/// a database connection. Changes have a share of their own so that however many people are
/// reading, a `+1` is still let in.
///
/// Written by hand rather than with tower's `ConcurrencyLimitLayer` and `LoadShedLayer`: those
/// give one limit to every request, and their refusal is an error that must be turned into the
/// response anyway; two semaphores and `try_acquire` are the whole of it.
#[derive(Debug)]
pub struct InFlight {
    reads: Semaphore,
    changes: Semaphore,
}

impl InFlight {
    /// At most `limit` reads and `limit` changes at once.
    pub fn new(limit: NonZeroU32) -> Self {
        let limit = usize::try_from(limit.get())
            .map_or(Semaphore::MAX_PERMITS, |limit| limit.min(Semaphore::MAX_PERMITS));
        Self { reads: Semaphore::new(limit), changes: Semaphore::new(limit) }
    }

    /// The share a request of `method` counts against: GET, HEAD and OPTIONS change nothing.
    fn share(&self, method: &Method) -> &Semaphore {
        if method.is_safe() { &self.reads } else { &self.changes }
    }
}

/// Middleware for the API: serves the request while its share has room, else answers
/// [`AppError::Busy`] at once. The place is held until the handler has answered, including
/// while the request's body arrives; the request timeout bounds it.
pub async fn shed_load(State(in_flight): State<Arc<InFlight>>, request: Request, next: Next) -> Response {
    let Ok(_place) = in_flight.share(request.method()).try_acquire() else {
        return AppError::Busy.into_response();
    };
    next.run(request).await
}

/// The team archives this server writes at once: one a team, and `--max-exports` in all. Each
/// holds a database connection (its reads see one moment of the database) and a thread while its
/// download lasts, so past the limit an export is refused at once with 503 `server_busy` and
/// `Retry-After` rather than queued. Per server, like the other limits here: several servers
/// behind one address may each write an archive of the same team.
#[derive(Debug)]
pub struct Exports {
    places: Arc<Semaphore>,
    teams: Mutex<HashSet<TeamId>>,
}

/// Why an export cannot start now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportRefused {
    /// An archive of the same team is being written.
    TeamBusy,
    /// The server writes as many archives as it writes at once.
    ServerBusy,
}

impl Exports {
    pub fn new(limit: NonZeroU32) -> Arc<Self> {
        let limit = usize::try_from(limit.get()).unwrap_or(usize::MAX).min(Semaphore::MAX_PERMITS);
        Arc::new(Self { places: Arc::new(Semaphore::new(limit)), teams: Mutex::default() })
    }

    /// A place for an archive of `team`, held until the [`ExportPlace`] is dropped.
    ///
    /// # Errors
    ///
    /// When one of `team` is being written, or as many as the server writes at once.
    pub fn start(self: &Arc<Self>, team: TeamId) -> Result<ExportPlace, ExportRefused> {
        let mut teams = self.teams.lock().unwrap_or_else(PoisonError::into_inner);
        if teams.contains(&team) {
            return Err(ExportRefused::TeamBusy);
        }
        let place = Arc::clone(&self.places).try_acquire_owned().map_err(|_| ExportRefused::ServerBusy)?;
        teams.insert(team);
        Ok(ExportPlace { _place: place, team, exports: Arc::clone(self) })
    }
}

/// One archive's place among [`Exports`]: its team's and one of the server's, given back when
/// dropped.
#[derive(Debug)]
pub struct ExportPlace {
    _place: OwnedSemaphorePermit,
    team: TeamId,
    exports: Arc<Exports>,
}

impl Drop for ExportPlace {
    fn drop(&mut self) {
        self.exports.teams.lock().unwrap_or_else(PoisonError::into_inner).remove(&self.team);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_network_has_its_own_allowance() {
        let limit = PerClient::per_minute(NonZeroU32::new(2).unwrap());
        assert!(limit.allow("198.51.100.1"));
        assert!(limit.allow("198.51.100.1"));
        assert!(!limit.allow("198.51.100.1"));
        assert!(limit.allow("2001:db8::/64"));
    }

    #[test]
    fn reads_and_changes_have_a_share_each() {
        let in_flight = InFlight::new(NonZeroU32::new(1).unwrap());
        let read = in_flight.share(&Method::GET).try_acquire().unwrap();
        assert!(in_flight.share(&Method::HEAD).try_acquire().is_err());
        let change = in_flight.share(&Method::POST).try_acquire().unwrap();
        assert!(in_flight.share(&Method::DELETE).try_acquire().is_err());
        drop((read, change));
        assert!(in_flight.share(&Method::GET).try_acquire().is_ok());
    }

    #[test]
    fn one_export_a_team_and_a_bounded_number_in_all() {
        let exports = Exports::new(NonZeroU32::new(2).unwrap());
        let (first, second, third) = (TeamId::new(), TeamId::new(), TeamId::new());
        let running = exports.start(first).unwrap();
        assert_eq!(exports.start(first).unwrap_err(), ExportRefused::TeamBusy);
        let other = exports.start(second).unwrap();
        assert_eq!(exports.start(third).unwrap_err(), ExportRefused::ServerBusy);
        drop(running);
        let again = exports.start(first).unwrap();
        assert_eq!(exports.start(third).unwrap_err(), ExportRefused::ServerBusy);
        drop((other, again));
        assert!(exports.start(third).is_ok());
    }
}
