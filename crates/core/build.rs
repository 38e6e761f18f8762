//! Turns the thread catalogue's data files (`data/threads/lines.toml` and one `<id>.csv` per line)
//! into the compact form the core embeds (see `src/catalogue/blob.rs`). Every problem in the data
//! stops the build with the file and line (`src/catalogue/source.rs`), so a bad edit cannot ship.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

// The catalogue's own modules, shared with the core (`source.rs` finds the others as `super::`).
#[path = "src/catalogue/blob.rs"]
#[expect(dead_code, reason = "the build only encodes")]
mod blob;
#[path = "src/catalogue/code.rs"]
#[expect(dead_code, reason = "the build checks codes but does not compare them")]
mod code;
#[path = "src/catalogue/meta.rs"]
mod meta;
#[path = "src/catalogue/source.rs"]
mod source;

const DATA_DIR: &str = "data/threads";

fn main() -> ExitCode {
    println!("cargo::rerun-if-changed={DATA_DIR}");
    let written = source::read(Path::new(DATA_DIR)).and_then(|lines| {
        let out = PathBuf::from(std::env::var("OUT_DIR").map_err(|e| e.to_string())?).join("threads.bin");
        std::fs::write(&out, blob::encode(&lines)).map_err(|e| format!("{}: {e}", out.display()))
    });
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error in the thread catalogue data: {message}");
            ExitCode::FAILURE
        }
    }
}
