//! The thread inventory as CSV, both ways, round-trip safe: a file this module writes reads back
//! as the same entries.
//!
//! Reading takes what spreadsheets actually save: UTF-8 with or without a byte-order mark; comma,
//! semicolon or tab separators (whichever the header uses most); quoted fields with separators,
//! quotes and line breaks inside; decimal commas; headers in any case and under common synonyms
//! ("Qty", "Colour", "Storage"). Every row is checked before anything is written, and the preview
//! lists each row's problems: unknown line or code, bad number, or a thread that appears twice.

use std::collections::HashMap;

use crate::catalogue::Catalogue;
use crate::sheet::{from_spreadsheet_safe, read_records, spreadsheet_safe};

use super::thread::{FieldProblem, ThreadDraft, ThreadEntry, ThreadSource};
use crate::colour::Rgb8;

/// The most rows one file may hold: a large shop's whole stock several times over.
pub const MAX_ROWS: usize = 10_000;

/// The columns, in the order export writes them.
pub const COLUMNS: [&str; 10] = [
    "line",
    "code",
    "name",
    "colour",
    "quantity",
    "spool_length_m",
    "location",
    "reorder_point",
    "cost_per_spool",
    "notes",
];

/// Other names spreadsheets give the columns, lower-cased.
const SYNONYMS: [(&str, &str); 24] = [
    ("brand", "line"),
    ("thread line", "line"),
    ("thread code", "code"),
    ("number", "code"),
    ("no", "code"),
    ("colour name", "name"),
    ("color name", "name"),
    ("color", "colour"),
    ("hex", "colour"),
    ("qty", "quantity"),
    ("spools", "quantity"),
    ("cones", "quantity"),
    ("spool length", "spool_length_m"),
    ("spool length (m)", "spool_length_m"),
    ("length", "spool_length_m"),
    ("storage", "location"),
    ("storage location", "location"),
    ("reorder point", "reorder_point"),
    ("reorder at", "reorder_point"),
    ("cost per spool", "cost_per_spool"),
    ("cost", "cost_per_spool"),
    ("price", "cost_per_spool"),
    ("note", "notes"),
    ("comments", "notes"),
];

/// Why a file could not be read at all (as opposed to a row's problems).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CsvError {
    #[error("The file is empty.")]
    Empty,
    #[error(
        "The first row must name the columns: at least `quantity`, with `line` and `code` or `name` and `colour`. \
         Found: {0}."
    )]
    NoHeader(String),
    #[error("The file has more than {MAX_ROWS} rows; import it in parts of at most {MAX_ROWS}.")]
    TooManyRows,
}

/// One row of an import, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportRow {
    /// The row's line in the file (the header is line 1).
    pub line: usize,
    /// The row as read.
    pub draft: ThreadDraft,
    /// The entry, when the row has no problems.
    pub entry: Option<ThreadEntry>,
    pub problems: Vec<FieldProblem>,
    /// What the row says that the catalogue says otherwise: a catalogue thread is imported with
    /// the catalogue's name and colour, so the person is told when the file's differ
    /// (`name_differs`, `colour_differs`). They do not stop the row.
    pub warnings: Vec<FieldProblem>,
}

/// Everything an import would write, and what stops it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportPreview {
    pub rows: Vec<ImportRow>,
    /// Header cells that match no column; their values are not imported.
    pub ignored_columns: Vec<String>,
}

impl ImportPreview {
    /// An import is all or nothing: it goes ahead only when every row is valid.
    pub fn is_valid(&self) -> bool {
        self.rows.iter().all(|row| row.problems.is_empty())
    }

    /// The entries, when every row is valid.
    pub fn entries(&self) -> Option<Vec<ThreadEntry>> {
        self.is_valid().then(|| self.valid_entries())
    }

    /// The entries of the rows without problems, the others skipped.
    pub fn valid_entries(&self) -> Vec<ThreadEntry> {
        self.rows.iter().filter_map(|row| row.entry.clone()).collect()
    }
}

/// Reads a CSV file into a preview.
///
/// # Errors
///
/// When the file is empty, has no recognisable header, or has more than [`MAX_ROWS`] rows
/// (found as soon as the row after the last allowed one is read).
pub fn read(text: &str, catalogue: &Catalogue) -> Result<ImportPreview, CsvError> {
    let mut records = read_records(text);
    let (_, header) = records.next().ok_or(CsvError::Empty)?;
    let mut columns: Vec<Option<&'static str>> = Vec::with_capacity(header.len());
    let mut ignored_columns = Vec::new();
    for cell in &header {
        let name = column_of(cell);
        if name.is_none() && !cell.is_empty() {
            ignored_columns.push(cell.clone());
        }
        columns.push(name);
    }
    let has = |name: &str| columns.contains(&Some(name));
    if !has("quantity") || !((has("line") && has("code")) || (has("name") && has("colour"))) {
        return Err(CsvError::NoHeader(header.join(", ").chars().take(200).collect()));
    }
    // One row past the limit tells that there are too many, without reading the rest.
    let records: Vec<(usize, Vec<String>)> = records.take(MAX_ROWS + 1).collect();
    if records.len() > MAX_ROWS {
        return Err(CsvError::TooManyRows);
    }

    let mut first_seen: HashMap<String, usize> = HashMap::new();
    let rows = records
        .into_iter()
        .map(|(line, cells)| {
            let draft = draft_of(&columns, &cells);
            let (entry, mut problems) = match draft.parse(catalogue) {
                Ok(entry) => (Some(entry), Vec::new()),
                Err(problems) => (None, problems),
            };
            if let Some(entry) = &entry {
                if let Some(first) = first_seen.get(&entry.source.identity()) {
                    problems.push(FieldProblem {
                        field: "code",
                        code: "duplicate",
                        message: format!("This thread is already on line {first}: keep one row per thread."),
                    });
                } else {
                    first_seen.insert(entry.source.identity(), line);
                }
            }
            let entry = entry.filter(|_| problems.is_empty());
            let warnings =
                entry.as_ref().map(|entry| differences(&draft, entry, catalogue)).unwrap_or_default();
            ImportRow { line, draft, entry, problems, warnings }
        })
        .collect();
    Ok(ImportPreview { rows, ignored_columns })
}

/// Where a row's name or colour differs from the catalogue's for the thread its line and code
/// name ("1801 White" where the catalogue's 1801 is "Barely Blue"). Custom threads and cells left
/// empty differ from nothing.
fn differences(draft: &ThreadDraft, entry: &ThreadEntry, catalogue: &Catalogue) -> Vec<FieldProblem> {
    if !matches!(entry.source, ThreadSource::Catalogue { .. }) {
        return Vec::new();
    }
    let known = entry.to_draft(catalogue);
    let line = catalogue
        .line_by_id(&known.line)
        .map_or_else(|_| known.line.clone(), |index| catalogue.line(index).display_name());
    let thread = format!("{line} {}", known.code);
    let mut warnings = Vec::new();
    let name = draft.name.trim();
    if !name.is_empty() && !name.eq_ignore_ascii_case(known.name.trim()) {
        warnings.push(FieldProblem {
            field: "name",
            code: "name_differs",
            message: format!(
                "The file calls {thread} \"{name}\"; the catalogue calls it \"{}\", and that is what is imported.",
                known.name
            ),
        });
    }
    let colour = draft.colour.trim();
    let same_colour = Rgb8::parse_hex(colour).ok().map(Rgb8::to_hex) == Some(known.colour.clone());
    if !colour.is_empty() && !same_colour {
        warnings.push(FieldProblem {
            field: "colour",
            code: "colour_differs",
            message: format!(
                "The file gives {thread} the colour {colour}; the catalogue's is {}, and that is what is imported.",
                known.colour
            ),
        });
    }
    warnings
}

/// Writes entries as CSV with the header [`COLUMNS`]; catalogue threads get their name and
/// colour from the catalogue, for the reader's sake (import reads them from the catalogue again).
pub fn write(entries: &[ThreadEntry], catalogue: &Catalogue) -> String {
    header() + &rows(entries, catalogue)
}

/// The first line [`write`] writes.
pub fn header() -> String {
    text_of(|writer| writer.write_record(COLUMNS))
}

/// The lines [`write`] writes for `entries`, after the header: a long inventory written a part
/// at a time is the header, then each part's rows.
pub fn rows(entries: &[ThreadEntry], catalogue: &Catalogue) -> String {
    text_of(|writer| {
        for entry in entries {
            let d = entry.to_draft(catalogue);
            let cells = [
                &d.line,
                &d.code,
                &d.name,
                &d.colour,
                &d.quantity,
                &d.spool_length_m,
                &d.location,
                &d.reorder_point,
                &d.cost_per_spool,
                &d.notes,
            ];
            writer.write_record(cells.map(|cell| spreadsheet_safe(cell)))?;
        }
        Ok(())
    })
}

/// What `write` writes with a CSV writer, as text.
fn text_of(write: impl FnOnce(&mut csv::Writer<Vec<u8>>) -> csv::Result<()>) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    write(&mut writer).expect("writing to memory");
    String::from_utf8(writer.into_inner().expect("writing to memory")).expect("CSV of UTF-8 cells")
}

fn column_of(header: &str) -> Option<&'static str> {
    let name = header.trim().to_lowercase().replace('_', " ");
    COLUMNS
        .into_iter()
        .find(|column| column.replace('_', " ") == name)
        .or_else(|| SYNONYMS.iter().find(|(synonym, _)| *synonym == name).map(|(_, column)| *column))
}

fn draft_of(columns: &[Option<&'static str>], cells: &[String]) -> ThreadDraft {
    let mut draft = ThreadDraft::default();
    for (column, cell) in columns.iter().zip(cells) {
        let Some(column) = column else { continue };
        let value = from_spreadsheet_safe(cell).to_owned();
        let slot = match *column {
            "line" => &mut draft.line,
            "code" => &mut draft.code,
            "name" => &mut draft.name,
            "colour" => &mut draft.colour,
            "quantity" => &mut draft.quantity,
            "spool_length_m" => &mut draft.spool_length_m,
            "location" => &mut draft.location,
            "reorder_point" => &mut draft.reorder_point,
            "cost_per_spool" => &mut draft.cost_per_spool,
            _ => &mut draft.notes,
        };
        *slot = value;
    }
    draft
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::Hundredths;

    fn preview(text: &str) -> ImportPreview {
        read(text, Catalogue::builtin()).unwrap()
    }

    #[test]
    fn an_inventory_written_a_part_at_a_time_is_the_same_file() {
        let entries =
            preview("line,code,quantity,notes\nmadeira-polyneon,1800,2,\"a, b\"\nmadeira-polyneon,1801,1,\n")
                .rows
                .into_iter()
                .map(|row| row.entry.unwrap())
                .collect::<Vec<_>>();
        let catalogue = Catalogue::builtin();
        let in_parts = header() + &rows(&entries[..1], catalogue) + &rows(&entries[1..], catalogue);
        assert_eq!(in_parts, write(&entries, catalogue));
        assert_eq!(write(&[], catalogue), header());
    }

    /// docs/behaviour.md, "Thread inventory": "1801 White" was once renamed to the catalogue's
    /// "Barely Blue" without a word.
    #[test]
    fn a_row_whose_name_or_colour_differs_from_the_catalogue_is_imported_with_a_warning() {
        let rows = preview(
            "line,code,name,colour,quantity\n\
             madeira-polyneon,1801,White,,1\n\
             madeira-polyneon,1800,black,#2f3032,1\n\
             madeira-polyneon,1805,,#FF0000,1\n\
             ,,Fair gold,#C9A227,1\n",
        )
        .rows;
        let codes = |row: &ImportRow| row.warnings.iter().map(|w| w.code).collect::<Vec<_>>();
        assert_eq!(codes(&rows[0]), ["name_differs"]);
        assert!(
            rows[0].warnings[0].message.contains("Madeira Polyneon 1801 \"White\""),
            "{:?}",
            rows[0].warnings
        );
        assert!(rows[0].entry.is_some(), "a warning does not stop the row");
        assert!(
            codes(&rows[1]).is_empty(),
            "the same name in other letters, the same colour: {:?}",
            rows[1].warnings
        );
        assert_eq!(codes(&rows[2]), ["colour_differs"]);
        assert!(codes(&rows[3]).is_empty(), "a custom thread is what the file says");
    }

    #[test]
    fn the_rows_without_problems_can_be_imported_without_the_others() {
        let preview = preview(
            "line,code,quantity\nmadeira-polyneon,1800,1\nmadeira-polyneon,99999,1\nmadeira-polyneon,1801,2\n",
        );
        assert!(preview.entries().is_none(), "all or nothing refuses the file");
        let entries = preview.valid_entries();
        assert_eq!(entries.len(), 2);
        assert!(preview.rows[1].entry.is_none() && !preview.rows[1].problems.is_empty());
    }

    #[test]
    fn export_then_import_gives_the_same_entries() {
        let catalogue = Catalogue::builtin();
        let text = "line,code,name,colour,quantity,location,notes,cost_per_spool,reorder_point,spool_length_m\n\
                    madeira-polyneon,1800,,,2.5,\"Shelf 2, left\",\"said \"\"black\"\"\",4.5,1,5000\n\
                    ,,Fair gold,#C9A227,0.25,,=not a formula,,,\n\
                    Madeira Polyneon,1801,,,0,,\"two\nlines\",,,\n";
        let entries = preview(text).entries().expect("a valid file");
        assert_eq!(entries.len(), 3);
        let exported = write(&entries, catalogue);
        assert!(exported.starts_with(
            "line,code,name,colour,quantity,spool_length_m,location,reorder_point,cost_per_spool,notes\n"
        ));
        assert!(
            exported.contains("madeira-polyneon,1800,Black,#2F3032,2.5,5000,\"Shelf 2, left\",1,4.5"),
            "{exported}"
        );
        assert!(exported.contains("'=not a formula"), "formulas are neutralised: {exported}");
        let again = preview(&exported).entries().expect("the export reads back");
        assert_eq!(again, entries);
    }

    #[test]
    fn a_european_spreadsheet_file_reads_the_same() {
        let text = "\u{feff}Brand;Number;Qty;Storage;Cost\r\nMadeira Polyneon;1800;2,5;Box 1;4,50\r\n";
        let rows = preview(text).rows;
        let entry = rows[0].entry.as_ref().expect("valid");
        assert_eq!(entry.quantity.to_string(), "2.5");
        assert_eq!(entry.location, "Box 1");
        assert_eq!(entry.cost_per_spool.map(Hundredths::hundredths), Some(450));
        assert_eq!(rows[0].line, 2);
    }

    #[test]
    fn each_rows_problems_are_listed_and_the_import_is_refused() {
        let text = "line,code,quantity\n\
                    madeira-polyneon,1800,1\n\
                    madeira-polyneon,9999999,1\n\
                    madeira-polyneon,1801,many\n\
                    madeira-polyneon,01800,2\n\
                    nobody-thread,1,1\n";
        let preview = preview(text);
        assert!(!preview.is_valid());
        assert_eq!(preview.entries(), None);
        let problems: Vec<(usize, Vec<&str>)> = preview
            .rows
            .iter()
            .map(|row| (row.line, row.problems.iter().map(|p| p.code).collect()))
            .collect();
        assert_eq!(
            problems,
            [
                (2, vec![]),
                (3, vec!["unknown_code"]),
                (4, vec!["bad_number"]),
                (5, vec!["duplicate"]),
                (6, vec!["unknown_line"]),
            ]
        );
        assert!(preview.rows[3].problems[0].message.contains("line 2"), "{:?}", preview.rows[3].problems);
    }

    #[test]
    fn a_file_without_the_needed_columns_is_refused_whole() {
        let catalogue = Catalogue::builtin();
        assert_eq!(read("", catalogue), Err(CsvError::Empty));
        assert!(matches!(read("colour,stuff\n#000000,1\n", catalogue), Err(CsvError::NoHeader(_))));
        let many = format!("line,code,quantity\n{}", "madeira-polyneon,1800,1\n".repeat(MAX_ROWS + 1));
        assert_eq!(read(&many, catalogue), Err(CsvError::TooManyRows));
    }

    #[test]
    fn unknown_columns_are_named_and_left_out() {
        let preview = preview("line,code,quantity,supplier\nmadeira-polyneon,1800,1,Acme\n");
        assert_eq!(preview.ignored_columns, ["supplier"]);
        assert!(preview.is_valid());
    }
}
