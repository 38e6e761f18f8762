//! Inventory search benchmarks: `cargo bench -p bobbin-core --bench inventory`. A large shop's
//! inventory of 5,000 entries, searched the ways the list page does; docs/benchmarks.md
//! ("Inventory list") records the results. The target: under 5 ms a search, so the server answers
//! a page well inside a frame.

use std::hint::black_box;
use std::time::Duration;

use bobbin_core::catalogue::Catalogue;
use bobbin_core::colour::Rgb8;
use bobbin_core::inventory::search::{Query, SortKey, Stock, code_order, search};
use bobbin_core::inventory::{ThreadDraft, ThreadEntry};
use criterion::{Criterion, criterion_group, criterion_main};

/// 5,000 catalogue threads from the first lines of the catalogue, with varied stock.
fn inventory(catalogue: &Catalogue) -> Vec<ThreadEntry> {
    catalogue
        .threads()
        .filter(|(_, thread)| !thread.conflict)
        .take(5_000)
        .enumerate()
        .map(|(n, (_, thread))| {
            ThreadDraft {
                line: catalogue.line(thread.line).id.to_owned(),
                code: thread.code.to_owned(),
                quantity: format!("{}.{}", n % 12, n % 10),
                location: format!("Shelf {}", n % 40),
                reorder_point: "2".to_owned(),
                ..ThreadDraft::default()
            }
            .parse(catalogue)
            .expect("catalogue threads are valid")
        })
        .collect()
}

fn searches(c: &mut Criterion) {
    let catalogue = Catalogue::builtin();
    let mut entries = inventory(catalogue);
    assert_eq!(entries.len(), 5_000);
    // In code order, as the search takes its stock (the server keeps it so).
    entries.sort_by_cached_key(code_order);
    let stock: Vec<Stock<'_>> = entries
        .iter()
        .enumerate()
        .map(|(n, entry)| Stock { entry, updated_at: i64::try_from(n).unwrap() })
        .collect();
    let page = |query: Query| Query { page: 1, per_page: 50, ..query };

    let mut group = c.benchmark_group("inventory_5000");
    group.sample_size(20).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    let first_page = page(Query::default());
    group.bench_function("first_page_by_code", |b| {
        b.iter(|| search(catalogue, black_box(&stock), &first_page));
    });
    let text = page(Query { text: "blue".into(), ..Query::default() });
    group.bench_function("text_blue", |b| {
        b.iter(|| search(catalogue, black_box(&stock), &text));
    });
    let low = page(Query { low_only: true, sort: SortKey::Quantity, ..Query::default() });
    group.bench_function("below_reorder_point_by_quantity", |b| {
        b.iter(|| search(catalogue, black_box(&stock), &low));
    });
    let closest = page(Query { closest_to: Some(Rgb8::parse_hex("#C8102E").unwrap()), ..Query::default() });
    group.bench_function("closest_to_a_colour", |b| {
        b.iter(|| search(catalogue, black_box(&stock), &closest));
    });
    group.finish();
}

criterion_group!(benches, searches);
criterion_main!(benches);
