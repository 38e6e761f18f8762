//! Tajima DST: a 512-byte header of text fields (`LA:`, `ST:`, extents…), then 3-byte records in
//! balanced ternary. The header's counts and extents are not used: they are often wrong.
//!
//! Each record sums ±1, ±3, ±9, ±27, ±81 units per axis from bits spread over its three bytes; the
//! third byte's flags mark jumps (0x80), colour changes (0xC0) and the end (0xF3 with all bits).
//! Some files have no end record, and some have bytes after it (a 0x1A end-of-file marker, or
//! padding): both are accepted.

use super::{Cursor, DesignError, Format, Pen, Record, RecordKind};

const HEADER_BYTES: usize = 512;

/// (byte, bit, x change, y change) for every movement bit of a record. y grows upwards in DST.
const MOVES: [(usize, u8, i32, i32); 20] = [
    (0, 0, 1, 0),
    (0, 1, -1, 0),
    (0, 2, 9, 0),
    (0, 3, -9, 0),
    (0, 7, 0, 1),
    (0, 6, 0, -1),
    (0, 5, 0, 9),
    (0, 4, 0, -9),
    (1, 0, 3, 0),
    (1, 1, -3, 0),
    (1, 2, 27, 0),
    (1, 3, -27, 0),
    (1, 7, 0, 3),
    (1, 6, 0, -3),
    (1, 5, 0, 27),
    (1, 4, 0, -27),
    (2, 2, 81, 0),
    (2, 3, -81, 0),
    (2, 5, 0, 81),
    (2, 4, 0, -81),
];

pub(super) fn read(bytes: &[u8]) -> Result<Vec<Record>, DesignError> {
    let mut cursor = Cursor::new(bytes, Format::Dst);
    let header = cursor.take(HEADER_BYTES)?;
    if !header.starts_with(b"LA:") {
        return Err(cursor.malformed(0, "it does not start with the DST label field \"LA:\""));
    }
    let mut pen = Pen::default();
    while !cursor.is_empty() {
        if cursor.remaining() < 3 {
            // A lone end-of-file marker after the last record is harmless; anything else is a
            // record cut short.
            if cursor.remaining() == 1 && bytes.last() == Some(&0x1A) {
                break;
            }
            return Err(cursor.truncated());
        }
        let record: [u8; 3] = cursor.array()?;
        let flags = record[2];
        if flags & 0xF3 == 0xF3 {
            break;
        }
        let (dx, dy) =
            MOVES.iter().fold(
                (0, 0),
                |(x, y), &(byte, bit, mx, my)| {
                    if record[byte] & (1 << bit) == 0 { (x, y) } else { (x + mx, y + my) }
                },
            );
        let kind = if flags & 0xC0 == 0xC0 {
            RecordKind::ColourChange
        } else if flags & 0x80 != 0 {
            RecordKind::Jump
        } else {
            // 0x40 alone is a sequin record on machines with a sequin device: the needle still
            // goes down, so it counts as a stitch.
            RecordKind::Stitch
        };
        pen.push(dx, -dy, kind)?;
    }
    Ok(pen.finish())
}
