//! Janome JEF: a little-endian header (the offset of the stitch data, a date, the number of colours,
//! the hoop and its extents, then a palette index and a thread type per colour), then 2-byte records
//! of signed x and y steps (y upwards). A first byte of 0x80 makes a control record: 0x01 colour
//! change and 0x02 jump (each followed by a 2-byte step), 0x10 the end.
//!
//! The palette indices name Janome threads; their colours are not stored in the file, so JEF gives
//! no colours. JEF has no trim command: machines trim after jumps.

use super::{Cursor, DesignError, Format, Pen, Record, RecordKind};

/// The fixed part of the header, before the per-colour fields (8 bytes a colour).
const FIXED_HEADER_BYTES: u32 = 116;
/// JEF headers list at most a few dozen colours; a bound keeps detection from matching noise.
const MAX_HEADER_COLOURS: u32 = 256;

/// Whether the bytes have a JEF header: the stitch data starts right after the fixed header and
/// 8 bytes per colour.
pub(super) fn looks_like_jef(bytes: &[u8]) -> bool {
    let word = |at: usize| bytes.get(at..at + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    match (word(0), word(24)) {
        (Some(offset), Some(colours)) => {
            colours <= MAX_HEADER_COLOURS
                && offset == FIXED_HEADER_BYTES + 8 * colours
                && (offset as usize) <= bytes.len()
        }
        _ => false,
    }
}

pub(super) fn read(bytes: &[u8]) -> Result<Vec<Record>, DesignError> {
    let mut header = Cursor::new(bytes, Format::Jef);
    let offset = header.u32_le()?;
    header.take(20)?;
    let colours = header.u32_le()?;
    if colours > MAX_HEADER_COLOURS || offset != FIXED_HEADER_BYTES + 8 * colours {
        return Err(header.malformed(0, "its header does not have the layout of a JEF file"));
    }
    let mut cursor = Cursor::at(bytes, offset as usize, Format::Jef)?;
    let mut pen = Pen::with_capacity(cursor.remaining() / 2);
    loop {
        // A file without its end record is cut short (unlike DST, where writers leave it out, JEF
        // writers all end with one), so running out of bytes is an error.
        let at = cursor.pos;
        let [a, b] = cursor.array()?;
        if a != 0x80 {
            pen.push(step(a), -step(b), RecordKind::Stitch)?;
            continue;
        }
        match b {
            0x10 => break,
            0x01 | 0x02 => {
                let [x, y] = cursor.array()?;
                let kind = if b == 0x01 { RecordKind::ColourChange } else { RecordKind::Jump };
                pen.push(step(x), -step(y), kind)?;
            }
            _ => return Err(cursor.malformed(at, "it has a control record JEF does not define")),
        }
    }
    Ok(pen.finish())
}

fn step(byte: u8) -> i32 {
    i32::from(i8::from_ne_bytes([byte]))
}
