//! The client's address behind a reverse proxy (`--trust-forwarded-for`): the entry the proxy
//! added to `X-Forwarded-For`, never what the client wrote before it. Each proxy's header is
//! sent as that proxy sends it on, with a forged address first.

use reqwest::StatusCode;
use rstest::rstest;
use serde_json::json;

use crate::{
    auth_helpers::{Answer, send},
    helpers::{Backend, TestApp, spawn_app_with},
};

/// How a proxy passes on a request that arrived from `client` with `forged` in its own
/// `X-Forwarded-For`: the header lines the server then receives.
#[derive(Debug, Clone, Copy)]
enum Via {
    /// `HAProxy`'s `option forwardfor`: the client's line kept, and a line of its own after it.
    HaProxy,
    /// nginx's `proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for`: `, client`
    /// appended to the client's value.
    Nginx,
    /// Caddy, for a request from a peer it trusts to forward (`trusted_proxies`): the lines it
    /// received (here two) folded into one, then `, peer`. (From any other peer, as
    /// `deploy/Caddyfile` has it, Caddy replaces the header with the peer alone.)
    Caddy,
}

impl Via {
    fn lines(self, forged: &str, client: &str) -> Vec<String> {
        match self {
            Self::HaProxy => vec![forged.to_owned(), client.to_owned()],
            Self::Nginx => vec![format!("{forged}, {client}")],
            Self::Caddy => vec![format!("{forged}, 10.1.2.3, {client}")],
        }
    }
}

/// A password sign-in for an address of its own (so only the client's limit is at play), sent
/// through `proxy` from `client`, which forged `forged`.
async fn sign_in_through(app: &TestApp, proxy: Via, client: &str, forged: &str, attempt: u32) -> Answer {
    let mut request = app.client.post(app.url("/auth/v1/token?grant_type=password")).json(&json!({
        "email": format!("nobody{attempt}@example.com"),
        "password": "not-the-password",
    }));
    for line in proxy.lines(forged, client) {
        request = request.header("x-forwarded-for", line);
    }
    send(request).await
}

#[rstest]
#[tokio::test]
async fn sign_in_limits_count_the_client_the_proxy_names_whatever_it_forges_first(
    #[values(Via::HaProxy, Via::Nginx, Via::Caddy)] proxy: Via,
) {
    let app = spawn_app_with(Backend::Sqlite, |args| {
        args.trust_forwarded_for = true;
        args.auth.rate_limit = 3;
    })
    .await;

    // A new forged address each time, as an attacker would send to buy fresh limits.
    for attempt in 0..3 {
        sign_in_through(&app, proxy, "203.0.113.9", &format!("198.51.100.{attempt}"), attempt)
            .await
            .assert_error(StatusCode::BAD_REQUEST, "invalid_credentials");
    }
    sign_in_through(&app, proxy, "203.0.113.9", "198.51.100.99", 3)
        .await
        .assert_error(StatusCode::TOO_MANY_REQUESTS, "over_request_rate_limit");
    // Forging the next client's address does not spend that client's limit either.
    sign_in_through(&app, proxy, "203.0.113.10", "203.0.113.9", 4)
        .await
        .assert_error(StatusCode::BAD_REQUEST, "invalid_credentials");
}

#[tokio::test]
async fn behind_two_trusted_proxies_the_client_is_the_second_entry_from_the_right() {
    let app = spawn_app_with(Backend::Sqlite, |args| {
        args.trust_forwarded_for = true;
        args.trusted_proxy_hops = std::num::NonZeroU8::new(2).unwrap();
        args.auth.rate_limit = 3;
    })
    .await;
    // A CDN (192.0.2.1) adds the client; the local proxy then adds the CDN on a line of its own.
    let through_cdn = |forged: String, attempt: u32| {
        let request = app
            .client
            .post(app.url("/auth/v1/token?grant_type=password"))
            .json(&json!({ "email": format!("nobody{attempt}@example.com"), "password": "not-the-password" }))
            .header("x-forwarded-for", format!("{forged}, 203.0.113.9"))
            .header("x-forwarded-for", "192.0.2.1");
        send(request)
    };

    for attempt in 0..3 {
        through_cdn(format!("198.51.100.{attempt}"), attempt)
            .await
            .assert_error(StatusCode::BAD_REQUEST, "invalid_credentials");
    }
    through_cdn("198.51.100.99".to_owned(), 3)
        .await
        .assert_error(StatusCode::TOO_MANY_REQUESTS, "over_request_rate_limit");
}

#[rstest]
#[tokio::test]
async fn the_dev_mailbox_is_refused_to_a_forged_loopback_line(
    #[values(Via::HaProxy, Via::Nginx, Via::Caddy)] proxy: Via,
) {
    let app = spawn_app_with(Backend::Sqlite, |args| args.trust_forwarded_for = true).await;
    app.signup("far@example.com").await;

    for path in ["/dev/mailbox.json", "/dev/mailbox"] {
        let mut request = app.client.get(app.url(path));
        for line in proxy.lines("127.0.0.1", "203.0.113.7") {
            request = request.header("x-forwarded-for", line);
        }
        let forged = request.send().await.unwrap();
        assert_eq!(forged.status(), StatusCode::NOT_FOUND, "{path} through {proxy:?}");
        assert!(!forged.text().await.unwrap().contains("far@example.com"), "{path} through {proxy:?}");

        // Someone on this machine, through the same proxy, still reads it.
        let mut request = app.client.get(app.url(path));
        for line in proxy.lines("203.0.113.7", "127.0.0.1") {
            request = request.header("x-forwarded-for", line);
        }
        assert_eq!(request.send().await.unwrap().status(), StatusCode::OK, "{path} through {proxy:?}");
    }
}
