//! The thread-usage model (issue 50, point 1; docs/behaviour.md, "Thread usage"): a straight run
//! gives its length plus the take-up per stitch, the sample designs fall near the trade rule of
//! about 5 m of top and 3 m of bobbin thread per 1,000 stitches, and a job's thread scales with
//! its quantity.

use bobbin_core::design::{ColourBlock, Format, LengthUnit, UsageModel, read, with_waste};
use proptest::prelude::*;

/// An EXP file of `runs`, each a colour block of `stitches` steps of `step` tenths of a
/// millimetre along x, a colour change between them.
fn straight_runs(runs: &[(u32, i8)]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for (index, &(stitches, step)) in runs.iter().enumerate() {
        if index > 0 {
            bytes.extend_from_slice(&[0x80, 0x01, 0, 0]);
        }
        for _ in 0..stitches {
            bytes.extend_from_slice(&[step.to_ne_bytes()[0], 0]);
        }
    }
    bytes
}

fn close(actual: f64, expected: f64) -> bool {
    (actual - expected).abs() < 1e-9
}

#[test]
fn a_straight_run_takes_its_length_and_the_take_up_of_each_stitch() {
    let model = UsageModel::default();
    // 1,000 stitches of 3 mm, then (after a colour change, tied in) 200 of 1.5 mm.
    let design = Format::Exp.read(&straight_runs(&[(1_000, 30), (200, 15)])).unwrap();
    let usage = model.usage(&design.blocks());
    assert_eq!(usage.blocks.len(), 2);
    let first = usage.blocks[0];
    assert_eq!(first.stitches, 1_000);
    // 1,000 × (3 mm + 2.5 mm) = 5.5 m of top thread; the bobbin 60% of it.
    assert!(close(first.top_m, 5.5), "{first:?}");
    assert!(close(first.bobbin_m, 3.3), "{first:?}");
    // The first stitch after the colour change is tied in where it lands: 199 steps of 1.5 mm.
    let second = usage.blocks[1];
    assert!(close(second.top_m, (199.0 * 1.5 + 200.0 * 2.5) / 1000.0), "{second:?}");
    assert!(close(usage.top_m, first.top_m + second.top_m));

    let bare =
        UsageModel { take_up_mm: 0.0, bobbin_share: 0.5, ..UsageModel::default() }.usage(&design.blocks());
    assert!(close(bare.blocks[0].top_m, 3.0) && close(bare.blocks[0].bobbin_m, 1.5), "{bare:?}");
}

/// The server keeps a design's blocks as JSON and prices and plans from them: read back, they
/// give the same usage as the file.
#[test]
fn stored_blocks_give_the_files_usage() {
    let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/designs");
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        let Ok(design) = read(&std::fs::read(&path).unwrap(), Some(&name)) else { continue };
        let blocks = design.blocks();
        let stored: Vec<ColourBlock> =
            serde_json::from_str(&serde_json::to_string(&blocks).unwrap()).unwrap();
        let model = UsageModel::default();
        assert_eq!(model.usage(&stored), model.usage(&blocks), "{name}");
        assert_eq!(
            model.usage(&blocks).blocks.len(),
            usize::try_from(design.summary().colours).unwrap(),
            "{name}"
        );
    }
}

/// Madeira's glossary ("Thread consumption"): "5m upper thread and approx. 3m under thread per
/// 1.000 stitches", depending on stitch length and type. Every sample design is within 20% of it.
#[test]
fn the_sample_designs_fall_near_the_trade_rule() {
    let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/designs");
    let mut measured = 0;
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        let Ok(design) = read(&std::fs::read(&path).unwrap(), Some(&name)) else { continue };
        let stitches = f64::from(design.summary().stitches);
        if stitches == 0.0 {
            continue;
        }
        let usage = UsageModel::default().usage(&design.blocks());
        let (top, bobbin) = (usage.top_m / stitches * 1000.0, usage.bobbin_m / stitches * 1000.0);
        assert!((4.0..=6.0).contains(&top), "{name}: {top:.2} m of top thread per 1,000 stitches");
        assert!((2.4..=3.6).contains(&bobbin), "{name}: {bobbin:.2} m of bobbin thread per 1,000 stitches");
        measured += 1;
    }
    assert!(measured >= 10, "{measured} designs measured");
}

#[test]
fn factors_out_of_range_are_named() {
    assert_eq!(UsageModel::default().checked(), Ok(UsageModel::default()));
    let error = UsageModel { take_up_mm: f64::NAN, ..UsageModel::default() }.checked().unwrap_err();
    assert_eq!(error.to_string(), "take_up_mm must be a number from 0 to 20.");
    assert_eq!(
        UsageModel { bobbin_share: -0.1, ..UsageModel::default() }.checked().unwrap_err().field,
        "bobbin_share"
    );
    assert_eq!(
        UsageModel { waste_percent: 101.0, ..UsageModel::default() }.checked().unwrap_err().field,
        "waste_percent"
    );
    // A team's settings may leave a factor out; an unknown one is refused.
    let partial: UsageModel = serde_json::from_str(r#"{ "bobbin_share": 0.5 }"#).unwrap();
    assert_eq!(partial, UsageModel { bobbin_share: 0.5, ..UsageModel::default() });
    let yards: UsageModel = serde_json::from_str(r#"{ "unit": "yards", "waste_percent": 5 }"#).unwrap();
    assert_eq!((yards.unit, yards.waste_percent, yards.take_up_mm), (LengthUnit::Yards, 5.0, 2.5));
    assert!((LengthUnit::Yards.of_metres(0.9144) - 1.0).abs() < 1e-12);
    assert!((yards.for_job(2.0, 10) - 21.0).abs() < 1e-12);
    assert!(serde_json::from_str::<UsageModel>(r#"{ "take_up": 2 }"#).is_err());
}

proptest! {
    /// A job's thread is the piece's times the quantity, with the waste on top: twice the pieces,
    /// twice the thread.
    #[test]
    fn a_jobs_thread_scales_with_its_quantity(
        stitches in 1_u32..3_000,
        step in 1_i8..127,
        quantity in 1_u32..10_000,
        waste in 0.0_f64..50.0,
    ) {
        let design = Format::Exp.read(&straight_runs(&[(stitches, step)])).unwrap();
        let piece = UsageModel::default().usage(&design.blocks()).top_m;
        let one = with_waste(piece, quantity, waste);
        let twice = with_waste(piece, quantity * 2, waste);
        prop_assert!((twice - 2.0 * one).abs() <= 1e-9 * twice.max(1.0));
        prop_assert!(one >= piece * f64::from(quantity));
        prop_assert!((with_waste(piece, quantity, 0.0) - piece * f64::from(quantity)).abs() <= 1e-9 * one.max(1.0));
    }
}
