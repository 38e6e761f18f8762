//! Bulk conversion: a pasted list (one code or colour per line, or rows copied from a
//! spreadsheet) converted to one target line, as a table and as CSV.

use serde::{Deserialize, Serialize};

use super::{
    ConvertError, MAX_BULK_BYTES, MAX_BULK_ROWS, MAX_MATCHES, Match, ResolvedSource, Source, ThreadRef,
};
use crate::catalogue::{Catalogue, LineIndex, ThreadIndex};
use crate::colour::Rgb8;
use crate::sheet::{read_records, spreadsheet_safe};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct BulkRequest {
    /// The line the pasted codes belong to; without it only colours (`#RRGGBB`) are read.
    #[serde(default)]
    pub from: Option<String>,
    /// The line to convert to.
    pub to: String,
    /// The pasted text.
    pub input: String,
    /// How many next-best matches to give besides the best one.
    #[serde(default = "default_alternatives")]
    pub alternatives: usize,
}

fn default_alternatives() -> usize {
    2
}

/// One row of the list and what it converted to.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BulkRow {
    /// The row's line number in the pasted text.
    pub row: usize,
    /// The value read from the row (a code or a colour).
    pub input: String,
    pub source: Option<ResolvedSource>,
    /// Best first; empty when the row could not be read.
    pub matches: Vec<Match>,
    /// Why the row could not be read.
    pub error: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BulkConversion {
    pub line: &'static str,
    pub line_name: String,
    pub rows: Vec<BulkRow>,
}

/// Header names that mark the column to read, when the paste starts with a header row.
const CODE_HEADERS: [&str; 6] = ["code", "thread", "thread code", "number", "no", "no."];
const COLOUR_HEADERS: [&str; 5] = ["hex", "colour", "color", "hex colour", "hex color"];

impl Catalogue {
    pub fn convert_bulk(&self, request: &BulkRequest) -> Result<BulkConversion, ConvertError> {
        if request.alternatives >= MAX_MATCHES {
            return Err(ConvertError::MatchCountOutOfRange);
        }
        if request.input.len() > MAX_BULK_BYTES {
            return Err(ConvertError::InputTooLarge);
        }
        let target = self.line_by_id(&request.to)?;
        let from =
            request.from.as_deref().filter(|id| !id.is_empty()).map(|id| self.line_by_id(id)).transpose()?;
        // At most a header, the rows allowed, and one more to tell that there are too many.
        let mut records: Vec<_> = read_records(&request.input).take(MAX_BULK_ROWS + 2).collect();
        let column = records.first().and_then(|(_, fields)| header_column(fields, from.is_some()));
        if column.is_some() {
            records.remove(0);
        }
        if records.len() > MAX_BULK_ROWS {
            return Err(ConvertError::TooManyRows);
        }
        let rows = records
            .into_iter()
            .map(|(row, fields)| {
                self.convert_row(row, &fields, column, from, target, request.alternatives + 1)
            })
            .collect();
        let line = self.line(target);
        Ok(BulkConversion { line: line.id, line_name: line.display_name(), rows })
    }

    fn convert_row(
        &self,
        row: usize,
        fields: &[String],
        column: Option<usize>,
        from: Option<LineIndex>,
        target: LineIndex,
        k: usize,
    ) -> BulkRow {
        let cells: Vec<&str> = match column {
            Some(column) => fields.get(column).map(String::as_str).into_iter().collect(),
            None => fields.iter().map(String::as_str).filter(|cell| !cell.is_empty()).collect(),
        };
        // The first cell that reads as a thread or a colour wins; otherwise the first cell's error.
        let mut first_error = None;
        for cell in &cells {
            match self.read_cell(cell, from) {
                Ok((source, source_thread)) => {
                    let allowed = super::Allowed { skip: source_thread, only: None };
                    let ranked = self.rank_line(source.neutrality(), target, allowed, k);
                    let matches = self.line_matches(&source, target, ranked).matches;
                    return BulkRow {
                        row,
                        input: (*cell).to_owned(),
                        source: Some(source),
                        matches,
                        error: None,
                    };
                }
                Err(error) => {
                    first_error.get_or_insert(error);
                }
            }
        }
        let input = cells.first().copied().unwrap_or_default().to_owned();
        let error = first_error.unwrap_or_else(|| "this row has no code or colour".to_owned());
        BulkRow { row, input, source: None, matches: Vec::new(), error: Some(error) }
    }

    /// A cell is a colour when it starts with `#`, a code of the source line when there is one,
    /// and a bare six-digit hex colour otherwise.
    fn read_cell(
        &self,
        cell: &str,
        from: Option<LineIndex>,
    ) -> Result<(ResolvedSource, Option<ThreadIndex>), String> {
        let resolve = |source: Source| self.resolve(&source).map_err(|e| e.to_string());
        if cell.starts_with('#') {
            return resolve(Source::Hex(cell.to_owned()));
        }
        if let Some(line) = from {
            let reference = ThreadRef { line: self.line(line).id.to_owned(), code: cell.to_owned() };
            return match resolve(Source::Thread(reference)) {
                Ok(found) => Ok(found),
                Err(error) if cell.len() == 6 && Rgb8::parse_hex(cell).is_ok() => {
                    resolve(Source::Hex(cell.to_owned())).map_err(|_| error)
                }
                Err(error) => Err(error),
            };
        }
        resolve(Source::Hex(cell.to_owned())).map_err(|_| {
            format!(
                "'{}' is not a colour such as #1A2B3C; to convert codes, choose the line they are from",
                short(cell)
            )
        })
    }
}

/// The column to read when the first row is a header: the code column when the codes' line is
/// known, else the colour column.
fn header_column(fields: &[String], have_line: bool) -> Option<usize> {
    let find = |names: &[&str]| fields.iter().position(|f| names.contains(&f.to_lowercase().as_str()));
    let (code, colour) = (find(&CODE_HEADERS), find(&COLOUR_HEADERS));
    if have_line { code.or(colour) } else { colour.or(code) }
}

fn short(text: &str) -> String {
    text.chars().take(40).collect()
}

impl BulkConversion {
    /// The table as CSV for a spreadsheet: one row per input row, the best match and the
    /// alternatives. Cells that a spreadsheet would run as a formula are quoted with a leading `'`.
    pub fn to_csv(&self) -> String {
        let mut writer = csv::Writer::from_writer(Vec::new());
        let header = [
            "row",
            "input",
            "from_line",
            "from_code",
            "from_name",
            "from_hex",
            "to_line",
            "to_code",
            "to_name",
            "to_hex",
            "delta_e",
            "match",
            "alternatives",
            "error",
        ];
        writer.write_record(header).expect("writing to memory");
        for row in &self.rows {
            let from = row.source.as_ref().and_then(|source| source.thread.as_ref());
            let best = row.matches.first();
            let alternatives: Vec<String> = row
                .matches
                .iter()
                .skip(1)
                .map(|m| {
                    format!("{} {} (dE {:.2})", m.thread.code, m.thread.name, m.delta_e).replace("  ", " ")
                })
                .collect();
            let record = [
                row.row.to_string(),
                spreadsheet_safe(&row.input),
                from.map(|t| t.line_name.clone()).unwrap_or_default(),
                from.map(|t| t.code.to_owned()).unwrap_or_default(),
                from.map(|t| t.name.to_owned()).unwrap_or_default(),
                row.source.as_ref().map(|s| s.hex.to_hex()).unwrap_or_default(),
                best.map(|_| self.line_name.clone()).unwrap_or_default(),
                best.map(|m| m.thread.code.to_owned()).unwrap_or_default(),
                best.map(|m| m.thread.name.to_owned()).unwrap_or_default(),
                best.map(|m| m.thread.hex.to_hex()).unwrap_or_default(),
                best.map(|m| format!("{:.2}", m.delta_e)).unwrap_or_default(),
                best.map(|m| m.label.as_str().to_owned()).unwrap_or_default(),
                alternatives.join("; "),
                row.error.clone().unwrap_or_default(),
            ];
            writer.write_record(record).expect("writing to memory");
        }
        String::from_utf8(writer.into_inner().expect("writing to memory")).expect("CSV of UTF-8 cells")
    }
}
