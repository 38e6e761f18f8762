//! Tajima DST: a 512-byte header of text fields (`LA:`, `ST:`, extents…), then 3-byte records in
//! balanced ternary. The header's counts and extents are not used: they are often wrong.
//!
//! Each record sums ±1, ±3, ±9, ±27, ±81 units per axis from bits spread over its three bytes; the
//! third byte's flags mark jumps (0x80), colour changes (0xC0) and the end (0xF3 with all bits).
//! Some files have no end record, and some have bytes after it (a 0x1A end-of-file marker, or
//! padding): both are accepted.

use super::{Cursor, DesignError, Format, Pen, Record, RecordKind};

const HEADER_BYTES: usize = 512;

/// The movement a record's bits make, worked out with shifts rather than by testing each of its
/// 20 movement bits in turn (`MOVES` in the tests lists them, and the tests check this against it).
/// Bytes 0 and 1 use the same layout, byte 1 three times larger: bits 0 and 1 are +1 and −1 in x,
/// bits 2 and 3 are +9 and −9 in x, bits 7 and 6 are +1 and −1 in y, bits 5 and 4 are +9 and −9 in
/// y. Byte 2 has only the ±81 steps (bits 2, 3 in x and 5, 4 in y); its other bits are flags. y
/// grows upwards in DST.
fn movement(record: [u8; 3]) -> (i32, i32) {
    let bit = |byte: u8, n: u32| i32::from((byte >> n) & 1);
    let small_x = |byte: u8| bit(byte, 0) - bit(byte, 1);
    let large_x = |byte: u8| bit(byte, 2) - bit(byte, 3);
    let small_y = |byte: u8| bit(byte, 7) - bit(byte, 6);
    let large_y = |byte: u8| bit(byte, 5) - bit(byte, 4);
    let [r0, r1, r2] = record;
    let dx = small_x(r0) + 9 * large_x(r0) + 3 * small_x(r1) + 27 * large_x(r1) + 81 * large_x(r2);
    let dy = small_y(r0) + 9 * large_y(r0) + 3 * small_y(r1) + 27 * large_y(r1) + 81 * large_y(r2);
    (dx, dy)
}

pub(super) fn read(bytes: &[u8]) -> Result<Vec<Record>, DesignError> {
    let mut cursor = Cursor::new(bytes, Format::Dst);
    let header = cursor.take(HEADER_BYTES)?;
    if !header.starts_with(b"LA:") {
        return Err(cursor.malformed(0, "it does not start with the DST label field \"LA:\""));
    }
    let mut pen = Pen::with_capacity(bytes.len().saturating_sub(HEADER_BYTES) / 3);
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
        let (dx, dy) = movement(record);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// (byte, bit, x change, y change) for every movement bit of a record, as the format defines.
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

    /// The movement is the sum of the table's entries whose bits are set, for every value of each
    /// byte alone and for records with bits set in all three.
    #[test]
    fn movement_sums_the_format_s_table() {
        let by_table =
            |record: [u8; 3]| {
                MOVES.iter().fold((0, 0), |(x, y), &(byte, bit, mx, my)| {
                    if record[byte] & (1 << bit) == 0 { (x, y) } else { (x + mx, y + my) }
                })
            };
        for value in 0..=255_u8 {
            for record in [[value, 0, 0], [0, value, 0], [0, 0, value], [value, value.rotate_left(3), !value]]
            {
                assert_eq!(movement(record), by_table(record), "{record:02X?}");
            }
        }
    }
}
