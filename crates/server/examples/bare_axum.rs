//! The reference of `scripts/bench-http.sh`: the least an axum server can do for a JSON answer,
//! built with the same axum, tokio and compiler settings as Bobbin, so the benchmark can print each
//! of Bobbin's endpoints as a share of what the framework itself answers on the same machine in
//! the same run.
//!
//! `cargo run --profile dist --example bare_axum -- 127.0.0.1:PORT` (the shipped server's profile)

use axum::{Json, Router, routing::get};
use serde_json::{Value, json};

async fn hello() -> Json<Value> {
    Json(json!({ "status": "ok" }))
}

fn main() -> std::io::Result<()> {
    let address = std::env::args().nth(1).unwrap_or_else(|| "127.0.0.1:3999".to_owned());
    // The runtime Bobbin builds (crates/server/src/lib.rs): multi-threaded, one worker per core.
    tokio::runtime::Builder::new_multi_thread().enable_all().build()?.block_on(async {
        let listener = tokio::net::TcpListener::bind(&address).await?;
        axum::serve(listener, Router::new().route("/", get(hello))).await
    })
}
