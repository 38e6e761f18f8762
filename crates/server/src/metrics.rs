//! What the server counts for `GET /metrics` (see "Metrics" in docs/behaviour.md): the requests
//! by route and status and how long they took, the database pool, the thread copies' hits and
//! misses, and the e-mails queued, sent and failed. Written in Prometheus's text format by
//! `prometheus-client`, from a registry each server owns.
//!
//! Requests are labelled with the route they matched (`/api/v2/teams/{team_id}/threads`), never
//! the path asked for, so that the series stay as few as the routes: a path holds ids, and anyone
//! can send any path. Requests no route matched (the app's pages, unknown addresses) share one
//! label, [`UNMATCHED`]; the embedded files, each a route of its own named after its content hash,
//! share one per folder ([`FILE_FOLDERS`]); methods other than the usual ones share `other`.

use std::{sync::Arc, time::Instant};

use axum::{
    extract::{MatchedPath, Request, State},
    http::{Method, StatusCode},
    middleware::Next,
    response::Response,
};
use prometheus_client::{
    encoding::{EncodeLabelSet, prometheus_text},
    metrics::{counter::Counter, family::Family, gauge::Gauge, histogram::Histogram},
    registry::{Registry, Unit},
};

use crate::db::Database;
use crate::{mail::MailCounters, repo::thread_cache::ThreadCache};

/// The route label of a request that no route matched.
pub const UNMATCHED: &str = "unmatched";

/// The folders of embedded files (`routes/web.rs`), whose routes are labelled `{folder}{file}`:
/// one series for the app's scripts and styles rather than one per file and version.
const FILE_FOLDERS: [&str; 2] = ["/assets/", "/widget/"];

/// Upper bounds of the latency buckets, in seconds: Prometheus's usual ones, and the default
/// request timeout (30 s), past which an API request has been answered 408.
const LATENCY_BUCKETS: [f64; 12] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0];

#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
struct RequestLabels {
    method: &'static str,
    route: String,
    status: u16,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
struct RouteLabels {
    method: &'static str,
    route: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
struct ConnectionLabels {
    state: &'static str,
}

type LatencyFamily = Family<RouteLabels, Histogram, fn() -> Histogram>;

#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: LatencyFamily,
    connections: Family<ConnectionLabels, Gauge>,
    max_connections: Gauge,
    db: Database,
}

impl Metrics {
    /// The server's metrics: its requests (counted by [`track`]), `db`'s pool (read at each
    /// scrape), and the counts the thread copies and the mailer keep themselves.
    pub fn new(db: Database, threads: &ThreadCache, mail: &MailCounters) -> Self {
        let mut registry = Registry::with_prefix("bobbin");
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests answered, by method, matched route and status",
            requests.clone(),
        );
        let latency: LatencyFamily = Family::new_with_constructor(|| Histogram::new(LATENCY_BUCKETS));
        registry.register_with_unit(
            "http_request_duration",
            "Time from a request's arrival to its answer's headers, by method and matched route",
            Unit::Seconds,
            latency.clone(),
        );
        let connections = Family::<ConnectionLabels, Gauge>::default();
        registry.register(
            "db_connections",
            "Database connections in the pools: in_use (lent to a request) or idle",
            connections.clone(),
        );
        let max_connections = Gauge::default();
        registry.register(
            "db_connections_max",
            "The most connections the pools open (--db-max-connections; on SQLite one more, the writer)",
            max_connections.clone(),
        );
        let (hits, misses) = threads.counters();
        registry.register(
            "thread_cache_hits",
            "Thread list requests served from this server's copy of the team's threads",
            hits,
        );
        registry.register(
            "thread_cache_misses",
            "Times a team's threads were read from the database because the copy was missing or out of date",
            misses,
        );
        registry.register(
            "emails_queued",
            "E-mails handed to the SMTP sender, or stored in the outbox when there is no SMTP server",
            mail.queued.clone(),
        );
        registry.register("emails_sent", "E-mails the SMTP server accepted", mail.sent.clone());
        registry.register(
            "emails_failed",
            "E-mails the SMTP server refused, or that could not be delivered after every retry",
            mail.failed.clone(),
        );
        Self { registry, requests, latency, connections, max_connections, db }
    }

    fn observe(&self, method: &'static str, route: String, status: StatusCode, seconds: f64) {
        self.latency.get_or_create(&RouteLabels { method, route: route.clone() }).observe(seconds);
        self.requests.get_or_create(&RequestLabels { method, route, status: status.as_u16() }).inc();
    }

    /// Every metric in Prometheus's text format (version 0.0.4), the pool's read now.
    pub fn render(&self) -> String {
        self.sample_pool();
        let mut text = String::new();
        prometheus_text::encode(&mut text, &self.registry).expect("writing to a String cannot fail");
        text
    }

    fn sample_pool(&self) {
        let (open, idle, max) = self.db.connections();
        let idle = i64::try_from(idle).unwrap_or(i64::MAX);
        self.connections.get_or_create(&ConnectionLabels { state: "in_use" }).set(i64::from(open) - idle);
        self.connections.get_or_create(&ConnectionLabels { state: "idle" }).set(idle);
        self.max_connections.set(i64::from(max));
    }
}

/// The content type of [`Metrics::render`].
pub const CONTENT_TYPE: &str = prometheus_text::CONTENT_TYPE;

/// Middleware: counts each request under its method, matched route and status, and its latency.
pub async fn track(State(metrics): State<Arc<Metrics>>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = method_label(request.method());
    let route = route_label(request.extensions().get::<MatchedPath>());
    let response = next.run(request).await;
    metrics.observe(method, route, response.status(), started.elapsed().as_secs_f64());
    response
}

fn route_label(matched: Option<&MatchedPath>) -> String {
    let Some(route) = matched.map(MatchedPath::as_str) else { return UNMATCHED.to_owned() };
    match FILE_FOLDERS.iter().find(|folder| route.starts_with(*folder)) {
        Some(folder) => format!("{folder}{{file}}"),
        None => route.to_owned(),
    }
}

/// The method as a label: any other than the usual ones is `other`, since a client may send
/// any token as a method.
fn method_label(method: &Method) -> &'static str {
    match method.as_str() {
        "GET" => "GET",
        "HEAD" => "HEAD",
        "POST" => "POST",
        "PUT" => "PUT",
        "PATCH" => "PATCH",
        "DELETE" => "DELETE",
        "OPTIONS" => "OPTIONS",
        _ => "other",
    }
}
