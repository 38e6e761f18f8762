//! The built-in catalogue made from `data/threads/`, and conversions over it.

use bobbin_core::catalogue::{Catalogue, CatalogueError, Doubt, IssueKind, LineKind};
use bobbin_core::colour::{Lab, Rgb8, delta_e_2000, delta_e_2000_textile};
use bobbin_core::convert::{
    BulkRequest, ConvertError, ConvertRequest, MatchLabel, NEUTRAL_FIRST, Source, ThreadRef, nearest,
};

fn catalogue() -> &'static Catalogue {
    Catalogue::builtin()
}

fn thread(line: &str, code: &str) -> Source {
    Source::Thread(ThreadRef { line: line.into(), code: code.into() })
}

fn request(from: Source, to: &[&str], matches: usize) -> ConvertRequest {
    ConvertRequest { from, to: to.iter().map(|s| (*s).to_owned()).collect(), matches, candidates: None }
}

#[test]
fn every_line_of_the_data_is_there_with_every_row_accounted_for() {
    let lines = catalogue().summaries();
    // 75 Ink/Stitch palettes and Pantone; see data/threads/lines.toml.
    assert_eq!(lines.len(), 76);
    assert_eq!(lines.iter().filter(|l| l.kind == LineKind::Reference).count(), 2, "RAL and Pantone");
    // 21,904 rows in the data files: each is a thread, or a repeat folded into one (a duplicate,
    // or a conflict row repeating a colour already listed for its code).
    let c = catalogue();
    let folded: usize = c
        .line_indices()
        .flat_map(|line| c.line(line).issues.iter().map(move |issue| (line, issue)))
        .map(|(line, issue)| issue.rows.len() - c.find(line, issue.code).unwrap().len())
        .sum();
    let threads: usize = lines.iter().map(|l| l.thread_count).sum();
    assert_eq!(threads + folded, 21_904, "{threads} threads + {folded} folded rows");
    let isacord = lines.iter().find(|l| l.id == "isacord-polyester").unwrap();
    assert_eq!(
        (isacord.display_name.as_str(), isacord.thread_count, isacord.weight),
        ("Isacord Polyester", 398, Some(40))
    );
}

#[test]
fn repeated_codes_in_the_charts_are_recorded() {
    let c = catalogue();
    let royal = c.line(c.line_by_id("royal-polyester").unwrap());
    let repeated_rows: usize = royal.issues.iter().map(|issue| issue.rows.len() - 1).sum();
    assert_eq!(repeated_rows, 61, "the README counts 61 repeats in Royal Polyester");
    // DMC lists 0000 twice, as White and as Ecru: a conflict, both colours kept.
    let dmc = c.line_by_id("dmc").unwrap();
    let zero = c.find(dmc, "0").unwrap();
    assert_eq!(zero.iter().map(|&i| c.thread(i).name).collect::<Vec<_>>(), ["White", "Ecru"]);
    assert!(c.line(dmc).issues.iter().any(|i| i.code == "0000" && i.kind == IssueKind::Conflict));
}

#[test]
fn codes_are_found_without_leading_zeros_or_case() {
    let c = catalogue();
    let isacord = c.line_by_id("isacord-polyester").unwrap();
    let white = c.thread(c.find(isacord, "15").unwrap()[0]);
    assert_eq!((white.code, white.name, white.rgb), ("0015", "White", Rgb8::new(255, 255, 255)));
    let royal = c.line_by_id("royal-polyester").unwrap();
    assert_eq!(c.thread(c.find(royal, "p046").unwrap()[0]).code, "P046");
    assert!(matches!(c.find(isacord, "99999"), Err(CatalogueError::UnknownCode { .. })));
}

/// A chromatic colour converts by CIEDE2000 alone (blacks, whites and greys have a rule of their
/// own, tested below).
#[test]
fn a_thread_converts_to_the_nearest_threads_of_each_target_line_best_first() {
    let conversion = catalogue()
        .convert(&request(thread("isacord-polyester", "1902"), &["madeira-polyneon", "sulky-rayon"], 3))
        .unwrap();
    assert_eq!(conversion.source.hex, Rgb8::new(0xCC, 0, 0));
    assert_eq!(conversion.lines.len(), 2);
    for line in &conversion.lines {
        assert_eq!(line.matches.len(), 3);
        let distances: Vec<f64> = line.matches.iter().map(|m| m.delta_e).collect();
        assert!(distances.windows(2).all(|w| w[0] <= w[1]), "{distances:?}");
        for m in &line.matches {
            let expected = delta_e_2000(conversion.source.lab, m.thread.hex.to_lab());
            assert!((m.delta_e - expected).abs() < 1e-9);
            assert_eq!(m.label, MatchLabel::of(m.delta_e));
        }
    }
    // Brute force agrees on the best Polyneon match.
    let c = catalogue();
    let polyneon = c.line_by_id("madeira-polyneon").unwrap();
    let best = c
        .threads_of(polyneon)
        .map(|(_, t)| delta_e_2000(conversion.source.lab, t.lab))
        .fold(f64::INFINITY, f64::min);
    assert!((conversion.lines[0].matches[0].delta_e - best).abs() < 1e-12);
}

#[test]
fn a_thread_is_not_its_own_match_and_empty_targets_mean_every_thread_line() {
    let conversion = catalogue().convert(&request(thread("isacord-polyester", "1902"), &[], 1)).unwrap();
    let thread_lines = catalogue().lines().iter().filter(|l| l.kind == LineKind::Thread).count();
    assert_eq!(conversion.lines.len(), thread_lines);
    let own = conversion.lines.iter().find(|l| l.line == "isacord-polyester").unwrap();
    assert_ne!(own.matches[0].thread.code, "1902");
}

#[test]
fn hex_rgb_and_lab_sources_resolve_to_the_same_colour() {
    let c = catalogue();
    let hex = c.convert(&request(Source::Hex("#c8102e".into()), &["isacord-polyester"], 1)).unwrap();
    let rgb = c.convert(&request(Source::Rgb([0xc8, 0x10, 0x2e]), &["isacord-polyester"], 1)).unwrap();
    assert_eq!(hex.lines, rgb.lines);
    let lab = c.convert(&request(Source::Lab(hex.source.lab), &["isacord-polyester"], 1)).unwrap();
    assert_eq!(lab.lines[0].matches[0].thread, hex.lines[0].matches[0].thread);
    let vivid = c.convert(&request(Source::Lab(Lab { l: 60.0, a: -120.0, b: 100.0 }), &[], 1));
    assert!(vivid.unwrap().source.out_of_gamut);
}

#[test]
fn candidates_restrict_matches_to_the_threads_given() {
    let owned = ["0020", "1902", "0015"]
        .map(|code| ThreadRef { line: "isacord-polyester".into(), code: code.into() });
    let mut req = request(Source::Hex("#B01020".into()), &["isacord-polyester", "madeira-polyneon"], 5);
    req.candidates = Some(owned.to_vec());
    let conversion = catalogue().convert(&req).unwrap();
    let isacord: Vec<&str> = conversion.lines[0].matches.iter().map(|m| m.thread.code).collect();
    assert_eq!(isacord, ["1902", "0020", "0015"], "only the owned threads, nearest first");
    assert!(conversion.lines[1].matches.is_empty(), "no Polyneon thread is owned");
}

#[test]
fn bad_requests_are_errors_with_stable_codes() {
    let c = catalogue();
    let cases = [
        (request(thread("nope", "1"), &[], 1), "unknown_line"),
        (request(thread("isacord-polyester", "99999"), &[], 1), "unknown_thread"),
        (request(Source::Hex("#12".into()), &[], 1), "invalid_colour"),
        (request(Source::Hex("#123456".into()), &["nope"], 1), "unknown_line"),
        (request(Source::Hex("#123456".into()), &[], 0), "invalid_match_count"),
        (request(Source::Hex("#123456".into()), &[], 21), "invalid_match_count"),
    ];
    for (req, code) in cases {
        assert_eq!(c.convert(&req).unwrap_err().code(), code, "{req:?}");
    }
    let mut too_many = request(Source::Hex("#123456".into()), &[], 1);
    too_many.candidates = Some(vec![ThreadRef { line: "dmc".into(), code: "310".into() }; 20_001]);
    assert_eq!(c.convert(&too_many).unwrap_err(), ConvertError::TooManyCandidates);
}

/// docs/behaviour.md, "Blacks, whites and greys": a black converts first to the target line's
/// black, not to a dark colour whose chart value happens to be nearer.
#[test]
fn madeira_black_converts_to_the_black_of_sulky_and_of_isacord() {
    for (to, passed_over) in [("sulky-rayon", "1162 Deep Teal"), ("isacord-polyester", "1776 Blackberry")] {
        let conversion = catalogue().convert(&request(thread("madeira-polyneon", "1800"), &[to], 5)).unwrap();
        let best = &conversion.lines[0].matches[0].thread;
        let black = if to == "sulky-rayon" { "1005" } else { "0020" };
        assert_eq!(
            (best.code, best.name),
            (black, "Black"),
            "Madeira Polyneon 1800 Black to {to}: {} {} ahead of {black} Black (today's {passed_over})",
            best.code,
            best.name
        );
        // A pasted list follows the same rule.
        let bulk = catalogue()
            .convert_bulk(&BulkRequest {
                from: Some("madeira-polyneon".into()),
                to: to.into(),
                input: "1800".into(),
                alternatives: 0,
            })
            .unwrap();
        assert_eq!(bulk.rows[0].matches[0].thread.code, black, "a list converted to {to}");
    }
}

/// docs/behaviour.md: between two near-neutral colours a lightness difference counts half, so a
/// white charted a little darker is not called a poor match for a white.
#[test]
fn isacord_white_converts_to_a_polyneon_white_that_is_not_a_poor_match() {
    let conversion =
        catalogue().convert(&request(thread("isacord-polyester", "0015"), &["madeira-polyneon"], 5)).unwrap();
    let best = &conversion.lines[0].matches[0];
    assert_eq!((best.thread.code, best.thread.name), ("1804", "Blanc de Blanc"));
    assert_ne!(best.label, MatchLabel::Poor, "ΔE {:.2}", best.delta_e);
}

/// docs/behaviour.md, "Blacks, whites and greys": "A colour is near-neutral when its CIELAB chroma
/// C*ab is under 12" and, between two near-neutral colours, the distance is CIEDE2000 with kL = 2;
/// "converting from a near-neutral colour, a chromatic thread never comes before the target line's
/// nearest near-neutral unless that one is more than 5 further". Checked from every thread whose
/// name says black or white (and whose chart colour is near-neutral) to every line.
#[test]
fn from_a_black_or_white_a_chromatic_thread_comes_first_only_when_every_near_neutral_is_much_further() {
    const NEAR_NEUTRAL_BELOW: f64 = 12.0;
    const MUCH_FURTHER: f64 = 5.0;
    let near_neutral = |lab: Lab| lab.chroma() < NEAR_NEUTRAL_BELOW;
    let distance = |x: Lab, y: Lab| {
        if near_neutral(x) && near_neutral(y) { delta_e_2000_textile(x, y) } else { delta_e_2000(x, y) }
    };
    let c = catalogue();
    let every_line: Vec<&str> = c.lines().iter().map(|line| line.id).collect();
    let (mut sources, mut pairs) = (0, 0);
    for (index, source) in c.threads() {
        let name = source.name.to_lowercase();
        if !(name.contains("black") || name.contains("white")) || !near_neutral(source.lab) {
            continue;
        }
        // A code listed with several colours converts from its first.
        if c.find(source.line, source.code).unwrap()[0] != index {
            continue;
        }
        sources += 1;
        let from = thread(c.line(source.line).id, source.code);
        let conversion = c.convert(&request(from, &every_line, 5)).unwrap();
        for line in &conversion.lines {
            let target = c.line_by_id(line.line).unwrap();
            let Some(nearest_neutral) = c
                .threads_of(target)
                .filter(|&(other, thread)| other != index && near_neutral(thread.lab))
                .map(|(_, thread)| distance(source.lab, thread.lab))
                .min_by(f64::total_cmp)
            else {
                continue;
            };
            pairs += 1;
            let what = format!("{} {} {} to {}", c.line(source.line).id, source.code, source.name, line.line);
            for (rank, m) in line.matches.iter().enumerate() {
                let lab = m.thread.hex.to_lab();
                assert!(
                    (m.delta_e - distance(source.lab, lab)).abs() < 1e-9,
                    "{what}: {} ΔE {}",
                    m.thread.code,
                    m.delta_e
                );
                let neutral_listed_before = line.matches[..rank]
                    .iter()
                    .any(|e| near_neutral(e.thread.hex.to_lab()) && e.delta_e <= nearest_neutral + 1e-9);
                if !near_neutral(lab) && !neutral_listed_before {
                    assert!(
                        nearest_neutral - m.delta_e > MUCH_FURTHER,
                        "{what}: {} {} (ΔE {:.2}, chromatic) is ranked {} though a near-neutral is {:.2} away",
                        m.thread.code,
                        m.thread.name,
                        m.delta_e,
                        rank + 1,
                        nearest_neutral
                    );
                }
            }
        }
    }
    assert!(sources > 400 && pairs > 30_000, "{sources} threads, {pairs} pairs of thread and line");
}

/// The thread README measured Madeira Polyneon -> Isacord on this data: median ΔE00 4.1, 10%
/// within 2.0 and 69% within 5.0. The converter must reproduce the measurement.
#[test]
fn polyneon_to_isacord_matches_the_measured_distribution() {
    let c = catalogue();
    let (polyneon, isacord) =
        (c.line_by_id("madeira-polyneon").unwrap(), c.line_by_id("isacord-polyester").unwrap());
    let mut best: Vec<f64> = c
        .threads_of(polyneon)
        .map(|(_, t)| nearest(t.lab, c.threads_of(isacord).map(|(i, u)| (i, u.lab)), 1)[0].1)
        .collect();
    best.sort_by(f64::total_cmp);
    let median = best[best.len() / 2];
    let within = |limit: f64| best.iter().filter(|&&d| d <= limit).count();
    // Shares in whole percent, compared with the README's.
    let share = |limit: f64| within(limit) * 100 / best.len();
    assert!((median - 4.1).abs() < 0.15, "median {median}");
    assert!((9..=11).contains(&share(2.0)), "within 2: {}%", share(2.0));
    assert!((68..=70).contains(&share(5.0)), "within 5: {}%", share(5.0));
}

#[test]
fn a_pasted_list_of_codes_and_colours_converts_row_by_row() {
    let input = "0015\n\n#C8102E\n  1902 \nnot-a-code\n";
    let bulk = catalogue()
        .convert_bulk(&BulkRequest {
            from: Some("isacord-polyester".into()),
            to: "madeira-polyneon".into(),
            input: input.into(),
            alternatives: 2,
        })
        .unwrap();
    assert_eq!(bulk.rows.iter().map(|r| r.row).collect::<Vec<_>>(), [1, 3, 4, 5], "blank lines skipped");
    assert_eq!(bulk.rows[0].source.as_ref().unwrap().thread.as_ref().unwrap().code, "0015");
    assert_eq!(bulk.rows[0].matches.len(), 3, "best and two alternatives");
    assert!(bulk.rows[1].source.as_ref().unwrap().thread.is_none(), "a colour");
    assert_eq!(bulk.rows[2].input, "1902");
    assert_eq!(
        bulk.rows[3].error.as_deref(),
        Some("Isacord Polyester has no thread with the code 'not-a-code'")
    );
    assert!(bulk.rows[3].matches.is_empty());
}

#[test]
fn spreadsheet_pastes_with_headers_semicolons_and_quotes_are_read() {
    let input = "\u{feff}Name;Code;Qty\n\"White; bright\";0015;3\nBlack;20;1\n";
    let bulk = catalogue()
        .convert_bulk(&BulkRequest {
            from: Some("isacord-polyester".into()),
            to: "sulky-rayon".into(),
            input: input.into(),
            alternatives: 0,
        })
        .unwrap();
    let inputs: Vec<&str> = bulk.rows.iter().map(|r| r.input.as_str()).collect();
    assert_eq!(inputs, ["0015", "20"], "the Code column, header row skipped");
    assert!(bulk.rows.iter().all(|r| r.error.is_none() && r.matches.len() == 1));
    assert_eq!(bulk.rows[0].row, 2);
}

#[test]
fn codes_without_a_source_line_are_explained_and_limits_hold() {
    let c = catalogue();
    let bulk = c
        .convert_bulk(&BulkRequest {
            from: None,
            to: "dmc".into(),
            input: "0015\n1A2B3C".into(),
            alternatives: 1,
        })
        .unwrap();
    assert!(bulk.rows[0].error.as_deref().unwrap().contains("choose the line they are from"));
    assert_eq!(bulk.rows[1].source.as_ref().unwrap().hex, Rgb8::new(0x1a, 0x2b, 0x3c));
    let too_many = "#000000\n".repeat(2_001);
    let error =
        c.convert_bulk(&BulkRequest { from: None, to: "dmc".into(), input: too_many, alternatives: 0 });
    assert_eq!(error.unwrap_err(), ConvertError::TooManyRows);
}

#[test]
fn the_bulk_csv_has_a_row_per_input_and_defuses_formulas() {
    let bulk = catalogue()
        .convert_bulk(&BulkRequest {
            from: Some("isacord-polyester".into()),
            to: "madeira-polyneon".into(),
            input: "0015\n=cmd|calc\n".into(),
            alternatives: 1,
        })
        .unwrap();
    let csv = bulk.to_csv();
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let headers = reader.headers().unwrap().clone();
    assert_eq!(&headers[0], "row");
    assert_eq!(&headers[10], "delta_e");
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(&rows[0][3], "0015");
    assert_eq!(&rows[0][7], bulk.rows[0].matches[0].thread.code);
    assert_eq!(rows[0][10], format!("{:.2}", bulk.rows[0].matches[0].delta_e));
    assert_eq!(&rows[1][1], "'=cmd|calc", "a formula is quoted, not run");
    assert!(!rows[1][13].is_empty(), "the error is in the last column");
}

// Issue 52: "Where chart sources disagree on a code's colour, or a name contradicts its chart
// colour (Gunold 61449 'Dark Kelly Green' charted near-black; Robison-Anton 5703 'Oyster' charted
// pure white), the thread is marked as uncertain, and its label is never stronger than 'similar'."
#[test]
fn a_thread_whose_chart_is_in_doubt_is_marked_and_never_matched_better_than_similar() {
    let c = catalogue();
    let view = |line: &str, code: &str| {
        let line = c.line_by_id(line).unwrap();
        c.view(c.find(line, code).unwrap()[0])
    };
    assert_eq!(view("gunold-polyester", "61449").doubt, Some(Doubt::NameDisagrees));
    assert_eq!(view("robison-anton-polyester", "5703").doubt, Some(Doubt::Placeholder));
    assert_eq!(view("madeira-polyneon", "1800").doubt, None, "a black charted black");
    assert_eq!(view("isacord-polyester", "1902").doubt, None);

    // From the doubtful thread, even a match at its very colour is only `similar`.
    for (line, code) in [("gunold-polyester", "61449"), ("robison-anton-polyester", "5703")] {
        let conversion =
            c.convert(&request(thread(line, code), &["madeira-polyneon", "isacord-polyester"], 5)).unwrap();
        for matched in conversion.lines.iter().flat_map(|line| &line.matches) {
            assert!(
                matched.label >= MatchLabel::Similar,
                "{line} {code} to {:?}: {:?}",
                matched.thread.code,
                matched.label
            );
        }
    }
    // To it, as well: the pure white of a chart is not taken for a perfect match.
    let white = c.convert(&request(Source::Hex("#FFFFFF".into()), &["robison-anton-polyester"], 20)).unwrap();
    let oyster =
        white.lines[0].matches.iter().find(|m| m.thread.code == "5703").expect("Oyster among the 20 nearest");
    assert_eq!((oyster.delta_e, oyster.label), (0.0, MatchLabel::Similar));
}

// Issue 52: "The ranking never puts a 'poor' match above a 'similar' one without saying why on
// the screen."
#[test]
fn a_match_ranked_above_a_nearer_one_says_why() {
    for line in catalogue().summaries().iter().filter(|line| line.kind == LineKind::Thread).take(12) {
        for code in ["1800", "1000", "1001", "0020", "0015", "1005"] {
            let Ok(conversion) =
                catalogue().convert(&request(thread("madeira-polyneon", code), &[line.id], 5))
            else {
                continue;
            };
            let matches = &conversion.lines[0].matches;
            for (at, matched) in matches.iter().enumerate() {
                let nearer_better = matches[at + 1..]
                    .iter()
                    .any(|later| MatchLabel::of(later.delta_e) < MatchLabel::of(matched.delta_e));
                assert_eq!(
                    matched.note.is_some(),
                    nearer_better,
                    "{code} to {}: {:?}",
                    line.id,
                    matched.thread.code
                );
            }
        }
    }
    // Madeira Polyneon 1800 Black to Sulky Rayon: its black first, though a dark teal is nearer.
    let conversion =
        catalogue().convert(&request(thread("madeira-polyneon", "1800"), &["sulky-rayon"], 5)).unwrap();
    let first = &conversion.lines[0].matches[0];
    if conversion.lines[0].matches[1..]
        .iter()
        .any(|m| MatchLabel::of(m.delta_e) < MatchLabel::of(first.delta_e))
    {
        assert_eq!(first.note, Some(NEUTRAL_FIRST));
    }
}

// Issue 52: "The data report lists every flagged thread."
#[test]
fn the_data_report_lists_every_thread_in_doubt_and_is_current() {
    let report = catalogue().doubt_report();
    for (line, code) in [("Gunold Polyester", "61449"), ("Robison-Anton Polyester", "5703")] {
        assert!(report.contains(&format!("| {code} |")), "{line} {code}");
    }
    let listed = report.lines().filter(|row| row.starts_with("| ") && !row.starts_with("| Code")).count();
    let doubtful = catalogue()
        .summaries()
        .iter()
        .flat_map(|line| catalogue().detail(catalogue().line_by_id(line.id).unwrap()).threads)
        .filter(|thread| thread.doubt.is_some())
        .count();
    assert_eq!(listed, doubtful);
    let checked_in =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/catalogue-report.md"))
            .unwrap_or_default();
    assert!(
        checked_in == report,
        "docs/catalogue-report.md is not current: run `cargo run -p bobbin-core --example catalogue-report > docs/catalogue-report.md`"
    );
}
