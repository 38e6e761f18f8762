use axum::{Json, extract::State};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{config::Environment, state::AppState};

#[derive(Debug, Serialize, ToSchema)]
pub struct Meta {
    /// Version of the server.
    version: &'static str,
    /// Version of the domain core the server runs (the browser runs the same core as WebAssembly).
    core_version: &'static str,
    environment: Environment,
}

/// Which build and deployment this is.
#[utoipa::path(get, path = "/meta", tag = "meta", responses((status = 200, body = Meta)))]
pub async fn meta(State(state): State<AppState>) -> Json<Meta> {
    Json(Meta { version: crate::VERSION, core_version: bobbin_core::VERSION, environment: state.environment })
}
