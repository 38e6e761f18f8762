//! Text from and for spreadsheets: pasted rows or CSV files in whatever separator the
//! spreadsheet used, and cells written so that a spreadsheet never runs them as formulas.

/// Reads pasted text as rows of trimmed cells with their line numbers, skipping blank rows.
/// The separator is whichever of comma, semicolon and tab the first row uses most, so text copied
/// from a spreadsheet, a European CSV (`;`) or a plain list all work.
///
/// Rows are read one at a time as the caller asks for them, in time linear in the text read so far:
/// a caller with a row limit takes one row past it and stops, instead of reading a whole oversized
/// paste first (130,000 short lines once held a server thread far too long).
pub(crate) fn read_records(input: &str) -> impl Iterator<Item = (usize, Vec<String>)> + '_ {
    let input = input.strip_prefix('\u{feff}').unwrap_or(input);
    let first_line = input.lines().find(|line| !line.trim().is_empty()).unwrap_or_default();
    let delimiter = [b'\t', b';', b',']
        .into_iter()
        .max_by_key(|&d| first_line.bytes().filter(|&b| b == d).count())
        .filter(|&d| first_line.as_bytes().contains(&d))
        .unwrap_or(b',');
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .trim(csv::Trim::All)
        .from_reader(input.as_bytes())
        .into_records()
        .filter_map(Result::ok)
        .filter(|record| record.iter().any(|cell| !cell.is_empty()))
        .map(|record| {
            (line_of(input.as_bytes(), record.position()), record.iter().map(str::to_owned).collect())
        })
}

/// The line a record starts on. The reader counts lines itself (so this costs nothing per
/// record; counting the newlines from the start of the text for every record made reading
/// quadratic), but it places the blank lines before a record at the record's start: those are
/// skipped here, looking only at the newlines right after the reader's position.
fn line_of(bytes: &[u8], position: Option<&csv::Position>) -> usize {
    let Some(position) = position else { return 1 };
    let start = usize::try_from(position.byte()).map_or(bytes.len(), |byte| byte.min(bytes.len()));
    let blank_lines =
        bytes[start..].iter().take_while(|&&b| matches!(b, b'\n' | b'\r')).filter(|&&b| b == b'\n').count();
    usize::try_from(position.line()).unwrap_or(usize::MAX).saturating_add(blank_lines)
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

#[cfg(test)]
mod tests {
    use std::{
        sync::mpsc,
        time::{Duration, Instant},
    };

    use super::*;

    fn lines(input: &str) -> Vec<(usize, Vec<String>)> {
        read_records(input).collect()
    }

    #[test]
    fn each_row_keeps_the_line_it_starts_on() {
        let text = "\u{feff}code;qty\r\n\r\n1800;2\r\n   \r\n\r\n\"18\n01\";3\n\n\n1802;4\n";
        let rows = lines(text);
        let numbered: Vec<(usize, &str)> =
            rows.iter().map(|(line, cells)| (*line, cells[0].as_str())).collect();
        assert_eq!(numbered, [(1, "code"), (3, "1800"), (6, "18\n01"), (10, "1802")]);
        assert_eq!(rows[1].1, ["1800", "2"]);
    }

    #[test]
    fn blank_lines_before_the_first_row_count() {
        let numbered: Vec<usize> = lines("\n\n  \na,b\n").into_iter().map(|(line, _)| line).collect();
        assert_eq!(numbered, [4]);
    }

    /// The best of three runs: the least disturbed by other work on the machine.
    fn time_to_read(input: &str) -> Duration {
        (0..3)
            .map(|_| {
                let started = Instant::now();
                assert!(read_records(input).last().is_some());
                started.elapsed()
            })
            .min()
            .expect("three runs")
    }

    /// `work`'s answer, or `None` when it takes longer than `deadline` (then it is left to
    /// finish on its own thread, so that the test fails at once instead of waiting).
    fn within<T: Send + 'static>(deadline: Duration, work: impl FnOnce() -> T + Send + 'static) -> Option<T> {
        let (answer, answered) = mpsc::channel();
        std::thread::spawn(move || answer.send(work()));
        answered.recv_timeout(deadline).ok()
    }

    /// 130,000 one-character lines once took far too long, because each row's line number was
    /// counted from the start of the text. Ten times the lines must cost about ten times as long
    /// (quadratic reading costs a hundred times); the bound leaves room for noise.
    #[test]
    fn reading_ten_times_the_lines_takes_about_ten_times_as_long() {
        let small = time_to_read(&"x\n".repeat(13_000));
        let budget = small * 30;
        let large = within(budget * 3, || time_to_read(&"x\n".repeat(130_000)));
        assert!(
            large.is_some_and(|large| large < budget),
            "13,000 lines in {small:?}, 130,000 in {large:?} (None: over {:?})",
            budget * 3
        );
    }

    #[test]
    fn rows_are_read_only_as_far_as_the_caller_asks() {
        // A million rows after the first three: reading them all takes far longer than this bound.
        let text = format!("a\nb\nc\n{}", "d\n".repeat(1_000_000));
        let first = within(Duration::from_millis(500), move || {
            read_records(&text).take(3).map(|(line, _)| line).collect::<Vec<_>>()
        });
        assert_eq!(first, Some(vec![1, 2, 3]));
    }
}
