//! Text from and for spreadsheets: pasted rows or CSV files in whatever separator the
//! spreadsheet used, and cells written so that a spreadsheet never runs them as formulas.

/// Splits pasted text into rows of trimmed cells with their line numbers, skipping blank rows.
/// The separator is whichever of comma, semicolon and tab the first row uses most, so text copied
/// from a spreadsheet, a European CSV (`;`) or a plain list all work.
pub(crate) fn read_records(input: &str) -> Vec<(usize, Vec<String>)> {
    let input = input.strip_prefix('\u{feff}').unwrap_or(input);
    let first_line = input.lines().find(|line| !line.trim().is_empty()).unwrap_or_default();
    let delimiter = [b'\t', b';', b',']
        .into_iter()
        .max_by_key(|&d| first_line.bytes().filter(|&b| b == d).count())
        .filter(|&d| first_line.as_bytes().contains(&d))
        .unwrap_or(b',');
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .trim(csv::Trim::All)
        .from_reader(input.as_bytes());
    reader
        .records()
        .filter_map(Result::ok)
        .filter(|record| record.iter().any(|cell| !cell.is_empty()))
        .map(|record| {
            // The reader's positions count blank lines as part of the next record, so the line
            // number comes from the record's first byte after them.
            let bytes = input.as_bytes();
            let mut offset = record.position().map_or(0, |p| usize::try_from(p.byte()).unwrap_or(usize::MAX));
            offset = offset.min(bytes.len());
            while offset < bytes.len() && matches!(bytes[offset], b'\n' | b'\r') {
                offset += 1;
            }
            let line = input[..offset].matches('\n').count() + 1;
            (line, record.iter().map(str::to_owned).collect())
        })
        .collect()
}

/// Neutralises text a spreadsheet would treat as a formula (OWASP "CSV injection").
pub(crate) fn spreadsheet_safe(cell: &str) -> String {
    if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) { format!("'{cell}") } else { cell.to_owned() }
}

/// Undoes [`spreadsheet_safe`]: a cell that starts with `'` before a formula character was
/// written by it, so the `'` goes.
pub(crate) fn from_spreadsheet_safe(cell: &str) -> &str {
    match cell.strip_prefix('\'') {
        Some(rest) if rest.starts_with(['=', '+', '-', '@', '\t', '\r']) => rest,
        _ => cell,
    }
}
