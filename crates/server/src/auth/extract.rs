//! Extractors of the auth service: the JSON body, the caller's address, and the signed-in
//! session behind a bearer token.

use std::{
    net::{IpAddr, Ipv6Addr, SocketAddr},
    num::NonZeroU8,
    sync::Arc,
};

use axum::{
    body::Bytes,
    extract::{ConnectInfo, FromRequest, FromRequestParts, Request},
    http::{HeaderMap, StatusCode, header, request::Parts},
};
use serde::de::DeserializeOwned;

use crate::{
    auth::{
        error::{AuthError, AuthResult},
        keys::Claims,
        session::ClientInfo,
    },
    entity::{
        session::{self, Aal},
        user,
    },
    repo::{
        auth::sessions::{self, SignedIn},
        teams::{self, Membership},
        users,
    },
    state::AppState,
};

/// A JSON request body; errors in the auth service's shape (`bad_json`, `validation_failed`).
#[derive(Debug, Clone, Copy, Default)]
pub struct AuthJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for AuthJson<T> {
    type Rejection = AuthError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(request, state).await.map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                AuthError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "request_entity_too_large",
                    "Request body is too large",
                )
            } else {
                AuthError::bad_request("bad_json", "Could not read the request body")
            }
        })?;
        // An empty body is an empty object (the client posts `/logout` and `/factors/{id}/challenge` bare).
        let bytes: &[u8] = if bytes.trim_ascii().is_empty() { b"{}" } else { &bytes };
        serde_json::from_slice(bytes).map(AuthJson).map_err(|error| {
            if error.is_data() {
                AuthError::validation(format!("Invalid request body: {error}"))
            } else {
                AuthError::bad_request("bad_json", format!("Could not parse request body as JSON: {error}"))
            }
        })
    }
}

/// The caller's address and browser, for rate limits and the session record.
#[derive(Debug, Clone)]
pub struct Client(pub ClientInfo);

impl Client {
    /// What rate limits count requests by: the client's IPv4 address, or the /64 network of an
    /// IPv6 address (one subscriber is given a whole /64, billions of addresses, so counting
    /// each address alone would let one person through without limit).
    pub fn network(&self) -> String {
        match self.address() {
            Some(IpAddr::V6(address)) => {
                if let Some(v4) = address.to_ipv4_mapped() {
                    return v4.to_string();
                }
                let prefix = u128::from(address) & !((1_u128 << 64) - 1);
                format!("{}/64", Ipv6Addr::from(prefix))
            }
            Some(IpAddr::V4(address)) => address.to_string(),
            // No address at all (tests that call the router directly), or a proxy's header that
            // holds none: all such requests share one count, so junk cannot buy fresh limits.
            None if self.0.ip.is_none() => "unknown".to_owned(),
            None => "unparsable".to_owned(),
        }
    }

    /// Whether the request comes from this machine.
    pub fn is_loopback(&self) -> bool {
        self.address().is_some_and(|address| match address {
            IpAddr::V6(v6) => v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback()),
            IpAddr::V4(v4) => v4.is_loopback(),
        })
    }

    /// The client's address: a bare address, or one with a port (`203.0.113.9:5678`,
    /// `[2001:db8::1]:443`), as proxies write them.
    fn address(&self) -> Option<IpAddr> {
        let raw = self.0.ip.as_deref()?;
        raw.parse::<IpAddr>().ok().or_else(|| raw.parse::<SocketAddr>().ok().map(|socket| socket.ip()))
    }
}

impl FromRequestParts<AppState> for Client {
    type Rejection = AuthError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let forwarded = state.trusted_proxy_hops.and_then(|hops| forwarded_client(&parts.headers, hops));
        let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|info| info.0.ip().to_string());
        let user_agent = parts
            .headers
            .get(header::USER_AGENT)
            .and_then(|value| value.to_str().ok())
            .map(|agent| agent.chars().take(512).collect());
        Ok(Self(ClientInfo { ip: forwarded.or(peer), user_agent }))
    }
}

/// The client as the `hops` trusted proxies nearest to this server name it in `X-Forwarded-For`:
/// the entry `hops` places from the right, counted across all of the header's lines. A proxy
/// adds the address it was reached from at the right end, on a line of its own (`HAProxy`'s
/// `option forwardfor`) or appended to the last line (nginx's `$proxy_add_x_forwarded_for`,
/// Caddy), so everything left of the proxies' entries is whatever the client sent, and names no
/// one. With fewer entries than hops, the left-most (written by a proxy all the same). `None`
/// without the header, and then the connection's address counts.
///
/// Rejected: the first entry, or the last entry of the first line, which a client writes itself
/// when its proxy adds a line of its own; and a crate for it, which would count one hop only.
fn forwarded_client(headers: &HeaderMap, hops: NonZeroU8) -> Option<String> {
    let lines: Vec<_> = headers
        .get_all("x-forwarded-for")
        .iter()
        .map(|line| String::from_utf8_lossy(line.as_bytes()))
        .collect();
    let entries: Vec<&str> = lines
        .iter()
        .flat_map(|line| line.split(','))
        .map(str::trim)
        .filter(|entry| !entry.is_empty())
        .collect();
    let index = entries.len().saturating_sub(usize::from(hops.get()));
    entries.get(index).map(|entry| (*entry).to_owned())
}

/// A signed-in caller of the auth service: a valid bearer access token whose session still
/// exists, and its user.
#[derive(Debug, Clone)]
pub struct CurrentSession {
    pub claims: Arc<Claims>,
    pub session: session::Model,
    pub user: user::Model,
    /// Whether the person has a verified second factor, so that the session needs `aal2` for
    /// anything but asking for the code.
    pub has_verified_factor: bool,
}

impl CurrentSession {
    pub fn is_aal2(&self) -> bool {
        self.session.aal == Aal::Aal2
    }
}

impl FromRequestParts<AppState> for CurrentSession {
    type Rejection = AuthError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let token = bearer(&parts.headers).ok_or_else(|| {
            AuthError::new(
                StatusCode::UNAUTHORIZED,
                "no_authorization",
                "This endpoint requires a valid Bearer token",
            )
        })?;
        from_access_token(state, token).await
    }
}

/// The bearer token of a request, if any.
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim()).filter(|token| !token.is_empty())
}

/// Checks an access token (signature, expiry, audience, issuer) and that its session and user
/// still exist, in the database on every request: a signed-out session's tokens stop working at
/// once, not when they expire, on every server sharing the database.
pub async fn from_access_token(state: &AppState, token: &str) -> AuthResult<CurrentSession> {
    let claims = verified(state, token)?;
    let signed_in = sessions::signed_in(&state.db, claims.session_id, claims.sub).await?;
    still_signed_in(state, claims, signed_in)
}

/// [`from_access_token`], with the caller's membership of the team `team_id` names read in the
/// same query (`None`: no such team, or not theirs): what the team extractors check.
pub async fn from_access_token_in_team(
    state: &AppState,
    token: &str,
    team_id: &str,
) -> AuthResult<(CurrentSession, Option<Membership>)> {
    let claims = verified(state, token)?;
    let (signed_in, membership) =
        teams::signed_in_member(&state.db, claims.session_id, claims.sub, team_id).await?.unzip();
    Ok((still_signed_in(state, claims, signed_in)?, membership.flatten()))
}

/// [`from_access_token`], with the teams the caller belongs to read in the same query: what
/// `GET /teams` answers.
pub async fn from_access_token_with_teams(
    state: &AppState,
    token: &str,
) -> AuthResult<(CurrentSession, Vec<teams::Joined>)> {
    let claims = verified(state, token)?;
    let (signed_in, joined) = teams::signed_in_teams(&state.db, claims.session_id, claims.sub).await?.unzip();
    Ok((still_signed_in(state, claims, signed_in)?, joined.unwrap_or_default()))
}

/// [`from_access_token`], with the public id of the caller's default team read in the same query
/// (`None` while they have none, or once they have left it): what the profile answers.
pub async fn from_access_token_with_default_team(
    state: &AppState,
    token: &str,
) -> AuthResult<(CurrentSession, Option<String>)> {
    let claims = verified(state, token)?;
    let (signed_in, default_team_pid) =
        users::signed_in_profile(&state.db, claims.session_id, claims.sub).await?.unzip();
    Ok((still_signed_in(state, claims, signed_in)?, default_team_pid.flatten()))
}

/// The claims of `token`, if its signature, expiry, audience and issuer hold.
fn verified(state: &AppState, token: &str) -> AuthResult<Arc<Claims>> {
    state.auth.keys.verify(token).map_err(|error| {
        AuthError::forbidden("bad_jwt", format!("invalid JWT: unable to parse or verify signature, {error}"))
    })
}

/// The signed-in caller of `claims`, if their session (read as `signed_in`) is still valid.
fn still_signed_in(
    state: &AppState,
    claims: Arc<Claims>,
    signed_in: Option<SignedIn>,
) -> AuthResult<CurrentSession> {
    let SignedIn { session, user, has_verified_factor } = signed_in.ok_or_else(|| {
        AuthError::forbidden("session_not_found", "Session from session_id claim in JWT does not exist")
    })?;
    if state.auth.session_limits.expired(&session, time::OffsetDateTime::now_utc()) {
        return Err(AuthError::forbidden("session_expired", "Session is no longer valid"));
    }
    // Disabling ends the sessions too; this also covers a session that a sign-in racing the
    // disable committed after its sessions were deleted.
    if user.disabled_at.is_some() {
        return Err(AuthError::forbidden("user_banned", "This account is disabled."));
    }
    Ok(CurrentSession { claims, session, user, has_verified_factor })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(ip: &str) -> Client {
        Client(ClientInfo { ip: Some(ip.to_owned()), user_agent: None })
    }

    #[test]
    fn clients_are_counted_by_address_or_ipv6_network_whatever_the_proxy_writes() {
        assert_eq!(client("203.0.113.9").network(), "203.0.113.9");
        assert_eq!(client("203.0.113.9:5678").network(), "203.0.113.9");
        assert_eq!(client("::ffff:203.0.113.9").network(), "203.0.113.9");
        assert_eq!(client("2001:db8:1:2:3:4:5:6").network(), "2001:db8:1:2::/64");
        assert_eq!(client("[2001:db8:1:2::9]:443").network(), "2001:db8:1:2::/64");
        assert_eq!(client("not an address").network(), client("junk, again").network());
        assert!(client("127.0.0.1:9").is_loopback() && client("::1").is_loopback());
        assert!(!client("203.0.113.9").is_loopback());
    }

    fn forwarded(lines: &[&str], hops: u8) -> Option<String> {
        let mut headers = HeaderMap::new();
        for line in lines {
            headers.append("x-forwarded-for", line.parse().unwrap());
        }
        forwarded_client(&headers, NonZeroU8::new(hops).unwrap())
    }

    #[test]
    fn the_client_is_the_entry_the_nearest_proxy_added_whatever_the_client_wrote_before_it() {
        // HAProxy (`option forwardfor`): a line of its own after the client's.
        assert_eq!(forwarded(&["127.0.0.1", "203.0.113.9"], 1).as_deref(), Some("203.0.113.9"));
        // nginx (`$proxy_add_x_forwarded_for`) and Caddy: appended to what the client sent.
        assert_eq!(forwarded(&["127.0.0.1, 198.51.100.4, 203.0.113.9"], 1).as_deref(), Some("203.0.113.9"));
        // Several lines from the client, folded or not.
        assert_eq!(forwarded(&["10.0.0.1", "10.0.0.2, 203.0.113.9"], 1).as_deref(), Some("203.0.113.9"));
        // Empty entries and lines are skipped; an IPv6 entry is kept whole.
        assert_eq!(forwarded(&["a,,", "", "2001:db8::9 ,"], 1).as_deref(), Some("2001:db8::9"));
        // A line that is not text does not hide the proxy's entry.
        let mut headers = HeaderMap::new();
        headers.append("x-forwarded-for", axum::http::HeaderValue::from_bytes(b"\xff\xfe").unwrap());
        headers.append("x-forwarded-for", "203.0.113.9".parse().unwrap());
        assert_eq!(forwarded_client(&headers, NonZeroU8::MIN).as_deref(), Some("203.0.113.9"));
        assert_eq!(forwarded(&[], 1), None);
        assert_eq!(forwarded(&[" , "], 1), None);
    }

    #[test]
    fn with_two_trusted_proxies_the_client_is_the_second_entry_from_the_right() {
        // A CDN added the client (203.0.113.9), then the local proxy added the CDN.
        assert_eq!(forwarded(&["127.0.0.1", "203.0.113.9, 192.0.2.1"], 2).as_deref(), Some("203.0.113.9"));
        assert_eq!(forwarded(&["127.0.0.1, 203.0.113.9", "192.0.2.1"], 2).as_deref(), Some("203.0.113.9"));
        // Fewer entries than proxies: the left-most, which a proxy wrote.
        assert_eq!(forwarded(&["192.0.2.1"], 2).as_deref(), Some("192.0.2.1"));
    }
}
