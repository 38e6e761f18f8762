//! How long sessions last: Supabase Auth's `sessions.timebox` and
//! `sessions.inactivity_timeout`. (The pruning deletes ended sessions with the same rule in SQL,
//! in `repo::auth::prune`.)

use time::{Duration, OffsetDateTime};

use crate::entity::session;

/// How long sessions may last, from the configuration: a lifetime counted from the sign-in,
/// and an inactivity timeout counted from the last token refresh (or the sign-in). Zero turns
/// either off.
#[derive(Debug, Clone, Copy)]
pub struct SessionLimits {
    lifetime: Option<Duration>,
    inactivity: Option<Duration>,
}

impl SessionLimits {
    pub fn new(lifetime: std::time::Duration, inactivity: std::time::Duration) -> Self {
        let limit = |duration: std::time::Duration| {
            (!duration.is_zero()).then(|| Duration::try_from(duration).unwrap_or(Duration::MAX))
        };
        Self { lifetime: limit(lifetime), inactivity: limit(inactivity) }
    }

    pub fn lifetime(&self) -> Option<Duration> {
        self.lifetime
    }

    pub fn inactivity(&self) -> Option<Duration> {
        self.inactivity
    }

    /// When `session` ends at the latest, whatever happens: its lifetime's end.
    pub fn lifetime_end(&self, session: &session::Model) -> Option<OffsetDateTime> {
        self.lifetime.and_then(|lifetime| session.created_at.checked_add(lifetime))
    }

    /// Whether `session` has ended by itself at `now`: past its lifetime, past its own
    /// `not_after`, or unused for longer than the inactivity timeout.
    pub fn expired(&self, session: &session::Model, now: OffsetDateTime) -> bool {
        let last_active = session.refreshed_at.unwrap_or(session.created_at);
        let idle_end = self.inactivity.and_then(|inactivity| last_active.checked_add(inactivity));
        [self.lifetime_end(session), idle_end, session.not_after].into_iter().flatten().any(|end| end <= now)
    }
}
