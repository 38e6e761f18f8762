//! Any bytes given to the EXP reader, directly and through detection with a `.exp` name, give a
//! design or an error: never a panic, a hang (libFuzzer's -timeout) or a runaway allocation
//! (its -rss_limit_mb). A design read must also summarise and preview.
#![no_main]

use bobbin_core::design::{self, Format, MAX_BLOCKS, MAX_THREADS};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    for design in [Format::Exp.read(bytes), design::read(bytes, Some("design.exp"))].into_iter().flatten() {
        let summary = design.summary();
        assert!(summary.thread_colours.len() <= summary.colours as usize);
        // Every block with a stored colour is in exactly one thread, and no design needs more
        // threads than it has blocks.
        let merged: usize = summary.threads.iter().map(|thread| thread.blocks.len()).sum();
        assert_eq!(merged, summary.thread_colours.len());
        assert!(summary.threads_needed <= summary.colours);
        // The caps hold, so what a file can make the app do stays bounded.
        assert!(summary.colours as usize <= MAX_BLOCKS);
        assert!(summary.threads.len() <= MAX_THREADS);
        let preview = design.preview(500);
        let points: usize = preview.blocks.iter().flat_map(|b| &b.lines).map(Vec::len).sum();
        assert!(points <= 500);
    }
});
