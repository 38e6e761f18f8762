//! A job's plan (issue 50, points 2 and 3; docs/behaviour.md, "Jobs"): the design's threads as
//! slots, the proposal by CIEDE2000 and stock, the needles in stitching order with re-threads when
//! there are more threads than needles, and the stock check's verdicts.

use bobbin_core::colour::Rgb8;
use bobbin_core::design::{BlockUsage, ColourBlock, DesignThread};
use bobbin_core::job::{
    JobStatus, Owned, Rethread, Shelf, Slot, Verdict, default_spool_m, needles, propose, slots,
    spool_hundredths, thread_needs, verdict,
};

fn rgb(hex: &str) -> Rgb8 {
    Rgb8::parse_hex(hex).unwrap()
}

fn block(stitches: u32, colour: Option<&str>) -> ColourBlock {
    ColourBlock { stitches, sewn_mm: f64::from(stitches) * 2.0, colour: colour.map(rgb) }
}

#[test]
fn a_coloured_design_has_a_slot_per_thread_a_colourless_one_per_block() {
    // PES-like: red, white, red again; the file's threads list red once with both its blocks.
    let blocks = [block(100, Some("#cc0000")), block(50, Some("#ffffff")), block(70, Some("#cc0000"))];
    let threads = [
        DesignThread { colour: rgb("#cc0000"), name: Some("Red".into()), blocks: vec![1, 3] },
        DesignThread { colour: rgb("#ffffff"), name: None, blocks: vec![2] },
    ];
    let coloured = slots(&blocks, &threads);
    assert_eq!(coloured.iter().map(|slot| slot.blocks.clone()).collect::<Vec<_>>(), [vec![1, 3], vec![2]]);
    assert_eq!(coloured[0].name.as_deref(), Some("Red"));

    // DST: no colours, so each block is a thread of its own, in stitching order.
    let dst = [block(100, None), block(50, None), block(70, None)];
    let plain = slots(&dst, &[]);
    assert_eq!(plain, [1, 2, 3].map(|number| Slot { colour: None, name: None, blocks: vec![number] }));
}

#[test]
fn the_proposal_is_the_closest_thread_with_enough_else_the_closest_else_buy() {
    let owned = [
        Owned { key: "exact-but-short", colour: rgb("#cc0000"), free_m: 10.0 },
        Owned { key: "near-with-plenty", colour: rgb("#c80505"), free_m: 5_000.0 },
        Owned { key: "blue", colour: rgb("#0000cc"), free_m: 5_000.0 },
    ];
    let red = rgb("#cc0000");
    let proposal = propose(red, 100.0, &owned).unwrap();
    assert_eq!(proposal.thread, "near-with-plenty");
    assert!(proposal.enough && proposal.delta_e > 0.0 && proposal.delta_e < 2.0, "{proposal:?}");
    // Needing more than any holds: the closest, marked short.
    let proposal = propose(red, 10_000.0, &owned).unwrap();
    assert_eq!((proposal.thread, proposal.enough, proposal.delta_e), ("exact-but-short", false, 0.0));
    // Plenty of a thread that is no match does not beat the right colour running short.
    let owned = [
        Owned { key: "red-short", colour: rgb("#cc0000"), free_m: 10.0 },
        Owned { key: "white-plenty", colour: rgb("#f0f0f0"), free_m: 50_000.0 },
    ];
    assert_eq!(propose(red, 100.0, &owned).unwrap().thread, "red-short");
    // Nothing owned: buy.
    assert_eq!(propose::<&str>(red, 1.0, &[]), None);
}

#[test]
fn threads_go_on_needles_in_stitching_order_and_keep_their_needle() {
    let plan = needles(&["red", "white", "red", "black", "white"], 6);
    assert_eq!(plan.setup, ["red", "white", "black"]);
    assert_eq!(plan.blocks, [1, 2, 1, 3, 2]);
    assert!(plan.rethreads.is_empty());
}

#[test]
fn more_threads_than_needles_asks_for_the_fewest_rethreads() {
    // Two needles, threads a b c a b: c replaces b (needed after a), then b replaces c.
    let plan = needles(&["a", "b", "c", "a", "b"], 2);
    assert_eq!(plan.setup, ["a", "b"]);
    assert_eq!(plan.blocks, [1, 2, 2, 1, 2]);
    assert_eq!(
        plan.rethreads,
        [
            Rethread { before_block: 3, needle: 2, replaces: "b", thread: "c" },
            Rethread { before_block: 5, needle: 2, replaces: "c", thread: "b" },
        ]
    );
    // A thread never needed again is the one replaced.
    let plan = needles(&["a", "b", "c", "b"], 2);
    assert_eq!(plan.rethreads, [Rethread { before_block: 3, needle: 1, replaces: "a", thread: "c" }]);
}

#[test]
fn a_threads_need_sums_its_blocks_times_the_pieces_with_the_waste() {
    let usage = [
        BlockUsage { stitches: 1_000, top_m: 5.0, bobbin_m: 3.0 },
        BlockUsage { stitches: 500, top_m: 2.0, bobbin_m: 1.2 },
        BlockUsage { stitches: 800, top_m: 4.0, bobbin_m: 2.4 },
    ];
    let slots = slots(&[block(1, None), block(1, None), block(1, None)], &[]);
    // Blocks 1 and 3 on the same thread, block 2 not chosen yet.
    let needs = thread_needs(&usage, &slots, &[Some("red"), None, Some("red")], 10, 10.0);
    assert_eq!(needs.len(), 1);
    assert_eq!(needs[0].0, "red");
    assert!((needs[0].1 - 9.0 * 10.0 * 1.1).abs() < 1e-9, "{needs:?}");
}

#[test]
fn the_verdict_is_enough_or_short_by_metres_with_spools_to_buy() {
    let shelf = Shelf { spools: 1.5, spool_m: 1_000.0, reserved_m: 400.0 };
    assert!((shelf.free_m() - 1_100.0).abs() < 1e-9);
    assert_eq!(verdict(1_100.0, shelf), Verdict::Enough);
    assert_eq!(verdict(1_100.5, shelf), Verdict::Short { short_m: 0.5, spools: 1 });
    assert_eq!(verdict(3_200.0, shelf), Verdict::Short { short_m: 2_100.0, spools: 3 });
    // Reservations over what is held leave nothing free, never less.
    assert!(Shelf { spools: 0.1, spool_m: 1_000.0, reserved_m: 500.0 }.free_m().abs() < f64::EPSILON);
}

#[test]
fn spools_and_their_default_lengths() {
    assert_eq!(default_spool_m(Some("madeira-polyneon-40")), 1_000);
    assert_eq!(default_spool_m(Some("robison-anton-rayon-40")), 1_006);
    assert_eq!(default_spool_m(None), 1_000);
    // 125 m of a 1,000 m spool is 0.13 spools (rounded to the hundredth); 5 m of a 5,000 m cone 0.00.
    assert_eq!(spool_hundredths(125.0, 1_000.0), 13);
    assert_eq!(spool_hundredths(5.0, 5_000.0), 0);
}

#[test]
fn statuses_move_as_a_shop_works() {
    use JobStatus::*;
    assert!(Draft.may_become(Ready) && Ready.may_become(Running) && Running.may_become(Done));
    assert!(Ready.may_become(Cancelled) && Cancelled.may_become(Draft));
    assert!(!Draft.may_become(Done) && !Done.may_become(Running) && !Done.may_become(Cancelled));
    assert!(
        Ready.reserves()
            && Running.reserves()
            && !Draft.reserves()
            && !Done.reserves()
            && !Cancelled.reserves()
    );
    assert_eq!(JobStatus::parse("running"), Some(Running));
    assert_eq!(JobStatus::parse("Running"), None);
}
