//! Structured logging with `tracing`: text for people, JSON for collectors (`BOBBIN_LOG_FORMAT`).

use std::io::IsTerminal as _;

use anyhow::Context as _;
use tracing_subscriber::{EnvFilter, fmt};

use crate::config::{LogArgs, LogFormat};

pub fn init(args: &LogArgs) -> anyhow::Result<()> {
    let filter = EnvFilter::try_new(&args.log)
        .with_context(|| format!("BOBBIN_LOG / --log `{}` is not a valid filter", args.log))?;
    let builder =
        fmt().with_env_filter(filter).with_writer(std::io::stderr).with_ansi(std::io::stderr().is_terminal());
    let result = match args.log_format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).with_current_span(true).try_init(),
    };
    result.map_err(|error| anyhow::anyhow!("cannot set up logging: {error}"))
}

/// The target of the line each request writes (`BOBBIN_LOG=info,bobbin::request=warn` keeps
/// only the failed ones).
pub const REQUEST_TARGET: &str = "bobbin::request";

/// The line each request writes, once answered: its status and latency, inside the request's span
/// (method, path, request id). `info` for answers up to 4xx, `warn` for a 5xx (busy, storage
/// full, a database gone: the server is struggling), `error` for a 500 (a bug), under a target of
/// its own, so that a busy server can drop the first kind without losing the others.
/// tower-http's `DefaultOnResponse` writes every line at one level under tower-http's target.
#[derive(Debug, Clone, Copy)]
pub struct RequestLine;

impl<B> tower_http::trace::OnResponse<B> for RequestLine {
    fn on_response(
        self,
        response: &axum::http::Response<B>,
        latency: std::time::Duration,
        _span: &tracing::Span,
    ) {
        let status = response.status().as_u16();
        let latency = format!("{} ms", latency.as_millis());
        match status {
            500 => tracing::error!(target: REQUEST_TARGET, status, latency, "finished processing request"),
            501.. => tracing::warn!(target: REQUEST_TARGET, status, latency, "finished processing request"),
            _ => tracing::info!(target: REQUEST_TARGET, status, latency, "finished processing request"),
        }
    }
}
