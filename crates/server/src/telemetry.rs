//! Structured logging with `tracing`: text for people, JSON for collectors (`BOBBIN_LOG_FORMAT`).

use std::{io::IsTerminal as _, time::Duration};

use anyhow::Context as _;
use tracing_appender::non_blocking::{NonBlockingBuilder, WorkerGuard};
use tracing_subscriber::{EnvFilter, fmt};

use crate::config::{LogArgs, LogFormat};

/// Sets up logging to standard error, written by a thread of its own (`tracing-appender`'s
/// non-blocking writer), so that a request never waits for the terminal or the journal. The lines
/// keep their order. Keep the guard until the process ends: dropped, it writes the lines still
/// queued.
///
/// # Errors
///
/// When the filter is not one, or logging was set up already.
pub fn init(args: &LogArgs) -> anyhow::Result<WorkerGuard> {
    let filter = EnvFilter::try_new(&args.log)
        .with_context(|| format!("BOBBIN_LOG / --log `{}` is not a valid filter", args.log))?;
    // Lines are queued, never dropped: a full queue makes the logging thread wait.
    let (writer, guard) = NonBlockingBuilder::default().lossy(false).finish(std::io::stderr());
    let builder =
        fmt().with_env_filter(filter).with_writer(writer).with_ansi(std::io::stderr().is_terminal());
    let result = match args.log_format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).with_current_span(true).try_init(),
    };
    result.map_err(|error| anyhow::anyhow!("cannot set up logging: {error}"))?;
    Ok(guard)
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
    fn on_response(self, response: &axum::http::Response<B>, latency: Duration, _span: &tracing::Span) {
        let status = response.status().as_u16();
        let latency = format!("{} ms", latency.as_millis());
        match status {
            500 => tracing::error!(target: REQUEST_TARGET, status, latency, "finished processing request"),
            501.. => tracing::warn!(target: REQUEST_TARGET, status, latency, "finished processing request"),
            _ => tracing::info!(target: REQUEST_TARGET, status, latency, "finished processing request"),
        }
    }
}
