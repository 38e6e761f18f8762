//! `GET /metrics`: the server's metrics in Prometheus's text format, off unless configured (see
//! "Metrics" in docs/behaviour.md). On the main address it answers only to the token of
//! `--metrics-token`; on the address of `--metrics-bind` to anyone who reaches it.

use std::sync::Arc;

use axum::{
    Router,
    extract::State,
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Response},
    routing::get,
};
use sha2::{Digest as _, Sha256};
use subtle::ConstantTimeEq as _;

use crate::{
    auth::extract::bearer,
    config::Secret,
    error::{AppError, ErrorBody},
    metrics::{CONTENT_TYPE, Metrics},
    state::AppState,
};

/// The server's metrics, to the bearer of the metrics token.
#[utoipa::path(
    get,
    path = "/metrics",
    tag = "meta",
    responses(
        (status = 200, description = "Every metric, in Prometheus's text format (version 0.0.4)", body = String, content_type = "text/plain"),
        (status = 401, description = "`unauthorized`: no `Authorization: Bearer` header with the metrics token", body = ErrorBody),
        (status = 404, description = "`not_found`: metrics are not served on this address (no `--metrics-token`)", body = ErrorBody),
    )
)]
pub async fn metrics(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let (Some(metrics), Some(token)) = (&state.metrics, &state.metrics_token) else {
        return AppError::NotFound("There is nothing at GET /metrics.".to_owned()).into_response();
    };
    if !bearer(&headers).is_some_and(|sent| same_token(sent, token)) {
        let mut response =
            AppError::Unauthorized("Send the metrics token as `Authorization: Bearer <token>`.".to_owned())
                .into_response();
        response.headers_mut().insert(header::WWW_AUTHENTICATE, header::HeaderValue::from_static("Bearer"));
        return response;
    }
    exposition(metrics)
}

/// The router of `--metrics-bind`'s own address: `/metrics` and nothing else.
pub fn separate_router(metrics: Arc<Metrics>) -> Router {
    Router::new()
        .route("/metrics", get(|State(metrics): State<Arc<Metrics>>| async move { exposition(&metrics) }))
        .fallback(|| async { AppError::NotFound("Only /metrics is served here.".to_owned()) })
        .with_state(metrics)
}

fn exposition(metrics: &Metrics) -> Response {
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, CONTENT_TYPE), (header::CACHE_CONTROL, "no-store")],
        metrics.render(),
    )
        .into_response()
}

/// Compares in constant time, and digests first so that the time taken does not tell the
/// token's length either.
fn same_token(sent: &str, token: &Secret) -> bool {
    bool::from(Sha256::digest(sent.as_bytes()).ct_eq(&Sha256::digest(token.expose().as_bytes())))
}
