//! Limits that guard this server's own CPU and memory, counted in this process's memory: the
//! anonymous work of the converter endpoints per client network ([`PerClient`]), and the API
//! requests in progress at once ([`InFlight`]). Unlike the auth service's limits, which guard
//! accounts and so must hold across instances (they are counted in the database), these guard
//! each instance: each instance counting its own callers is what is wanted, and a database write
//! per request would cost more than what it guards.

use std::{num::NonZeroU32, sync::Arc};

use axum::{
    extract::{Request, State},
    http::Method,
    middleware::Next,
    response::{IntoResponse as _, Response},
};
use governor::{DefaultKeyedRateLimiter, Quota};
use tokio::sync::Semaphore;

use crate::error::AppError;

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
}
