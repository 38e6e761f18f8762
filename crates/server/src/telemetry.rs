//! Structured logging with `tracing`: text for people, JSON for collectors (`BOBBIN_LOG_FORMAT`).

use std::{
    io::{IsTerminal as _, Write as _},
    sync::{Condvar, LazyLock, Mutex, MutexGuard, PoisonError},
    time::Duration,
};

use anyhow::Context as _;
use tracing::{Level, Metadata};
use tracing_subscriber::{EnvFilter, fmt, fmt::MakeWriter};

use crate::config::{LogArgs, LogFormat};

pub fn init(args: &LogArgs) -> anyhow::Result<()> {
    let filter = EnvFilter::try_new(&args.log)
        .with_context(|| format!("BOBBIN_LOG / --log `{}` is not a valid filter", args.log))?;
    let builder =
        fmt().with_env_filter(filter).with_writer(&*OUTPUT).with_ansi(std::io::stderr().is_terminal());
    let result = match args.log_format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).with_current_span(true).try_init(),
    };
    result.map_err(|error| anyhow::anyhow!("cannot set up logging: {error}"))
}

/// Starts the thread that writes the request lines gathered ([`Output`]), and has a panic's
/// message follow them. After the runtime's workers have started: a thread allocates as it
/// starts, and each worker must take a `malloc` arena of its own first (`allocator::runtime`).
///
/// # Errors
///
/// When the thread cannot start.
pub fn start_writing() -> anyhow::Result<()> {
    std::thread::Builder::new()
        .name("log".to_owned())
        .spawn(|| OUTPUT.write_gathered_lines())
        .context("cannot start the log's writer")?;
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |panic| {
        // Not while this thread is writing the log (a panic there): it would wait for itself.
        if let Ok(_writing) = OUTPUT.writing.try_lock() {
            OUTPUT.write_gathered();
        }
        report(panic);
    }));
    Ok(())
}

/// Writes the request lines not written yet ([`Output`]): as the process ends.
pub fn flush() {
    OUTPUT.write_through(&[]);
}

/// The target of the line each request writes (`BOBBIN_LOG=info,bobbin::request=warn` keeps
/// only the failed ones).
pub const REQUEST_TARGET: &str = "bobbin::request";

/// How long a request line of an answer that went well waits to be written, at most.
const GATHERED_FOR: Duration = Duration::from_millis(100);

/// Past this many bytes gathered, the lines are written at once.
const GATHERED_BYTES: usize = 64 * 1024;

static OUTPUT: LazyLock<Output> = LazyLock::new(Output::default);

/// Where the log goes: standard error, each line at once, but for the request lines of answers
/// that went well (`info` under [`REQUEST_TARGET`]), which are gathered and written together once
/// [`GATHERED_FOR`] has passed (or [`GATHERED_BYTES`] have gathered), as nginx's `access_log …
/// buffer= flush=` does. Written one by one they were a `write` to standard error on every
/// request: `GET /teams` took 61-63 µs of CPU under the benchmark's load, 58-59 µs gathered
/// (README, "API speed"). Every other line (a warning, an error, the server starting or
/// stopping) is written at once after the lines gathered before it, and so is a panic's message,
/// so the log keeps its order; [`flush`] writes the rest as the process ends. A process killed
/// outright (`SIGKILL`) loses the request lines of its last tenth of a second.
///
/// Written here: `tracing-appender`'s non-blocking writer hands every line to a thread of its own,
/// woken for each, and measured no faster than a `write` per line.
#[derive(Debug, Default)]
struct Output {
    /// The request lines not written yet.
    gathered: Mutex<Vec<u8>>,
    /// Told when a line is gathered into an empty buffer.
    arrived: Condvar,
    /// Held while writing, so that lines reach standard error in the order they were made.
    writing: Mutex<()>,
}

impl Output {
    fn gathered(&self) -> MutexGuard<'_, Vec<u8>> {
        self.gathered.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Writes the lines gathered, then `line`. Standard error gone, there is nowhere to say so:
    /// the lines are dropped, as a `write` of each would have failed.
    fn write_through(&self, line: &[u8]) {
        let _writing = self.writing.lock().unwrap_or_else(PoisonError::into_inner);
        self.write_gathered();
        let _ = std::io::stderr().write_all(line);
    }

    /// Writes the lines gathered; the caller holds `writing`.
    fn write_gathered(&self) {
        let gathered = std::mem::take(&mut *self.gathered());
        let _ = std::io::stderr().write_all(&gathered);
    }

    fn gather(&self, line: &[u8]) {
        let mut gathered = self.gathered();
        if gathered.is_empty() {
            self.arrived.notify_one();
        }
        gathered.extend_from_slice(line);
        if gathered.len() >= GATHERED_BYTES {
            drop(gathered);
            self.write_through(&[]);
        }
    }

    /// The log's thread: once a line is gathered, waits [`GATHERED_FOR`] and writes what has
    /// gathered by then. An idle server's thread sleeps until the next request.
    fn write_gathered_lines(&self) {
        loop {
            let mut gathered = self.gathered();
            while gathered.is_empty() {
                gathered = self.arrived.wait(gathered).unwrap_or_else(PoisonError::into_inner);
            }
            drop(gathered);
            std::thread::sleep(GATHERED_FOR);
            self.write_through(&[]);
        }
    }
}

/// A line of the log, which `tracing-subscriber` writes whole with one `write_all` ([`Output`]).
#[derive(Debug)]
enum Line {
    Gathered,
    Written,
}

impl std::io::Write for Line {
    fn write(&mut self, line: &[u8]) -> std::io::Result<usize> {
        self.write_all(line)?;
        Ok(line.len())
    }

    fn write_all(&mut self, line: &[u8]) -> std::io::Result<()> {
        match self {
            Self::Gathered => OUTPUT.gather(line),
            Self::Written => OUTPUT.write_through(line),
        }
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for &'static Output {
    type Writer = Line;

    fn make_writer(&'a self) -> Line {
        Line::Written
    }

    fn make_writer_for(&'a self, meta: &Metadata<'_>) -> Line {
        if meta.target() == REQUEST_TARGET && *meta.level() == Level::INFO {
            Line::Gathered
        } else {
            Line::Written
        }
    }
}

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
