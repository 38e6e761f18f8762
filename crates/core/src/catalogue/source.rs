//! Reads and checks the catalogue's data files: `lines.toml` and one `<id>.csv` per line. Used by
//! `build.rs`, so any problem in the data stops the build with the file and line, and by the
//! core's tests, which feed it broken files.

use std::collections::HashSet;
use std::fs;
use std::path::Path;

use serde::Deserialize;

use super::blob::{LineRecord, RowRecord};
use super::{code, meta};

/// One `[[line]]` of `lines.toml`. `origin` is only read by `scripts/import-threads.py`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LineEntry {
    id: String,
    brand: String,
    name: String,
    fibre: Option<String>,
    weight: Option<u16>,
    kind: String,
    source: String,
    #[expect(dead_code, reason = "read by the importer, not the build")]
    origin: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    line: Vec<toml::Spanned<LineEntry>>,
}

/// Every line of the data folder, checked.
pub fn read(dir: &Path) -> Result<Vec<LineRecord<String>>, String> {
    let manifest_path = dir.join("lines.toml");
    let text = fs::read_to_string(&manifest_path).map_err(|e| format!("{}: {e}", manifest_path.display()))?;
    let manifest: Manifest =
        toml::from_str(&text).map_err(|e| format!("{}: {e}", manifest_path.display()))?;

    let mut ids = HashSet::new();
    let mut lines = Vec::new();
    for spanned in manifest.line {
        let at = format!("{}:{}", manifest_path.display(), line_of(&text, spanned.span().start));
        let entry = spanned.into_inner();
        let record = check_entry(dir, entry, &at)?;
        if !ids.insert(record.id.clone()) {
            return Err(format!("{at}: the id '{}' is used twice", record.id));
        }
        lines.push(record);
    }
    if lines.is_empty() {
        return Err(format!("{}: no [[line]] entries", manifest_path.display()));
    }
    // Every data file must be listed, so a line cannot be forgotten silently.
    for file in fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let path = file.map_err(|e| e.to_string())?.path();
        let listed = path.file_stem().and_then(|s| s.to_str()).is_some_and(|stem| ids.contains(stem));
        if path.extension().is_some_and(|ext| ext == "csv") && !listed {
            return Err(format!("{}: not listed in lines.toml", path.display()));
        }
    }
    Ok(lines)
}

fn check_entry(dir: &Path, entry: LineEntry, at: &str) -> Result<LineRecord<String>, String> {
    let id_ok = !entry.id.is_empty()
        && entry.id.len() <= 64
        && entry.id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if !id_ok {
        return Err(format!("{at}: id '{}' must be 1 to 64 of a-z, 0-9 and '-'", entry.id));
    }
    for (field, value) in [("brand", &entry.brand), ("name", &entry.name), ("source", &entry.source)] {
        if value.trim().is_empty() || value.len() > 1000 {
            return Err(format!("{at}: line '{}' needs a {field} of 1 to 1000 bytes", entry.id));
        }
    }
    let fibre = entry.fibre.unwrap_or_default();
    if !fibre.is_empty() && meta::Fibre::parse(&fibre).is_none() {
        let known: Vec<_> = meta::Fibre::ALL.iter().map(|f| f.as_str()).collect();
        return Err(format!("{at}: fibre '{fibre}' is not one of {}", known.join(", ")));
    }
    if meta::LineKind::parse(&entry.kind).is_none() {
        return Err(format!("{at}: kind '{}' must be 'thread' or 'reference'", entry.kind));
    }
    let weight = entry.weight.unwrap_or(0);
    if entry.weight == Some(0) {
        return Err(format!("{at}: weight must be a positive number; leave it out when unknown"));
    }
    let csv_path = dir.join(format!("{}.csv", entry.id));
    let rows = read_rows(&csv_path)?;
    Ok(LineRecord {
        id: entry.id,
        brand: entry.brand,
        name: entry.name,
        fibre,
        weight,
        kind: entry.kind,
        source: entry.source,
        rows,
    })
}

fn read_rows(path: &Path) -> Result<Vec<RowRecord<String>>, String> {
    let file = path.display();
    let mut reader = csv::Reader::from_path(path).map_err(|e| format!("{file}: {e}"))?;
    let header = reader.headers().map_err(|e| format!("{file}:1: {e}"))?;
    if header != vec!["code", "name", "hex"] {
        return Err(format!("{file}:1: the header must be 'code,name,hex'"));
    }
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| match e.position() {
            Some(pos) => format!("{file}:{}: {e}", pos.line()),
            None => format!("{file}: {e}"),
        })?;
        let line = record.position().map_or(0, csv::Position::line);
        let at = format!("{file}:{line}");
        let (code, name, hex) = (&record[0], &record[1], &record[2]);
        if !code::code_is_valid(code) {
            return Err(format!("{at}: code '{code}' must be 1 to {} characters", code::MAX_CODE_LEN));
        }
        if name.len() > 255 || name.chars().any(char::is_control) {
            return Err(format!("{at}: name must be at most 255 bytes without control characters"));
        }
        let rgb =
            parse_hex(hex).ok_or_else(|| format!("{at}: '{hex}' is not a colour in the form #RRGGBB"))?;
        rows.push(RowRecord { code: code.trim().to_owned(), name: name.trim().to_owned(), rgb });
    }
    if rows.is_empty() {
        return Err(format!("{file}: no threads"));
    }
    Ok(rows)
}

fn parse_hex(hex: &str) -> Option<[u8; 3]> {
    let digits = hex.strip_prefix('#')?;
    if digits.len() != 6 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let channel = |i: usize| u8::from_str_radix(&digits[i..i + 2], 16).ok();
    Some([channel(0)?, channel(2)?, channel(4)?])
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = "[[line]]\nid = \"a\"\nbrand = \"B\"\nname = \"N\"\nkind = \"thread\"\nsource = \"s\"\norigin = \"o\"\n";
    const GOOD_CSV: &str = "code,name,hex\n0015,White,#FFFFFF\n20,Black,#000000\n";

    /// Writes a data folder and returns `read`'s error, with the folder's path replaced by `DIR`.
    fn error_of(manifest: &str, files: &[(&str, &str)]) -> String {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("lines.toml"), manifest).unwrap();
        for (name, text) in files {
            fs::write(dir.path().join(name), text).unwrap();
        }
        let error = read(dir.path()).expect_err("the data is broken");
        error.replace(&dir.path().display().to_string(), "DIR")
    }

    #[test]
    fn good_data_is_read_in_file_order() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("lines.toml"), LINE).unwrap();
        fs::write(dir.path().join("a.csv"), GOOD_CSV).unwrap();
        let lines = read(dir.path()).unwrap();
        assert_eq!(lines.len(), 1);
        assert_eq!(
            lines[0].rows[0],
            RowRecord { code: "0015".into(), name: "White".into(), rgb: [255, 255, 255] }
        );
        assert_eq!((lines[0].fibre.as_str(), lines[0].weight), ("", 0), "unknown fibre and weight");
    }

    #[test]
    fn a_bad_colour_names_the_file_and_line() {
        let csv = "code,name,hex\n0015,White,#FFFFFF\n20,Black,#00000G\n";
        assert_eq!(
            error_of(LINE, &[("a.csv", csv)]),
            "DIR/a.csv:3: '#00000G' is not a colour in the form #RRGGBB"
        );
    }

    #[test]
    fn a_missing_code_or_wrong_field_count_names_the_file_and_line() {
        let empty_code = "code,name,hex\n ,White,#FFFFFF\n";
        assert_eq!(
            error_of(LINE, &[("a.csv", empty_code)]),
            "DIR/a.csv:2: code ' ' must be 1 to 32 characters"
        );
        let short_row = "code,name,hex\n1,White,#FFFFFF\n2,#000000\n";
        let error = error_of(LINE, &[("a.csv", short_row)]);
        assert!(error.starts_with("DIR/a.csv:3: "), "{error}");
    }

    #[test]
    fn manifest_mistakes_name_the_line_of_the_entry() {
        let second =
            LINE.replace("id = \"a\"", "id = \"b\"").replace("kind = \"thread\"", "kind = \"paint\"");
        let manifest = format!("{LINE}\n{second}");
        assert_eq!(
            error_of(&manifest, &[("a.csv", GOOD_CSV), ("b.csv", GOOD_CSV)]),
            "DIR/lines.toml:9: kind 'paint' must be 'thread' or 'reference'"
        );
        let fibre = LINE.replace("kind =", "fibre = \"silk\"\nkind =");
        assert!(
            error_of(&fibre, &[("a.csv", GOOD_CSV)])
                .starts_with("DIR/lines.toml:1: fibre 'silk' is not one of")
        );
        let duplicate = format!("{LINE}\n{LINE}");
        assert_eq!(
            error_of(&duplicate, &[("a.csv", GOOD_CSV)]),
            "DIR/lines.toml:9: the id 'a' is used twice"
        );
    }

    #[test]
    fn toml_syntax_errors_and_unlisted_or_missing_files_are_reported() {
        assert!(error_of("[[line]\nid = 1", &[]).starts_with("DIR/lines.toml: "));
        assert_eq!(
            error_of(LINE, &[("a.csv", GOOD_CSV), ("stray.csv", GOOD_CSV)]),
            "DIR/stray.csv: not listed in lines.toml"
        );
        assert!(error_of(LINE, &[]).starts_with("DIR/a.csv: "), "missing data file");
        assert_eq!(error_of(LINE, &[("a.csv", "code,name,hex\n")]), "DIR/a.csv: no threads");
        assert_eq!(
            error_of(LINE, &[("a.csv", "code,colour\n1,#FFFFFF\n")]),
            "DIR/a.csv:1: the header must be 'code,name,hex'"
        );
    }
}
