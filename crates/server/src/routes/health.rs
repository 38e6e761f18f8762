use std::time::Duration;

use axum::{
    Json,
    extract::{Request, State},
    http::{StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{db::Outage, schema::SchemaState, state::AppState};

const PING_TIMEOUT: Duration = Duration::from_secs(2);

#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok` when the server can do its work, `degraded` when its database cannot.
    #[schema(example = "ok")]
    status: &'static str,
    /// `ok`; `unreachable` (no answer); `full` (its disk is full: reads work, writes answer
    /// `507`); `read_only` (reads work, writes answer `503`); `busy` (locked by someone else).
    #[schema(example = "ok")]
    database: &'static str,
    /// Version of the server.
    version: &'static str,
}

/// Middleware: notes the storage outages that requests meet (error answers carry them as an
/// extension), for `/healthz`.
pub async fn watch_storage(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    if let Some(outage @ (Outage::Full | Outage::ReadOnly)) = response.extensions().get::<Outage>() {
        state.storage.set(Some(*outage));
    }
    response
}

/// Liveness and whether the database can do its work, for load balancers and monitoring.
#[utoipa::path(
    get,
    path = "/healthz",
    tag = "meta",
    responses(
        (status = 200, description = "The server is up and its database answers", body = Health),
        (status = 503, description = "The server is up but its database does not answer, or takes no writes", body = Health),
    )
)]
pub async fn healthz(State(state): State<AppState>) -> impl IntoResponse {
    let database = database_condition(&state).await;
    let (status, health_status) =
        if database == "ok" { (StatusCode::OK, "ok") } else { (StatusCode::SERVICE_UNAVAILABLE, "degraded") };
    let health = Health { status: health_status, database, version: crate::VERSION };
    (status, [(header::CACHE_CONTROL, "no-store")], Json(health))
}

async fn database_condition(state: &AppState) -> &'static str {
    match tokio::time::timeout(PING_TIMEOUT, state.db.ping()).await {
        Ok(Ok(())) => {}
        Ok(Err(error)) => {
            tracing::warn!(error = %error, "database ping failed");
            return "unreachable";
        }
        Err(_elapsed) => {
            tracing::warn!("database ping timed out");
            return "unreachable";
        }
    }
    if state.storage.get().is_none() {
        return "ok";
    }
    // A request met a full disk or a read-only database: see whether writes work again.
    match tokio::time::timeout(PING_TIMEOUT, crate::db::probe_writes(&state.db)).await {
        Ok(Ok(())) => {
            state.storage.set(None);
            "ok"
        }
        Ok(Err(error)) => match Outage::of(&error) {
            Some(Outage::Full) => "full",
            Some(Outage::ReadOnly) => "read_only",
            Some(Outage::Busy) => "busy",
            Some(Outage::Unavailable) | None => "unreachable",
        },
        Err(_elapsed) => "busy",
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Readiness {
    /// `ready` when the server can take traffic; `not_ready` when its database does not answer
    /// or its schema is not the one this version needs.
    #[schema(example = "ready")]
    status: &'static str,
    /// `ok`, or `unreachable` (no answer within 2 seconds; the lists below are then empty).
    #[schema(example = "ok")]
    database: &'static str,
    /// Migrations this version needs that the database has not applied (they run when a server
    /// of this version starts).
    pending_migrations: Vec<String>,
    /// Migrations the database has applied that this version does not know: a newer version
    /// changed the schema.
    unknown_migrations: Vec<String>,
    /// Version of the server.
    version: &'static str,
}

/// Whether this server should be sent traffic: its database answers and has exactly the
/// migrations this version knows. For load balancers and deployments, beside `/healthz`.
#[utoipa::path(
    get,
    path = "/readyz",
    tag = "meta",
    responses(
        (status = 200, description = "The database answers and its schema is the one this version needs", body = Readiness),
        (status = 503, description = "The database does not answer, or has migrations pending or unknown to this version", body = Readiness),
    )
)]
pub async fn readyz(State(state): State<AppState>) -> impl IntoResponse {
    let (database, migrations) = match tokio::time::timeout(PING_TIMEOUT, SchemaState::read(&state.db)).await
    {
        Ok(Ok(migrations)) => ("ok", migrations),
        Ok(Err(error)) => {
            tracing::warn!(error = %error, "reading the applied migrations failed");
            ("unreachable", SchemaState::default())
        }
        Err(_elapsed) => {
            tracing::warn!("reading the applied migrations timed out");
            ("unreachable", SchemaState::default())
        }
    };
    let ready = database == "ok" && migrations.agrees();
    let (status, readiness_status) =
        if ready { (StatusCode::OK, "ready") } else { (StatusCode::SERVICE_UNAVAILABLE, "not_ready") };
    let readiness = Readiness {
        status: readiness_status,
        database,
        pending_migrations: migrations.pending,
        unknown_migrations: migrations.unknown,
        version: crate::VERSION,
    };
    (status, [(header::CACHE_CONTROL, "no-store")], Json(readiness))
}
