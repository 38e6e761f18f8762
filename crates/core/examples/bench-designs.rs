//! Times the design-file readers for `scripts/bench-designs.sh`, which compares them with Python's
//! pyembroidery on the same files: `cargo run --release -p bobbin-core --example bench-designs --
//! DIR [SECONDS]`.
//!
//! Reads every design file in DIR into memory, then reads them all from memory (detecting the
//! format and computing each design's summary, as the app does when a file is dropped on it) again
//! and again for SECONDS (2 unless given), after one untimed pass. Prints one line of JSON: the
//! files, the stitches one pass reads (each summary's stitch count), the passes and the seconds.

use std::time::{Duration, Instant};

use bobbin_core::design;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = args.next().ok_or("usage: bench-designs DIR [SECONDS]")?;
    let seconds: f64 = args.next().map_or(Ok(2.0), |s| s.parse())?;
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for entry in std::fs::read_dir(&dir)? {
        let path = entry?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
        if design::Format::from_file_name(&name).is_some() {
            files.push((name, std::fs::read(&path)?));
        }
    }
    files.sort();
    let pass = |files: &[(String, Vec<u8>)]| -> Result<u64, design::DesignError> {
        let mut stitches = 0;
        for (name, bytes) in files {
            let summary = design::read(std::hint::black_box(bytes), Some(name))?.summary();
            stitches += u64::from(summary.stitches);
        }
        Ok(stitches)
    };
    let stitches = pass(&files)?;
    let budget = Duration::from_secs_f64(seconds);
    let start = Instant::now();
    let mut passes = 0_u64;
    while start.elapsed() < budget {
        std::hint::black_box(pass(&files)?);
        passes += 1;
    }
    let elapsed = start.elapsed().as_secs_f64();
    println!(
        "{{\"files\": {}, \"stitches_per_pass\": {stitches}, \"passes\": {passes}, \"seconds\": {elapsed}}}",
        files.len()
    );
    Ok(())
}
