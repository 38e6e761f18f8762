//! Pfaff/Husqvarna VP3: big-endian, in nested sections that each give their length. After the
//! `%vsm%` magic and a "produced by" string comes the design section: hoop and extents (not used),
//! then `xxPP`, another string, the number of colour blocks, and one section per block: its start
//! (in 1/1000 mm from the design's centre), its thread (RGB colour, type, weight, three strings),
//! then its stitches.
//!
//! Stitches are 2-byte signed steps in 0.1 mm, y downwards. A first byte of 0x80 makes a control
//! record: 0x01 a long stitch (two big-endian 16-bit steps, then 0x80 0x02), 0x02 nothing, 0x03 a
//! trim. Blocks after the first begin with a colour change, and a jump when the block starts
//! elsewhere than the last one ended.

use super::{BlockThread, Cursor, DesignError, Format, MAX_BLOCKS, Pen, Record, RecordKind};
use crate::colour::Rgb8;

pub(super) fn read(bytes: &[u8]) -> Result<(Vec<Record>, Vec<BlockThread>), DesignError> {
    let mut cursor = Cursor::new(bytes, Format::Vp3);
    if cursor.take(5)? != b"%vsm%" {
        return Err(cursor.malformed(0, "it does not start with \"%vsm%\""));
    }
    cursor.take(1)?;
    skip_string(&mut cursor)?;
    cursor.take(3)?;
    cursor.u32_be()?;
    // The design header's fixed fields (hoop, extents, counts) are not needed; rather than depend
    // on their exact layout, the block list is found after the `xxPP` mark that ends them.
    let header_start = cursor.pos;
    let mark = bytes[header_start..].windows(4).position(|w| w == b"xxPP");
    let Some(mark) = mark else {
        return Err(cursor.malformed(header_start, "its design header has no \"xxPP\" mark"));
    };
    cursor.pos = header_start + mark + 4;
    cursor.take(2)?;
    skip_string(&mut cursor)?;
    let blocks = cursor.u16_be()?;
    // Refused before any block is read, though the pen would refuse the block past the limit.
    if usize::from(blocks) > MAX_BLOCKS {
        return Err(DesignError::TooManyBlocks);
    }
    let mut pen = Pen::default();
    let mut colours = Vec::with_capacity(usize::from(blocks));
    for block in 0..blocks {
        let start = cursor.pos;
        cursor.take(3)?;
        let length = cursor.u32_be()? as usize;
        let end = cursor.pos.checked_add(length).filter(|&end| end <= bytes.len());
        let end = end.ok_or(DesignError::Truncated { format: Format::Vp3, at: bytes.len() })?;
        // Block starts are in 1/1000 mm; records are in 0.1 mm.
        let x = cursor.i32_be()? / 100;
        let y = cursor.i32_be()? / 100;
        if block == 0 {
            pen.x = x;
            pen.y = y;
        } else {
            pen.push(0, 0, RecordKind::ColourChange)?;
            if (x, y) != (pen.x, pen.y) {
                pen.push_at(x, y, RecordKind::Jump)?;
            }
        }
        colours.push(thread(&mut cursor, start)?);
        // Two 32-bit offsets, a section tag and the stitch data's length, then 0x0A 0xF6 0x00.
        cursor.take(15 + 3)?;
        if cursor.pos > end {
            return Err(cursor.malformed(start, "a colour block is shorter than its header"));
        }
        read_stitches(&mut Cursor { bytes: &bytes[..end], pos: cursor.pos, format: Format::Vp3 }, &mut pen)?;
        cursor.pos = end;
    }
    Ok((pen.finish(), colours))
}

fn thread(cursor: &mut Cursor<'_>, block_start: usize) -> Result<BlockThread, DesignError> {
    let entries = cursor.u8()?;
    cursor.u8()?;
    if entries == 0 {
        return Err(cursor.malformed(block_start, "a colour block has no thread colour"));
    }
    let [r, g, b] = cursor.array()?;
    // The rest of the first entry (3 bytes), then any further entries (6 bytes each): the first
    // entry is the thread's colour.
    cursor.take(3 + 6 * usize::from(entries - 1))?;
    // Thread type and weight, then catalogue number, description and brand.
    cursor.take(2)?;
    let number = string(cursor)?;
    let description = string(cursor)?;
    let brand = string(cursor)?;
    // Some writers put the colour's hex code where the name goes: that names nothing.
    let name =
        [brand, number, description].into_iter().filter(|part| names_something(part)).collect::<Vec<_>>();
    Ok(BlockThread { colour: Rgb8::new(r, g, b), name: (!name.is_empty()).then(|| name.join(" ")) })
}

/// Whether a part of a thread's name names something: not empty, and not a `#RRGGBB` code.
fn names_something(part: &str) -> bool {
    if part.is_empty() {
        return false;
    }
    let colour_code = part.starts_with('#') && Rgb8::parse_hex(part).is_ok();
    !colour_code
}

/// The longest part of a thread's name kept; files are untrusted, and names are short.
const MAX_NAME_PART: usize = 60;

/// A string of the file, as text fit to show: control characters dropped, trimmed, cut short.
fn string(cursor: &mut Cursor<'_>) -> Result<String, DesignError> {
    let length = cursor.u16_be()?;
    let bytes = cursor.take(usize::from(length))?;
    let text: String = String::from_utf8_lossy(bytes).chars().filter(|c| !c.is_control()).collect();
    Ok(text.trim().chars().take(MAX_NAME_PART).collect())
}

fn read_stitches(cursor: &mut Cursor<'_>, pen: &mut Pen) -> Result<(), DesignError> {
    // A block may end with one byte of padding.
    while cursor.remaining() >= 2 {
        let at = cursor.pos;
        let [a, b] = cursor.array()?;
        if a != 0x80 {
            pen.push(step(a), step(b), RecordKind::Stitch)?;
            continue;
        }
        match b {
            0x01 => {
                let dx = i32::from(cursor.i16_be()?);
                let dy = i32::from(cursor.i16_be()?);
                cursor.take(2)?;
                pen.push(dx, dy, RecordKind::Stitch)?;
            }
            0x02 => {}
            0x03 => pen.push(0, 0, RecordKind::Trim)?,
            _ => return Err(cursor.malformed(at, "it has a control record VP3 does not define")),
        }
    }
    Ok(())
}

fn skip_string(cursor: &mut Cursor<'_>) -> Result<(), DesignError> {
    let length = cursor.u16_be()?;
    cursor.take(usize::from(length))?;
    Ok(())
}

fn step(byte: u8) -> i32 {
    i32::from(i8::from_ne_bytes([byte]))
}
