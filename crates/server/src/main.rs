use bobbin_server::config::Cli;
use clap::Parser;

fn main() -> std::process::ExitCode {
    bobbin_server::run(Cli::parse())
}
