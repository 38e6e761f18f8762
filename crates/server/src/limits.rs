//! Limits on anonymous work that costs this server CPU (the converter endpoints), counted per
//! client network in this process's memory. Unlike the auth service's limits, which guard
//! accounts and so must hold across instances (they are counted in the database), these guard
//! each instance's own CPU: each instance counting its own callers is what is wanted, and a
//! database write per conversion would cost more than the conversion.

use std::num::NonZeroU32;

use governor::{DefaultKeyedRateLimiter, Quota};

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
}
