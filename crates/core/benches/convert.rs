//! Converter benchmarks: `cargo bench -p bobbin-core --bench convert`. docs/benchmarks.md
//! ("Converter") records the results; the target is one colour against the whole catalogue in at
//! most 0.5 ms natively (and at least 5 times as fast as the npm `delta-e` package doing the same
//! work in Node, see `scripts/bench-convert-node.mjs`).

use std::hint::black_box;
use std::time::Duration;

use bobbin_core::catalogue::{Catalogue, EMBEDDED, LineIndex};
use bobbin_core::convert::{ConvertRequest, Source, nearest};
use criterion::{Criterion, criterion_group, criterion_main};

/// A saturated red, far from the grey axis where most of the catalogue sits.
const COLOUR: &str = "#C8102E";
/// A mid-grey: near-neutral, so lightness counts half against the catalogue's greys and the search
/// can rule out the fewest threads by lightness.
const GREY: &str = "#808080";
/// The line converted to every other line.
const FROM_LINE: &str = "madeira-polyneon";

fn request(to: Vec<String>, matches: usize) -> ConvertRequest {
    ConvertRequest { from: Source::Hex(COLOUR.to_owned()), to, matches, candidates: None }
}

fn grey_request(to: Vec<String>) -> ConvertRequest {
    ConvertRequest { from: Source::Hex(GREY.to_owned()), to, matches: 1, candidates: None }
}

fn one_colour(c: &mut Criterion) {
    let catalogue = Catalogue::builtin();
    let every_line: Vec<String> = catalogue.lines().iter().map(|line| line.id.to_owned()).collect();
    let mut group = c.benchmark_group("convert");
    group.sample_size(20).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));

    // Every thread of every line, reference lines included: one colour against the whole catalogue.
    let whole = request(every_line.clone(), 1);
    group.bench_function("one_colour_whole_catalogue", |b| {
        b.iter(|| catalogue.convert(black_box(&whole)).expect("converts"));
    });
    let grey = grey_request(every_line);
    group.bench_function("one_colour_whole_catalogue_mid_grey", |b| {
        b.iter(|| catalogue.convert(black_box(&grey)).expect("converts"));
    });
    // What the converter page asks by default: every thread line, five matches each.
    let default = request(Vec::new(), 5);
    group.bench_function("one_colour_thread_lines_5_matches", |b| {
        b.iter(|| catalogue.convert(black_box(&default)).expect("converts"));
    });
    group.finish();
}

fn one_line_to_every_other_line(c: &mut Criterion) {
    let catalogue = Catalogue::builtin();
    let from = catalogue.line_by_id(FROM_LINE).expect("the line exists");
    let others: Vec<LineIndex> = catalogue.line_indices().filter(|&line| line != from).collect();
    let mut group = c.benchmark_group("convert");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(10));
    group.bench_function("one_line_to_every_other_line", |b| {
        b.iter(|| {
            let mut found = 0_usize;
            for (_, thread) in catalogue.threads_of(from) {
                for &line in &others {
                    let pool = catalogue.threads_of(line).map(|(index, other)| (index, other.lab));
                    found += nearest(black_box(thread.lab), pool, 1).len();
                }
            }
            found
        });
    });
    group.finish();
}

fn decode(c: &mut Criterion) {
    let mut group = c.benchmark_group("catalogue");
    group.sample_size(20).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    group.bench_function("decode", |b| b.iter(|| Catalogue::decode(black_box(EMBEDDED)).expect("decodes")));
    group.finish();
}

criterion_group!(benches, one_colour, one_line_to_every_other_line, decode);
criterion_main!(benches);
