//! The design-file readers against the sample designs in `testdata/designs` and their reference
//! figures (`REFERENCE.tsv`, read from the files' own stitch records), plus damaged and edge-case
//! files written here, and properties that must hold for any bytes.

mod crafted;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bobbin_core::design::{
    self, Design, DesignError, DesignSummary, Format, MAX_BLOCKS, MAX_FILE_BYTES, MAX_RECORDS, MAX_THREADS,
    RecordKind,
};
use proptest::prelude::*;

/// `testdata/designs` of the repository (its sources and licences in `SOURCES.tsv` there).
fn designs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/designs")
}

fn sample(name: &str) -> Vec<u8> {
    let path = designs_dir().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn read_sample(name: &str) -> Design {
    design::read(&sample(name), Some(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The sample design files: everything in the folder but its README and tables.
fn sample_names() -> BTreeSet<String> {
    std::fs::read_dir(designs_dir())
        .expect("the designs folder is readable")
        .map(|entry| entry.expect("a folder entry").file_name().to_string_lossy().into_owned())
        .filter(|name| {
            let extension = Path::new(name).extension().and_then(|e| e.to_str()).unwrap_or("");
            !extension.eq_ignore_ascii_case("md") && !extension.eq_ignore_ascii_case("tsv")
        })
        .collect()
}

#[derive(Debug, serde::Deserialize)]
struct Reference {
    file: String,
    format: String,
    stitches: u32,
    jumps: u32,
    trims: String,
    color_changes: u32,
    colors: u32,
    width_mm: String,
    height_mm: String,
    thread_colors: String,
}

fn references() -> Vec<Reference> {
    let path = designs_dir().join("REFERENCE.tsv");
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(b'\t')
        .from_path(&path)
        .unwrap_or_else(|e| panic!("cannot open {}: {e}", path.display()));
    reader.deserialize().map(|row| row.expect("a well-formed REFERENCE.tsv row")).collect()
}

/// The summary in REFERENCE.tsv's terms, so a mismatch prints both rows side by side.
fn as_reference_row(summary: &DesignSummary) -> String {
    let trims = summary.trims.map_or_else(|| "n/a".to_owned(), |t| t.to_string());
    let colours: Vec<String> = summary.thread_colours.iter().map(|c| c.to_hex().to_lowercase()).collect();
    format!(
        "{}\t{}\t{}\t{}\t{}\t{}\t{:.1}\t{:.1}\t{}",
        summary.format,
        summary.stitches,
        summary.jumps,
        trims,
        summary.colour_changes,
        summary.colours,
        summary.width_mm,
        summary.height_mm,
        colours.join(";")
    )
}

#[test]
fn every_sample_design_gives_exactly_its_reference_row() {
    let references = references();
    let mut mismatches = Vec::new();
    for reference in &references {
        let summary = read_sample(&reference.file).summary();
        let expected = format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            reference.format,
            reference.stitches,
            reference.jumps,
            reference.trims,
            reference.color_changes,
            reference.colors,
            reference.width_mm,
            reference.height_mm,
            reference.thread_colors.to_lowercase()
        );
        let actual = as_reference_row(&summary);
        if actual != expected {
            mismatches.push(format!("{}\n  expected {expected}\n  read     {actual}", reference.file));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn reference_table_and_sample_folder_name_the_same_files() {
    let in_table: BTreeSet<String> = references().into_iter().map(|r| r.file).collect();
    let on_disk = sample_names();
    let missing_from_table: Vec<_> = on_disk.difference(&in_table).collect();
    let missing_files: Vec<_> = in_table.difference(&on_disk).collect();
    assert!(
        missing_from_table.is_empty(),
        "sample files without a REFERENCE.tsv row: {missing_from_table:?}"
    );
    assert!(missing_files.is_empty(), "REFERENCE.tsv rows without a sample file: {missing_files:?}");
}

#[test]
fn formats_are_detected_from_the_bytes_whatever_the_name_says() {
    for name in sample_names() {
        let bytes = sample(&name);
        let by_name = Format::from_file_name(&name).expect("samples have design extensions");
        let by_bytes = Format::detect(&bytes, None);
        if by_name == Format::Exp {
            assert_eq!(by_bytes, None, "{name}: EXP has no magic bytes");
            assert_eq!(Format::detect(&bytes, Some("STAR.EXP")), Some(Format::Exp));
        } else {
            assert_eq!(by_bytes, Some(by_name), "{name}");
            assert_eq!(Format::detect(&bytes, Some("wrong.exp")), Some(by_name), "{name}");
        }
    }
}

#[test]
fn the_same_design_in_two_formats_has_the_same_size() {
    let dst = read_sample("embroidermodder.dst").summary();
    let pes = read_sample("embroidermodder-v4.pes").summary();
    // Turned by 90 degrees in the PES.
    assert_eq!((dst.width_mm, dst.height_mm), (pes.height_mm, pes.width_mm));
    assert_eq!(dst.stitches, pes.stitches);
}

#[test]
fn a_pes_block_colour_comes_from_its_pec_index_not_the_thread_chart_order() {
    // complex-v6.pes has 5 threads in its PES chart and 12 blocks.
    let summary = read_sample("complex-v6.pes").summary();
    assert_eq!(summary.thread_colours.len(), 12);
    assert_eq!(summary.thread_colours, read_sample("complex-v1.pes").summary().thread_colours);
}

#[test]
fn the_colour_blocks_add_up_to_the_summary_and_carry_the_files_colours() {
    for name in sample_names() {
        let design = read_sample(&name);
        let summary = design.summary();
        let blocks = design.blocks();
        assert_eq!(blocks.len(), summary.colours as usize, "{name}");
        assert_eq!(blocks.iter().map(|block| block.stitches).sum::<u32>(), summary.stitches, "{name}");
        let stored: Vec<_> = blocks.iter().map_while(|block| block.colour).collect();
        assert_eq!(stored, summary.thread_colours, "{name}");
    }
}

#[test]
fn a_preview_draws_each_block_in_its_colour_as_svg() {
    let star = read_sample("star-v7.pes");
    let preview = star.preview(2_000);
    let svg = preview.to_svg();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\""), "{svg:.80}");
    assert!(svg.ends_with("</svg>"));
    assert_eq!(svg.matches("<g stroke=").count(), preview.blocks.len());
    let lines: usize = preview.blocks.iter().map(|block| block.lines.len()).sum();
    assert_eq!(svg.matches("<polyline").count(), lines);
    for colour in star.summary().thread_colours {
        assert!(svg.contains(&format!("<g stroke=\"{colour}\">")), "{colour}");
    }
    // A file without colours is drawn in the neutrals, in turn.
    let dst = read_sample("star.dst").preview(2_000).to_svg();
    assert!(dst.contains(&format!("<g stroke=\"{}\">", design::NEUTRALS[0])));
    assert!(!svg.contains("script") && !dst.contains("script"));
}

#[test]
fn every_design_ends_with_one_end_record() {
    for name in sample_names() {
        let design = read_sample(&name);
        let ends = design.records().iter().filter(|r| r.kind == RecordKind::End).count();
        assert_eq!(ends, 1, "{name}");
        assert_eq!(design.records().last().map(|r| r.kind), Some(RecordKind::End), "{name}");
    }
}

// Edge cases: files the tests write.

fn truncated(result: &Result<Design, DesignError>) -> Option<(Format, usize)> {
    match result {
        Err(DesignError::Truncated { format, at }) => Some((*format, *at)),
        _ => None,
    }
}

/// A result in a line: the summary, not thousands of records.
fn describe(result: &Result<Design, DesignError>) -> String {
    match result {
        Ok(design) => format!("read as {:?}", design.summary()),
        Err(e) => format!("error {e:?}"),
    }
}

/// Where a PES file's PEC thumbnails start: right after the stitch list's 0xFF end mark (the PEC
/// graphics header at 512 gives the offset from itself in 3 bytes at 514).
fn pes_thumbnails_at(pes: &[u8]) -> usize {
    let pec = u32::from_le_bytes(pes[8..12].try_into().unwrap()) as usize;
    let offset = u32::from_le_bytes([pes[pec + 514], pes[pec + 515], pes[pec + 516], 0]);
    pec + 512 + offset as usize
}

#[test]
fn empty_input_is_refused_as_empty_whatever_the_name() {
    for hint in [None, Some("a.dst"), Some("a.pes"), Some("a.jef"), Some("a.exp"), Some("a.vp3")] {
        assert_eq!(design::read(&[], hint).unwrap_err(), DesignError::Empty, "{hint:?}");
    }
    assert_eq!(Format::Exp.read(&[]).unwrap_err(), DesignError::Empty);
}

#[test]
fn bytes_in_no_known_format_are_refused() {
    let text = b"This is a shopping list, not an embroidery design.";
    assert_eq!(design::read(text, None).unwrap_err(), DesignError::UnknownFormat);
    assert_eq!(design::read(text, Some("list.txt")).unwrap_err(), DesignError::UnknownFormat);
    // A name decides only when the bytes say nothing; the reader then finds it is not that format.
    assert!(matches!(
        design::read(text, Some("list.pes")).unwrap_err(),
        DesignError::Malformed { format: Format::Pes, .. }
    ));
}

#[test]
fn headers_cut_short_are_truncated_in_every_format() {
    for (name, cut) in [
        ("star.dst", 100),
        ("star.dst", 511),
        ("star-v7.pes", 6),
        ("star-v7.pes", 10),
        ("star-v7.pes", 613 + 40),
        ("star-v7.pes", 613 + 530),
        ("star.jef", 30),
        ("star.jef", 131),
        ("bean.vp3", 3),
        ("bean.vp3", 70),
        ("bean.vp3", 0xF5),
    ] {
        let bytes = &sample(name)[..cut];
        let result = design::read(bytes, Some(name));
        assert_eq!(
            truncated(&result),
            Some((Format::from_file_name(name).unwrap(), cut)),
            "{name} cut at {cut}: {}",
            describe(&result)
        );
    }
}

#[test]
fn stitch_data_cut_short_is_truncated_in_every_format() {
    for name in ["star.dst", "star-v7.pes", "complex-v6.pes", "star.jef", "star.exp", "bean.vp3"] {
        let full = sample(name);
        // Mid-record: one byte into a record in every format (DST records are 3 bytes from 512,
        // the others 2 bytes; PEC steps may be 1 or 2 bytes, which any end short of 0xFF cuts).
        let cut = match Format::from_file_name(name).unwrap() {
            Format::Dst => 512 + 3 * 300 + 1,
            Format::Exp => 2 * 300 + 1,
            Format::Jef => 132 + 2 * 300 + 1,
            // Inside the PEC stitch list, which ends where the thumbnails start.
            Format::Pes => pes_thumbnails_at(&full) - 100,
            Format::Vp3 => full.len() - 200,
        };
        let result = design::read(&full[..cut], Some(name));
        assert_eq!(
            truncated(&result).map(|(f, _)| f),
            Format::from_file_name(name),
            "{name} cut at {cut}: {}",
            describe(&result)
        );
    }
}

#[test]
fn a_dst_cut_inside_its_header_is_truncated_without_a_name() {
    let bytes = &sample("star.dst")[..200];
    assert_eq!(truncated(&design::read(bytes, None)), Some((Format::Dst, 200)));
}

/// bean.vp3 with its one colour block twice: the second red turned blue and starting 10 mm right.
fn two_block_vp3() -> Vec<u8> {
    let bean = sample("bean.vp3");
    // The block count (u16) is at 0xE0 and the one block runs from 0xE2 to the end; within a
    // block, the start x (i32, 1/1000 mm) is at 7 and the first colour's RGB at 17.
    assert_eq!(&bean[0xE0..0xE5], &[0x00, 0x01, 0x00, 0x05, 0x00]);
    let block = &bean[0xE2..];
    let mut second = block.to_vec();
    second[7..11].copy_from_slice(&10_000_i32.to_be_bytes());
    second[17..20].copy_from_slice(&[0x00, 0x00, 0xFF]);
    let mut bytes = bean[..0xE0].to_vec();
    bytes.extend_from_slice(&[0x00, 0x02]);
    bytes.extend_from_slice(block);
    bytes.extend_from_slice(&second);
    bytes
}

#[test]
fn a_vp3_block_after_the_first_starts_with_a_colour_change_and_a_jump_to_its_start() {
    let summary = design::read(&two_block_vp3(), None).unwrap().summary();
    let bean = read_sample("bean.vp3").summary();
    assert_eq!(summary.stitches, 2 * bean.stitches);
    assert_eq!((summary.colour_changes, summary.colours, summary.jumps), (1, 2, 1));
    assert_eq!(summary.trims, Some(2));
    let hex: Vec<String> = summary.thread_colours.iter().map(|c| c.to_hex().to_lowercase()).collect();
    assert_eq!(hex, ["#ff0000", "#0000ff"]);
    // The same 50 mm square, the second 10 mm to the right.
    assert_eq!((summary.width_mm, summary.height_mm), (60.0, 50.0));
}

#[test]
fn a_jef_without_its_end_record_is_truncated() {
    let full = sample("star.jef");
    // The end record, then 2 bytes of padding.
    let cut = full.len() - 4;
    assert_eq!(&full[cut..cut + 2], &[0x80, 0x10]);
    assert_eq!(truncated(&design::read(&full[..cut], None)), Some((Format::Jef, cut)));
}

#[test]
fn a_dst_without_an_end_record_reads_to_its_last_record() {
    let full = sample("star.dst");
    let end = full.len() - 3;
    assert_eq!(full[end + 2] & 0xF3, 0xF3, "star.dst ends with its END record");
    let without_end = design::read(&full[..end], None).expect("a DST without END reads");
    assert_eq!(without_end.summary(), read_sample("star.dst").summary());
    // Cut between records, a DST just has fewer stitches.
    let shorter = design::read(&full[..512 + 3 * 100], None).expect("whole records read");
    assert!(shorter.summary().stitches <= 100);
}

#[test]
fn bytes_after_a_dst_end_record_are_ignored() {
    let mut bytes = sample("star.dst");
    let reference = design::read(&bytes, None).unwrap().summary();
    bytes.extend_from_slice(&[0x1A, 0x00, 0x00, 0x83, 0x12, 0x34, 0xFF]);
    assert_eq!(design::read(&bytes, None).unwrap().summary(), reference);
}

#[test]
fn a_pes_whose_pec_offset_points_past_the_end_is_truncated() {
    let mut bytes = sample("star-v7.pes");
    let len = bytes.len();
    for offset in [u32::try_from(len).unwrap() + 100, u32::MAX] {
        bytes[8..12].copy_from_slice(&offset.to_le_bytes());
        assert_eq!(truncated(&design::read(&bytes, None)), Some((Format::Pes, len)), "offset {offset}");
    }
}

#[test]
fn a_pes_without_its_end_mark_is_truncated() {
    let full = sample("star-v7.pes");
    // The stitch list ends with 0xFF right before the thumbnails; drop the thumbnails and the mark.
    let thumbnails = pes_thumbnails_at(&full);
    assert_eq!(full[thumbnails - 1], 0xFF);
    let cut = thumbnails - 1;
    assert_eq!(truncated(&design::read(&full[..cut], None)), Some((Format::Pes, cut)));
}

#[test]
fn absurd_counts_in_headers_give_errors_not_allocations() {
    // A JEF claiming 4 billion colours no longer has a JEF header's layout.
    let mut jef = sample("star.jef");
    jef[24..28].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(
        design::read(&jef, Some("star.jef")).unwrap_err(),
        DesignError::Malformed { format: Format::Jef, .. }
    ));
    // A VP3 claiming 65,535 colour blocks is refused before any is read; one claiming 1,000 runs
    // out of bytes.
    let mut vp3 = sample("bean.vp3");
    vp3[0xE0..0xE2].copy_from_slice(&[0xFF, 0xFF]);
    assert_eq!(design::read(&vp3, None).unwrap_err(), DesignError::TooManyBlocks);
    vp3[0xE0..0xE2].copy_from_slice(&1000_u16.to_be_bytes());
    assert_eq!(truncated(&design::read(&vp3, None)).map(|(f, _)| f), Some(Format::Vp3));
    // A VP3 block claiming 4 GiB.
    let mut vp3 = sample("bean.vp3");
    vp3[0xE5..0xE9].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(truncated(&design::read(&vp3, None)).map(|(f, _)| f), Some(Format::Vp3));
    // A PEC header listing 255 colours (0xFE + 1) reads them from the PEC header; the stitches
    // still decide the number of blocks.
    let mut pes = sample("star-v7.pes");
    pes[613 + 48] = 0xFE;
    let summary = design::read(&pes, None).unwrap().summary();
    assert_eq!((summary.colours, summary.thread_colours.len()), (2, 2));
}

#[test]
fn designs_over_the_record_limit_are_refused() {
    // A DST of MAX_RECORDS + 1 small stitches (3 bytes each), then END.
    let mut bytes = sample("star.dst")[..512].to_vec();
    for _ in 0..=MAX_RECORDS {
        bytes.extend_from_slice(&[0x01, 0x00, 0x03]);
    }
    bytes.extend_from_slice(&[0x00, 0x00, 0xF3]);
    assert_eq!(design::read(&bytes, None).unwrap_err(), DesignError::TooManyRecords);
    // Exactly at the limit reads.
    bytes.truncate(512 + 3 * MAX_RECORDS);
    assert_eq!(design::read(&bytes, None).unwrap().summary().stitches as usize, MAX_RECORDS);
}

#[test]
fn files_over_16_mib_are_refused_before_reading() {
    let bytes = vec![0u8; MAX_FILE_BYTES + 1];
    assert_eq!(
        design::read(&bytes, Some("big.dst")).unwrap_err(),
        DesignError::FileTooLarge { bytes: MAX_FILE_BYTES + 1 }
    );
}

#[test]
fn an_exp_control_record_it_does_not_define_is_malformed_at_its_byte() {
    let bytes = [0x10, 0x10, 0x80, 0x07, 0x00, 0x00];
    assert_eq!(
        design::read(&bytes, Some("x.exp")).unwrap_err(),
        DesignError::Malformed {
            format: Format::Exp,
            at: 2,
            reason: "it has a control record EXP does not define"
        }
    );
}

#[test]
fn error_messages_say_what_happened_and_what_to_do() {
    let message = DesignError::Truncated { format: Format::Pes, at: 1234 }.to_string();
    assert_eq!(message, "This PES file ends early (byte 1234); it may be damaged or only partly copied.");
    assert!(DesignError::UnknownFormat.to_string().contains("DST, PES, JEF"));
}

// Summary and preview on designs written here (EXP: 2-byte records, y upwards).

/// An EXP: 3 stitches of 1 mm to the right, a jump, 2 stitches, a trim, a colour change, 2 stitches.
fn small_exp() -> Vec<u8> {
    let mut bytes = Vec::new();
    for _ in 0..3 {
        bytes.extend_from_slice(&[10, 0]);
    }
    bytes.extend_from_slice(&[0x80, 0x04, 0, 50]);
    bytes.extend_from_slice(&[10, 0, 10, 0]);
    bytes.extend_from_slice(&[0x80, 0x80, 0, 0]);
    bytes.extend_from_slice(&[0x80, 0x01, 0, 0]);
    bytes.extend_from_slice(&[0, 10, 0, 10]);
    bytes
}

#[test]
fn the_summary_counts_records_and_measures_the_stitches_only() {
    let summary = design::read(&small_exp(), Some("small.exp")).unwrap().summary();
    assert_eq!(
        summary,
        DesignSummary {
            format: Format::Exp,
            stitches: 7,
            jumps: 1,
            trims: Some(1),
            colour_changes: 1,
            colours: 2,
            // x from 1 mm (first stitch) to 5 mm; y from 0 to 7 mm up (5 by the jump, 2 more).
            width_mm: 4.0,
            height_mm: 7.0,
            thread_colours: Vec::new(),
            // EXP stores no colours: nothing says the two blocks share a thread.
            threads: Vec::new(),
            threads_needed: 2,
        }
    );
}

#[test]
fn the_summary_serialises_in_snake_case_with_hex_colours() {
    let json = serde_json::to_value(read_sample("star-v7.pes").summary()).unwrap();
    assert_eq!(json["format"], "pes");
    assert_eq!(json["colour_changes"], 1);
    assert_eq!(json["trims"], 0);
    assert_eq!(json["thread_colours"][0].as_str().map(str::to_lowercase).as_deref(), Some("#ed171f"));
    let dst = serde_json::to_value(read_sample("star.dst").summary()).unwrap();
    assert!(dst["trims"].is_null());
}

#[test]
fn the_preview_breaks_lines_at_jumps_and_trims_and_splits_colour_blocks() {
    let preview = design::read(&small_exp(), Some("small.exp")).unwrap().preview(1000);
    assert_eq!(preview.blocks.len(), 2);
    let lines: Vec<usize> = preview.blocks.iter().map(|b| b.lines.len()).collect();
    assert_eq!(lines, [2, 1]);
    assert_eq!(preview.blocks[0].lines[0], [[10, 0], [20, 0], [30, 0]]);
    assert_eq!(preview.blocks[1].lines[0], [[50, -60], [50, -70]]);
    assert_eq!((preview.min_x, preview.min_y, preview.max_x, preview.max_y), (10, -70, 50, 0));
}

#[test]
fn the_preview_thins_evenly_to_at_most_max_points_and_keeps_block_colours() {
    let design = read_sample("complex-v6.pes");
    for max_points in [0, 1, 10, 500, 7197, 7198, 100_000] {
        let preview = design.preview(max_points);
        let points: usize = preview.blocks.iter().flat_map(|b| &b.lines).map(Vec::len).sum();
        assert!(points <= max_points, "{points} points for at most {max_points}");
        if max_points >= 7198 {
            assert_eq!(points, 7198);
        } else if max_points > 0 {
            assert!(points * 2 >= max_points.min(7198), "{points} is too thin for {max_points}");
        }
    }
    let preview = design.preview(2000);
    let colours: Vec<_> = preview.blocks.iter().map(|b| b.colour).collect();
    let expected: Vec<_> = design.summary().thread_colours.into_iter().map(Some).collect();
    assert_eq!(colours, expected);
    assert!(serde_json::to_string(&preview).unwrap().contains("\"lines\":[[["));
}

// Properties: no bytes make a reader panic or hang.

const FORMATS: [Format; 5] = [Format::Dst, Format::Pes, Format::Jef, Format::Exp, Format::Vp3];
const SAMPLES: [&str; 8] = [
    "star.dst",
    "star-v7.pes",
    "complex-v6.pes",
    "embroidermodder-v4.pes",
    "star.jef",
    "star.exp",
    "bean.vp3",
    "blank-v1.pes",
];

fn check_summary_and_preview(result: Result<Design, DesignError>) {
    if let Ok(design) = result {
        let summary = design.summary();
        assert!(summary.thread_colours.len() <= summary.colours as usize);
        let _ = design.preview(100);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_bytes_never_make_a_reader_panic(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        for format in FORMATS {
            check_summary_and_preview(format.read(&bytes));
        }
        check_summary_and_preview(design::read(&bytes, None));
    }

    #[test]
    fn mutated_and_truncated_samples_never_make_a_reader_panic(
        which in 0..SAMPLES.len(),
        mutations in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..16),
        keep in any::<prop::sample::Index>(),
    ) {
        let mut bytes = sample(SAMPLES[which]);
        for (index, value) in mutations {
            let i = index.index(bytes.len());
            bytes[i] = value;
        }
        let keep = keep.index(bytes.len() + 1);
        bytes.truncate(keep);
        check_summary_and_preview(design::read(&bytes, Some(SAMPLES[which])));
        for format in FORMATS {
            check_summary_and_preview(format.read(&bytes));
        }
    }
}

/// A shop sets a machine up with threads, not colour blocks: a design that comes back to black
/// four times needs one black spool (docs/behaviour.md, "Pricing").
#[test]
fn repeated_threads_are_one_thread_each_with_its_blocks_and_palette_name() {
    let summary = read_sample("programstitch-v5.pes").summary();

    assert_eq!(summary.colours, 8);
    let threads: Vec<(String, Option<&str>, &[u32])> = summary
        .threads
        .iter()
        .map(|thread| {
            (thread.colour.to_hex().to_lowercase(), thread.name.as_deref(), thread.blocks.as_slice())
        })
        .collect();
    assert_eq!(
        threads,
        [
            ("#000000".to_owned(), Some("Black"), [1, 3, 6, 8].as_slice()),
            ("#f0f0f0".to_owned(), Some("White"), [2, 4, 7].as_slice()),
            ("#ed171f".to_owned(), Some("Red"), [5].as_slice()),
        ]
    );
    assert_eq!(summary.threads_needed, 3);
    // The sequence stays: one colour a block.
    assert_eq!(summary.thread_colours.len(), 8);
}

#[test]
fn a_format_without_colours_needs_a_thread_a_block() {
    for name in ["star.dst", "star.jef", "embroidermodder.exp"] {
        let summary = read_sample(name).summary();
        assert!(summary.threads.is_empty(), "{name}");
        assert_eq!(summary.threads_needed, summary.colours, "{name}");
    }
}

/// bean.vp3 lists its one thread's description as "#ff0000": a colour code is no name (the app
/// then names the closest thread of the team's line).
#[test]
fn a_vp3_thread_named_by_its_hex_code_has_no_name() {
    let summary = read_sample("bean.vp3").summary();

    assert_eq!(summary.threads.len(), 1);
    assert_eq!(summary.threads[0].name, None);
    assert_eq!(summary.threads_needed, 1);
}

// Caps on blocks and threads, and the time a crafted file takes.

#[test]
fn designs_at_the_block_and_thread_caps_read_and_one_past_them_are_refused() {
    let blocks = u16::try_from(MAX_BLOCKS).unwrap();
    let summary = design::read(&crafted::vp3(blocks, MAX_THREADS, 1), None).unwrap().summary();
    assert_eq!((summary.colours as usize, summary.threads.len()), (MAX_BLOCKS, MAX_THREADS));
    // Each thread sews every 256th block.
    assert_eq!(summary.threads[0].blocks[..3], [1, 257, 513]);
    assert!(summary.threads[0].name.as_deref().is_some_and(|name| name.ends_with("D0")));
    assert_eq!(summary.threads_needed as usize, MAX_THREADS);
    assert_eq!(design::read(&crafted::vp3(blocks + 1, 1, 1), None).unwrap_err(), DesignError::TooManyBlocks);
    let threads = u16::try_from(MAX_THREADS + 1).unwrap();
    assert_eq!(
        design::read(&crafted::vp3(threads, MAX_THREADS + 1, 1), None).unwrap_err(),
        DesignError::TooManyThreads
    );

    let summary = design::read(&crafted::pes(MAX_BLOCKS, 1), None).unwrap().summary();
    // The PEC list names 255 blocks' threads, 64 distinct; the blocks after have none stored.
    assert_eq!(
        (summary.colours as usize, summary.thread_colours.len(), summary.threads.len()),
        (MAX_BLOCKS, 255, 64)
    );
    assert_eq!(summary.threads_needed as usize, 64 + MAX_BLOCKS - 255);
    assert_eq!(design::read(&crafted::pes(MAX_BLOCKS + 1, 1), None).unwrap_err(), DesignError::TooManyBlocks);

    // Formats without stored threads count blocks from their colour changes (EXP: 0x80 0x01).
    let exp = |blocks: usize| {
        let mut bytes = vec![10, 0];
        for _ in 1..blocks {
            bytes.extend_from_slice(&[0x80, 0x01, 0, 0, 10, 0]);
        }
        bytes
    };
    assert_eq!(design::read(&exp(MAX_BLOCKS), Some("a.exp")).unwrap().summary().colours as usize, MAX_BLOCKS);
    assert_eq!(design::read(&exp(MAX_BLOCKS + 1), Some("a.exp")).unwrap_err(), DesignError::TooManyBlocks);
}

#[test]
fn the_caps_are_named_in_plain_words() {
    assert_eq!((MAX_BLOCKS, MAX_THREADS), (1_000, 256), "the messages below name these figures");
    assert_eq!(
        DesignError::TooManyBlocks.to_string(),
        "This design has more than 1,000 colour blocks; designs with that many colour changes are refused."
    );
    assert_eq!(
        DesignError::TooManyThreads.to_string(),
        "This design uses more than 256 different threads; designs with that many are refused."
    );
}

/// What the app does with a dropped file (crates/wasm's `readDesign`): read it, summarise it,
/// preview it (at the app's 6,000 points) and write both out, or say why it is refused.
fn read_as_the_app_does(bytes: &[u8]) -> usize {
    match design::read(bytes, None) {
        Ok(design) => {
            serde_json::to_vec(&(design.summary(), design.preview(6000))).map_or(0, |json| json.len())
        }
        Err(error) => error.to_string().len(),
    }
}

/// The seconds one read takes: the reads of a sample run for at least 20 ms, so the clock's
/// resolution and one interruption weigh little.
fn seconds_a_read(bytes: &[u8]) -> f64 {
    let start = Instant::now();
    let mut reads = 0_u32;
    while start.elapsed() < Duration::from_millis(20) {
        std::hint::black_box(read_as_the_app_does(std::hint::black_box(bytes)));
        reads += 1;
    }
    start.elapsed().as_secs_f64() / f64::from(reads)
}

fn median(mut seconds: Vec<f64>) -> f64 {
    seconds.sort_by(f64::total_cmp);
    seconds[seconds.len() / 2]
}

/// How many times longer reading `crafted` takes than reading `plain`: samples of the two taken in
/// turn, five of each, so a busy moment of a shared machine slows both; the medians compared.
fn time_ratio(crafted: &[u8], plain: &[u8]) -> f64 {
    let (mut crafted_times, mut plain_times) = (Vec::new(), Vec::new());
    for _ in 0..5 {
        crafted_times.push(seconds_a_read(crafted));
        plain_times.push(seconds_a_read(plain));
    }
    median(crafted_times) / median(plain_times)
}

/// A crafted file of many blocks and long, repeated thread names costs no more than five times a
/// plain design of the same format with as many stitches as its bytes would hold (2 bytes a
/// stitch in VP3 and PES): the readers and the summary are linear in the file's size. A crafted
/// file is almost all block headers and names, with few or no stitches, so "as many stitches"
/// counts the plain stitches its bytes would hold. A VP3 of 65,535 one-stitch blocks whose thread
/// names differ only at their ends (as the file of issue 48) took hundreds of times as long as
/// plain stitches before threads were merged by hashing and blocks capped; now it is refused at
/// once.
#[test]
fn crafted_files_take_no_more_than_five_times_as_long_as_plain_stitches_of_their_size() {
    const BOUND: f64 = 5.0;
    let blocks = u16::try_from(MAX_BLOCKS).unwrap();
    let cases = [
        ("VP3 at the caps, 1 stitch a block", crafted::vp3(blocks, MAX_THREADS, 1)),
        ("VP3 at the caps, 20 stitches a block", crafted::vp3(blocks, MAX_THREADS, 20)),
        ("VP3, a new name a block (refused)", crafted::vp3(blocks, MAX_BLOCKS, 1)),
        ("VP3 of issue 48 (refused)", crafted::vp3(u16::MAX, usize::from(u16::MAX), 1)),
        ("PES at the block cap", crafted::pes(MAX_BLOCKS, 1)),
        ("PES of 65,535 blocks (refused)", crafted::pes(usize::from(u16::MAX), 1)),
    ];
    for (name, crafted) in cases {
        let stitches = (crafted.len() / 2).min(MAX_RECORDS);
        // The same format, one block, no thread name.
        let plain =
            if name.starts_with("VP3") { crafted::vp3(1, 0, stitches) } else { crafted::pes(1, stitches) };
        assert_eq!(design::read(&plain, None).unwrap().summary().stitches as usize, stitches, "{name}");
        let ratio = time_ratio(&crafted, &plain);
        // Seen with --nocapture.
        println!("{name}: {ratio:.2} times as long as {stitches} plain stitches");
        assert!(
            ratio < BOUND,
            "{name}: {ratio:.1} times as long as plain stitches of its size ({} bytes)",
            crafted.len()
        );
    }
}
