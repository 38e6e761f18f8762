//! `GET /metrics` (docs/behaviour.md, "Metrics"): off by default, on an address of its own or
//! behind a token, and what it counts.

use reqwest::StatusCode;
use rstest::rstest;
use serde_json::Value;

use crate::{
    helpers::{Backend, TestApp, spawn_app, spawn_app_with},
    team_helpers::Person,
};

const TOKEN: &str = "metrics-token-for-the-tests-0123456789";

async fn scrape(app: &TestApp) -> String {
    let address = app.metrics_address.as_deref().expect("the test set --metrics-bind");
    let response = app.client.get(format!("{address}/metrics")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "text/plain; version=0.0.4; charset=utf-8");
    response.text().await.unwrap()
}

/// The value of the sample `series` (name and labels exactly as written), or 0 when the series
/// is not there yet. Every series read here counts something whole.
fn sample(text: &str, series: &str) -> i64 {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
        .map_or(0, |value| value.trim().parse().unwrap_or_else(|_| panic!("{series} reads {value}")))
}

async fn with_metrics_address(backend: Backend) -> TestApp {
    spawn_app_with(backend, |args| args.metrics.metrics_bind = Some("127.0.0.1:0".parse().unwrap())).await
}

#[tokio::test]
async fn metrics_are_off_unless_configured() {
    let app = spawn_app(Backend::Sqlite).await;

    let response = app.get("/metrics").await;

    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["code"], "not_found");
    assert!(app.metrics_address.is_none());
}

#[tokio::test]
async fn metrics_on_their_own_address_are_not_served_on_the_main_one() {
    let app = with_metrics_address(Backend::Sqlite).await;

    assert_eq!(app.get("/metrics").await.status(), StatusCode::NOT_FOUND);
    let elsewhere = app.client.get(format!("{}/healthz", app.metrics_address.as_ref().unwrap())).send().await;
    assert_eq!(elsewhere.unwrap().status(), StatusCode::NOT_FOUND, "only /metrics on the metrics address");
    assert!(scrape(&app).await.contains("bobbin_http_requests_total"));
}

#[tokio::test]
async fn metrics_on_the_main_address_answer_only_to_the_token() {
    let app = spawn_app_with(Backend::Sqlite, |args| args.metrics.metrics_token = Some(TOKEN.into())).await;
    let metrics = app.url("/metrics");

    let without = app.client.get(&metrics).send().await.unwrap();
    assert_eq!(without.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(without.headers()["www-authenticate"], "Bearer");
    assert_eq!(without.json::<Value>().await.unwrap()["code"], "unauthorized");
    let wrong = app.client.get(&metrics).bearer_auth("metrics-token-for-the-tests-0123456780").send().await;
    assert_eq!(wrong.unwrap().status(), StatusCode::UNAUTHORIZED);
    let shorter = app.client.get(&metrics).bearer_auth("metrics").send().await;
    assert_eq!(shorter.unwrap().status(), StatusCode::UNAUTHORIZED);

    let right = app.client.get(&metrics).bearer_auth(TOKEN).send().await.unwrap();
    assert_eq!(right.status(), StatusCode::OK);
    let text = right.text().await.unwrap();
    assert_eq!(sample(&text, r#"bobbin_http_requests_total{method="GET",route="/metrics",status="401"}"#), 3);
}

#[tokio::test]
async fn a_metrics_token_no_client_could_send_stops_the_start() {
    for token in ["   ", " padded-token-for-the-tests "] {
        let database = crate::helpers::TestDatabase::create(Backend::Sqlite).await;
        let mut args = crate::helpers::serve_args(&database.url);
        args.metrics.metrics_token = Some(token.into());
        let error = Box::pin(bobbin_server::startup::Application::build(args)).await.expect_err(token);
        assert!(format!("{error:#}").contains("BOBBIN_METRICS_TOKEN"), "{error:#}");
    }
}

#[rstest]
#[tokio::test]
async fn requests_are_counted_by_route_template_and_status(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = with_metrics_address(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;
    let threads = format!("/teams/{team}/threads");
    let missing = format!("{threads}/00000000-0000-4000-8000-000000000000");

    app.api_get(&owner, &threads).await.assert_status(StatusCode::OK);
    app.api_get(&owner, &threads).await.assert_status(StatusCode::OK);
    app.api_get(&owner, &missing).await.assert_api_error(StatusCode::NOT_FOUND, "not_found");
    assert_eq!(app.get("/healthz").await.status(), StatusCode::OK);
    assert_eq!(app.get(&format!("/inventory/threads?team={team}")).await.status(), StatusCode::OK);
    assert_eq!(app.get("/widget/demo.html").await.status(), StatusCode::OK);
    let text = scrape(&app).await;

    let list = r#"method="GET",route="/api/v2/teams/{team_id}/threads""#;
    assert_eq!(sample(&text, &format!("bobbin_http_requests_total{{{list},status=\"200\"}}")), 2, "{text}");
    let one = r#"method="GET",route="/api/v2/teams/{team_id}/threads/{thread_id}",status="404""#;
    assert_eq!(sample(&text, &format!("bobbin_http_requests_total{{{one}}}")), 1, "{text}");
    assert_eq!(sample(&text, r#"bobbin_http_requests_total{method="GET",route="/healthz",status="200"}"#), 1);
    let page = r#"bobbin_http_requests_total{method="GET",route="unmatched",status="200"}"#;
    assert_eq!(sample(&text, page), 1, "the app's pages share one series: {text}");
    let file = r#"bobbin_http_requests_total{method="GET",route="/widget/{file}",status="200"}"#;
    assert_eq!(sample(&text, file), 1, "the embedded files share one series per folder: {text}");
    assert!(!text.contains(&team), "no series is named after a raw path: {text}");
    assert_eq!(sample(&text, &format!("bobbin_http_request_duration_seconds_count{{{list}}}")), 2);
    assert_eq!(
        sample(&text, &format!("bobbin_http_request_duration_seconds_bucket{{{list},le=\"+Inf\"}}")),
        2
    );
    assert!(text.contains("# TYPE bobbin_http_request_duration_seconds histogram"), "{text}");
}

#[rstest]
#[tokio::test]
async fn the_pool_the_thread_copies_and_the_mail_are_measured(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = with_metrics_address(backend).await;
    let owner: Person = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;
    let threads = format!("/teams/{team}/threads");
    app.api_get(&owner, &threads).await.assert_status(StatusCode::OK);

    let before = scrape(&app).await;
    // --db-max-connections, and on SQLite the one writer connection besides.
    let most = if backend == Backend::Sqlite { 6 } else { 5 };
    assert_eq!(sample(&before, "bobbin_db_connections_max"), most, "--db-max-connections: {before}");
    let open = sample(&before, r#"bobbin_db_connections{state="in_use"}"#)
        + sample(&before, r#"bobbin_db_connections{state="idle"}"#);
    assert!((1..=most).contains(&open), "{before}");
    assert!(before.contains(r#"bobbin_db_connections{state="in_use"}"#), "{before}");

    app.api_get(&owner, &threads).await.assert_status(StatusCode::OK);
    app.signup("newcomer@example.com").await;
    let after = scrape(&app).await;

    let delta = |series: &str| sample(&after, series) - sample(&before, series);
    assert_eq!(delta("bobbin_thread_cache_hits_total"), 1, "the second list used the copy: {after}");
    assert_eq!(delta("bobbin_thread_cache_misses_total"), 0, "{after}");
    assert!(sample(&before, "bobbin_thread_cache_misses_total") >= 1, "the first list read: {before}");
    assert_eq!(delta("bobbin_emails_queued_total"), 1, "the sign-up's confirmation: {after}");
    assert_eq!(sample(&after, "bobbin_emails_failed_total"), 0, "{after}");
}
