//! The thread catalogue: every brand line in `crates/core/data/threads/`, with each thread's code,
//! name and colour, embedded at build time (see `build.rs` and [`blob`]).
//!
//! Charts list some codes more than once. Rows with the same code and the same colour are
//! *duplicates*: the first one is the thread and the others are recorded in [`Line::issues`].
//! Rows with the same code and different colours are *conflicts*: the sources disagree, so every
//! colour is kept as a variant of the thread (each marked [`Thread::conflict`]) and recorded too.

pub mod blob;
mod code;
mod meta;
#[cfg(test)]
mod source;
mod view;

use std::collections::HashMap;
use std::ops::Range;

use serde::Serialize;

pub use self::code::{MAX_CODE_LEN, code_key};
pub use self::meta::{Fibre, LineKind};
pub use self::view::{Doubt, LineDetail, LineSummary, ThreadView};
use crate::colour::{Lab, Rgb8};

/// Why a line or thread asked for by a person or a client does not exist.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CatalogueError {
    #[error("there is no thread line '{0}'")]
    UnknownLine(String),
    #[error("{line} has no thread with the code '{code}'")]
    UnknownCode { line: String, code: String },
    #[error("a thread code must be 1 to {MAX_CODE_LEN} characters")]
    InvalidCode,
}

/// Index of a line in [`Catalogue::lines`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LineIndex(u16);

/// Index of a thread in [`Catalogue::threads`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct ThreadIndex(u32);

/// A brand line such as Isacord Polyester or Madeira Polyneon.
#[derive(Debug, Clone)]
pub struct Line {
    /// Stable slug used in URLs and the API, e.g. `madeira-polyneon`.
    pub id: &'static str,
    pub brand: &'static str,
    pub name: &'static str,
    pub fibre: Option<Fibre>,
    /// Thread weight (40 is the usual embroidery weight), where known.
    pub weight: Option<u16>,
    pub kind: LineKind,
    /// Where the colour values came from, in words the app shows.
    pub source: &'static str,
    /// The line's threads, in the order of its chart.
    threads: Range<u32>,
    pub issues: Vec<CodeIssue>,
}

impl Line {
    /// "Madeira Polyneon".
    pub fn display_name(&self) -> String {
        format!("{} {}", self.brand, self.name)
    }

    pub fn thread_count(&self) -> usize {
        self.threads.len()
    }
}

/// A code listed more than once in a line's chart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CodeIssue {
    pub code: &'static str,
    pub kind: IssueKind,
    /// The line numbers in the line's data file where the code appears.
    pub rows: Vec<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum IssueKind {
    /// The same code with the same colour: kept once.
    Duplicate,
    /// The same code with different colours: every colour kept, as variants.
    Conflict,
}

/// One thread colour of one line.
#[derive(Debug, Clone)]
pub struct Thread {
    pub line: LineIndex,
    /// As the maker prints it, e.g. "0015".
    pub code: &'static str,
    /// The comparison key of the code, see [`code_key`].
    pub key: String,
    /// May be empty: some charts (Pantone here) give no names.
    pub name: &'static str,
    pub rgb: Rgb8,
    pub lab: Lab,
    /// Whether the chart gives this code more than one colour.
    pub conflict: bool,
}

/// All lines and threads. [`Catalogue::builtin`] is the one the app uses.
#[derive(Debug)]
pub struct Catalogue {
    lines: Vec<Line>,
    threads: Vec<Thread>,
    by_id: HashMap<&'static str, LineIndex>,
    /// Thread indices, each line's range sorted by code key, so [`Catalogue::find`] is a binary
    /// search (an inventory search looks up thousands of codes at once).
    by_key: Vec<u32>,
    /// Every thread's colour again, each line's range sorted by lightness (then index), so the
    /// converter looks only at the threads near a colour's lightness (`convert::search`).
    by_lightness: Vec<Probe>,
}

/// A thread's colour as the converter's search reads it: its CIELAB values, its chroma C*ab and
/// hue angle `h_ab` in degrees, 0 to 360 (computed once here rather than for every comparison), and
/// its index.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Probe {
    pub(crate) lab: Lab,
    pub(crate) chroma: f64,
    pub(crate) hue: f64,
    pub(crate) index: ThreadIndex,
}

impl Probe {
    pub(crate) fn new(lab: Lab, index: ThreadIndex) -> Self {
        Self { lab, chroma: lab.chroma(), hue: lab.hue(), index }
    }
}

/// The compact catalogue the build made from `data/threads/`. The server embeds it; the browser
/// fetches it as a file of its own only when a page needs it, so the WebAssembly module every page
/// loads stays small (`crates/wasm` leaves this feature out and is handed the bytes).
#[cfg(feature = "embedded-catalogue")]
pub static EMBEDDED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/threads.bin"));

impl Catalogue {
    /// The embedded catalogue, decoded on first use (docs/benchmarks.md, "Converter", times it).
    #[cfg(feature = "embedded-catalogue")]
    pub fn builtin() -> &'static Catalogue {
        static BUILTIN: std::sync::OnceLock<Catalogue> = std::sync::OnceLock::new();
        BUILTIN.get_or_init(|| Catalogue::decode(EMBEDDED).expect("the build wrote a valid catalogue"))
    }

    /// Reads the compact form written by the build.
    pub fn decode(bytes: &'static [u8]) -> Result<Catalogue, blob::DecodeError> {
        let records = blob::decode(bytes)?;
        let mut lines = Vec::with_capacity(records.len());
        let mut threads = Vec::new();
        for (index, record) in records.into_iter().enumerate() {
            let line_index =
                LineIndex(u16::try_from(index).map_err(|_| blob::DecodeError("too many lines"))?);
            let start = u32::try_from(threads.len()).map_err(|_| blob::DecodeError("too many threads"))?;
            let issues = add_threads(line_index, &record.rows, &mut threads);
            let end = u32::try_from(threads.len()).map_err(|_| blob::DecodeError("too many threads"))?;
            lines.push(Line {
                id: record.id,
                brand: record.brand,
                name: record.name,
                fibre: Fibre::parse(record.fibre),
                weight: (record.weight > 0).then_some(record.weight),
                kind: LineKind::parse(record.kind).ok_or(blob::DecodeError("unknown line kind"))?,
                source: record.source,
                threads: start..end,
                issues,
            });
        }
        let mut by_key: Vec<u32> = (0..u32::try_from(threads.len()).unwrap_or(u32::MAX)).collect();
        for line in &lines {
            // Unstable sort (ties are broken by index, so the order is the same): the stable
            // sort's code made the WebAssembly module far larger.
            by_key[line.threads.start as usize..line.threads.end as usize].sort_unstable_by(|&a, &b| {
                threads[a as usize].key.cmp(&threads[b as usize].key).then(a.cmp(&b))
            });
        }
        let mut by_lightness: Vec<Probe> =
            threads.iter().zip(0..).map(|(thread, i)| Probe::new(thread.lab, ThreadIndex(i))).collect();
        for line in &lines {
            by_lightness[line.threads.start as usize..line.threads.end as usize]
                .sort_unstable_by(|a, b| a.lab.l.total_cmp(&b.lab.l).then(a.index.cmp(&b.index)));
        }
        let mut catalogue = Catalogue { lines, threads, by_id: HashMap::new(), by_key, by_lightness };
        catalogue.by_id = catalogue.line_indices().map(|index| (catalogue.line(index).id, index)).collect();
        Ok(catalogue)
    }

    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    pub fn line_indices(&self) -> impl ExactSizeIterator<Item = LineIndex> + use<> {
        (0..self.lines.len()).map(|i| LineIndex(u16::try_from(i).expect("decode checked the line count")))
    }

    pub fn line(&self, index: LineIndex) -> &Line {
        &self.lines[usize::from(index.0)]
    }

    pub fn thread(&self, index: ThreadIndex) -> &Thread {
        &self.threads[index.0 as usize]
    }

    pub fn threads(&self) -> impl Iterator<Item = (ThreadIndex, &Thread)> {
        // `decode` checked that the thread count fits in a u32.
        self.threads.iter().zip(0..).map(|(thread, i)| (ThreadIndex(i), thread))
    }

    /// Finds a line by its id, e.g. `isacord-polyester`.
    pub fn line_by_id(&self, id: &str) -> Result<LineIndex, CatalogueError> {
        self.by_id.get(id).copied().ok_or_else(|| CatalogueError::UnknownLine(truncate(id)))
    }

    /// A line's threads sorted by lightness (L*), then by index.
    pub(crate) fn by_lightness(&self, line: LineIndex) -> &[Probe] {
        let range = self.line(line).threads.clone();
        &self.by_lightness[range.start as usize..range.end as usize]
    }

    /// A line's threads in chart order.
    pub fn threads_of(&self, line: LineIndex) -> impl ExactSizeIterator<Item = (ThreadIndex, &Thread)> {
        let range = self.line(line).threads.clone();
        self.threads[range.start as usize..range.end as usize]
            .iter()
            .zip(range)
            .map(|(thread, i)| (ThreadIndex(i), thread))
    }

    /// Every colour a line lists for a code ("15" finds "0015"); more than one only for a
    /// conflict, and then the first is the chart's first.
    pub fn find(&self, line: LineIndex, code: &str) -> Result<Vec<ThreadIndex>, CatalogueError> {
        let key = code_key(code).filter(|_| code::code_is_valid(code)).ok_or(CatalogueError::InvalidCode)?;
        let range = self.line(line).threads.clone();
        let sorted = &self.by_key[range.start as usize..range.end as usize];
        let first = sorted.partition_point(|&i| self.threads[i as usize].key < key);
        // Equal keys keep chart order (the sort broke ties by index): a conflict's first colour
        // is the chart's first.
        let found: Vec<ThreadIndex> = sorted[first..]
            .iter()
            .take_while(|&&i| self.threads[i as usize].key == key)
            .map(|&i| ThreadIndex(i))
            .collect();
        if found.is_empty() {
            Err(CatalogueError::UnknownCode {
                line: self.line(line).display_name(),
                code: truncate(code.trim()),
            })
        } else {
            Ok(found)
        }
    }

    /// Text search over codes and names, best first: exact code, then code prefix, then names that
    /// start with the words typed, then names that contain them. `lines` limits the search when
    /// not empty. Case and leading zeros do not matter.
    pub fn search(&self, query: &str, lines: &[LineIndex], limit: usize) -> Vec<ThreadIndex> {
        let query = query.trim();
        let Some(key) = code_key(query) else { return Vec::new() };
        let lower = query.to_lowercase();
        let mut hits: Vec<(u8, ThreadIndex)> = self
            .threads()
            .filter(|(_, thread)| lines.is_empty() || lines.contains(&thread.line))
            .filter_map(|(index, thread)| {
                let rank = if thread.key == key {
                    0
                } else if thread.key.starts_with(&key) {
                    1
                } else {
                    let name = thread.name.to_lowercase();
                    if name.starts_with(&lower) {
                        2
                    } else if name.contains(&lower) {
                        3
                    } else {
                        return None;
                    }
                };
                Some((rank, index))
            })
            .collect();
        // Stable: within a rank, catalogue order (line, then chart order).
        hits.sort_by_key(|(rank, _)| *rank);
        hits.into_iter().take(limit).map(|(_, index)| index).collect()
    }
}

/// Adds a line's rows as threads, folding duplicates and keeping conflicting colours as variants.
fn add_threads(
    line: LineIndex,
    rows: &[blob::RowRecord<&'static str>],
    threads: &mut Vec<Thread>,
) -> Vec<CodeIssue> {
    let keys: Vec<String> = rows.iter().map(|row| code_key(row.code).unwrap_or_default()).collect();
    // Rows by code key, keys in order of first appearance.
    let mut groups: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut order = Vec::new();
    for (row, key) in keys.iter().enumerate() {
        groups
            .entry(key)
            .or_insert_with(|| {
                order.push(key.as_str());
                Vec::new()
            })
            .push(row);
    }
    let colour_count = |members: &[usize]| {
        let mut colours: Vec<[u8; 3]> = members.iter().map(|&row| rows[row].rgb).collect();
        colours.sort_unstable();
        colours.dedup();
        colours.len()
    };
    // Row `i` of the data is on file line `i + 2`, after the header.
    let file_line = |row: &usize| u32::try_from(row + 2).unwrap_or(u32::MAX);
    let issues = order
        .iter()
        .map(|key| &groups[key])
        .filter(|members| members.len() > 1)
        .map(|members| CodeIssue {
            code: rows[members[0]].code,
            kind: if colour_count(members) > 1 { IssueKind::Conflict } else { IssueKind::Duplicate },
            rows: members.iter().map(file_line).collect(),
        })
        .collect();
    for (row, record) in rows.iter().enumerate() {
        let members = &groups[keys[row].as_str()];
        // The first row with each colour of a code is the thread; later ones are duplicates.
        if members.iter().find(|&&other| rows[other].rgb == record.rgb) != Some(&row) {
            continue;
        }
        let [r, g, b] = record.rgb;
        let rgb = Rgb8::new(r, g, b);
        threads.push(Thread {
            line,
            code: record.code,
            key: keys[row].clone(),
            name: record.name,
            rgb,
            lab: rgb.to_lab(),
            conflict: colour_count(members) > 1,
        });
    }
    issues
}

/// Echoes at most 40 characters of an unknown identifier back in an error message.
fn truncate(text: &str) -> String {
    text.chars().take(40).collect()
}

#[cfg(test)]
mod tests {
    use super::blob::{LineRecord, RowRecord, encode};
    use super::*;

    fn row(code: &'static str, name: &'static str, rgb: [u8; 3]) -> RowRecord<&'static str> {
        RowRecord { code, name, rgb }
    }

    fn line(
        id: &'static str,
        kind: &'static str,
        rows: Vec<RowRecord<&'static str>>,
    ) -> LineRecord<&'static str> {
        LineRecord {
            id,
            brand: "Brand",
            name: id,
            fibre: "polyester",
            weight: 40,
            kind,
            source: "test",
            rows,
        }
    }

    /// A catalogue built from records, as `build.rs` would write it.
    fn catalogue(lines: &[LineRecord<&'static str>]) -> Catalogue {
        Catalogue::decode(Box::leak(encode(lines).into_boxed_slice())).expect("decodes")
    }

    #[test]
    fn codes_compare_without_case_or_leading_zeros() {
        assert_eq!(code_key(" 0015 ").as_deref(), Some("15"));
        assert_eq!(code_key("p046").as_deref(), Some("P046"));
        assert_eq!(code_key("0000").as_deref(), Some("0"));
        assert_eq!(code_key("  "), None);
    }

    #[test]
    fn the_compact_form_round_trips_and_rejects_damage() {
        let lines = [line("a", "thread", vec![row("0015", "White", [255, 255, 255])])];
        let bytes = encode(&lines);
        assert_eq!(blob::decode(&bytes).unwrap(), lines);
        assert!(blob::decode(&bytes[..bytes.len() - 1]).is_err(), "truncated");
        assert!(blob::decode(b"NOTACATALOGUE").is_err(), "wrong magic");
        let mut extra = bytes.clone();
        extra.push(0);
        assert!(blob::decode(&extra).is_err(), "trailing bytes");
    }

    #[test]
    fn repeated_codes_with_one_colour_are_kept_once_and_recorded_as_duplicates() {
        let c = catalogue(&[line(
            "a",
            "thread",
            vec![
                row("0015", "White", [255, 255, 255]),
                row("20", "Black", [0, 0, 0]),
                row("15", "White", [255, 255, 255]),
            ],
        )]);
        let a = c.line_by_id("a").unwrap();
        assert_eq!(c.line(a).thread_count(), 2);
        assert_eq!(
            c.line(a).issues,
            [CodeIssue { code: "0015", kind: IssueKind::Duplicate, rows: vec![2, 4] }]
        );
        let found = c.find(a, "015").unwrap();
        assert_eq!(found.len(), 1);
        assert!(!c.thread(found[0]).conflict);
    }

    #[test]
    fn repeated_codes_with_different_colours_keep_every_colour_as_a_conflict() {
        let c = catalogue(&[line(
            "a",
            "thread",
            vec![
                row("0000", "White", [255, 255, 255]),
                row("0000", "Ecru", [233, 236, 191]),
                row("1", "Red", [200, 0, 0]),
            ],
        )]);
        let a = c.line_by_id("a").unwrap();
        assert_eq!(
            c.line(a).issues,
            [CodeIssue { code: "0000", kind: IssueKind::Conflict, rows: vec![2, 3] }]
        );
        let variants = c.find(a, "0").unwrap();
        let names: Vec<_> = variants.iter().map(|&i| c.thread(i).name).collect();
        assert_eq!(names, ["White", "Ecru"], "chart order, the first first");
        assert!(variants.iter().all(|&i| c.thread(i).conflict));
        assert!(!c.thread(c.find(a, "1").unwrap()[0]).conflict);
        let summary = c.summary(a);
        assert_eq!((summary.duplicate_codes, summary.conflicting_codes, summary.thread_count), (0, 1, 3));
    }

    #[test]
    fn unknown_lines_and_codes_are_errors_that_name_them() {
        let c = catalogue(&[line("a", "thread", vec![row("1", "Red", [200, 0, 0])])]);
        assert_eq!(c.line_by_id("zzz").unwrap_err(), CatalogueError::UnknownLine("zzz".into()));
        let a = c.line_by_id("a").unwrap();
        assert_eq!(
            c.find(a, "2").unwrap_err(),
            CatalogueError::UnknownCode { line: "Brand a".into(), code: "2".into() }
        );
        assert_eq!(c.find(a, " ").unwrap_err(), CatalogueError::InvalidCode);
        assert_eq!(c.find(a, &"9".repeat(MAX_CODE_LEN + 1)).unwrap_err(), CatalogueError::InvalidCode);
    }

    #[test]
    fn search_ranks_exact_codes_then_code_prefixes_then_names() {
        let c = catalogue(&[
            line(
                "a",
                "thread",
                vec![
                    row("150", "Sky", [1, 1, 1]),
                    row("15", "Snow", [2, 2, 2]),
                    row("7", "Blue 15", [3, 3, 3]),
                ],
            ),
            line("b", "thread", vec![row("0015", "Ice", [4, 4, 4]), row("9", "Skyline", [5, 5, 5])]),
        ]);
        let names = |query: &str, lines: &[LineIndex]| -> Vec<&str> {
            c.search(query, lines, 10).into_iter().map(|i| c.thread(i).name).collect()
        };
        assert_eq!(names("15", &[]), ["Snow", "Ice", "Sky", "Blue 15"]);
        assert_eq!(names("015", &[]), ["Snow", "Ice", "Sky"], "leading zeros do not matter for codes");
        assert_eq!(names("sky", &[]), ["Sky", "Skyline"]);
        assert_eq!(names("sky", &[c.line_by_id("b").unwrap()]), ["Skyline"]);
        assert!(names("nothing", &[]).is_empty());
        assert_eq!(c.search("s", &[], 1).len(), 1, "the limit holds");
    }
}
