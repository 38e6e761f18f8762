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
