use std::time::Duration;

use axum::{
    Json,
    extract::State,
    http::{StatusCode, header},
    response::IntoResponse,
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::state::AppState;

const PING_TIMEOUT: Duration = Duration::from_secs(2);

#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok` when the server can do its work, `degraded` when the database is unreachable.
    #[schema(example = "ok")]
    status: &'static str,
    /// `ok` or `unreachable`.
    #[schema(example = "ok")]
    database: &'static str,
    /// Version of the server.
    version: &'static str,
}

/// Liveness and database reachability, for load balancers and monitoring.
#[utoipa::path(
    get,
    path = "/healthz",
    tag = "meta",
    responses(
        (status = 200, description = "The server is up and its database answers", body = Health),
        (status = 503, description = "The server is up but its database does not answer", body = Health),
    )
)]
pub async fn healthz(State(state): State<AppState>) -> impl IntoResponse {
    let database_ok = match tokio::time::timeout(PING_TIMEOUT, state.db.ping()).await {
        Ok(Ok(())) => true,
        Ok(Err(error)) => {
            tracing::warn!(error = %error, "database ping failed");
            false
        }
        Err(_elapsed) => {
            tracing::warn!("database ping timed out");
            false
        }
    };
    let (status, health_status, database) = if database_ok {
        (StatusCode::OK, "ok", "ok")
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, "degraded", "unreachable")
    };
    let health = Health { status: health_status, database, version: crate::VERSION };
    (status, [(header::CACHE_CONTROL, "no-store")], Json(health))
}
