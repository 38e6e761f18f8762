//! Turns the thread catalogue's data files (`data/threads/lines.toml` and one `<id>.csv` per line)
//! into the compact form the core embeds (see `src/catalogue/blob.rs`). Every problem in the data
//! stops the build with the file and line, so a bad edit cannot ship.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::Deserialize;

#[path = "src/catalogue/blob.rs"]
#[expect(dead_code, reason = "the build only encodes")]
mod blob;
#[path = "src/catalogue/code.rs"]
#[expect(dead_code, reason = "the build checks codes but does not compare them")]
mod code;
#[path = "src/catalogue/meta.rs"]
mod meta;

use blob::{LineRecord, RowRecord};

const DATA_DIR: &str = "data/threads";

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

fn main() -> ExitCode {
    println!("cargo::rerun-if-changed={DATA_DIR}");
    match build() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error in the thread catalogue data: {message}");
            ExitCode::FAILURE
        }
    }
}

fn build() -> Result<(), String> {
    let dir = Path::new(DATA_DIR);
    let manifest_path = dir.join("lines.toml");
    println!("cargo::rerun-if-changed={}", manifest_path.display());
    let text = fs::read_to_string(&manifest_path).map_err(|e| format!("{}: {e}", manifest_path.display()))?;
    let manifest: Manifest =
        toml::from_str(&text).map_err(|e| format!("{}: {e}", manifest_path.display()))?;

    let mut ids = HashSet::new();
    let mut lines = Vec::new();
    for spanned in manifest.line {
        let at = format!("{}:{}", manifest_path.display(), line_of(&text, spanned.span().start));
        let entry = spanned.into_inner();
        let record = check_entry(entry, &at)?;
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

    let out = PathBuf::from(std::env::var("OUT_DIR").map_err(|e| e.to_string())?).join("threads.bin");
    fs::write(&out, blob::encode(&lines)).map_err(|e| format!("{}: {e}", out.display()))
}

fn check_entry(entry: LineEntry, at: &str) -> Result<LineRecord<String>, String> {
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
    let csv_path = Path::new(DATA_DIR).join(format!("{}.csv", entry.id));
    println!("cargo::rerun-if-changed={}", csv_path.display());
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
