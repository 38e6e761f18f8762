//! Brother PES: `#PES` and a 4-character version, then the offset of the PEC section, which every
//! version has and which holds what a machine needs: at 48 the number of colours less one and a PEC
//! palette index for each colour block, and at 528 the stitches. The PES section before it (thread
//! charts, shapes, metadata) differs by version and is not needed: the PEC index of each block gives
//! its colour, whatever the PES thread chart says (charts list each thread once, not each block).
//!
//! PEC stitches are 1 byte per axis for steps in -64..=63, else 2 bytes (a 12-bit signed step, first
//! byte with bit 0x80, 0x10 for a jump and 0x20 for a trim). 0xFE 0xB0 and one more byte is a colour
//! change; 0xFF is the end. y grows downwards.

use super::{BlockThread, Cursor, DesignError, Format, Pen, Record, RecordKind};
use crate::colour::Rgb8;

/// Where the PEC section's colour count is.
const PEC_COLOUR_COUNT: usize = 48;
/// Where the stitch list starts: with the move from the origin to the design's first point, which
/// PE-Design writes as a jump (often described as two header fields, then stitches from 532; read
/// as a record it is the jump every design starts with).
const PEC_START: usize = 528;
/// Where an empty design's stitch list ends (see `read`).
const PEC_EMPTY_END: usize = 524;

pub(super) fn read(bytes: &[u8]) -> Result<(Vec<Record>, Vec<BlockThread>), DesignError> {
    let mut header = Cursor::new(bytes, Format::Pes);
    if header.take(4)? != b"#PES" {
        return Err(header.malformed(0, "it does not start with \"#PES\""));
    }
    header.take(4)?;
    let pec = header.u32_le()? as usize;
    let mut colours_at = Cursor::at(bytes, pec.saturating_add(PEC_COLOUR_COUNT), Format::Pes)?;
    // 0xFF, one less than none, is how empty designs say they have no colours.
    let count = usize::from(colours_at.u8()?.wrapping_add(1));
    let stored_threads = colours_at.take(count)?.iter().map(|&i| pec_thread(i)).collect();
    let mut cursor = Cursor::at(bytes, pec.saturating_add(PEC_START), Format::Pes)?;
    let mut pen = Pen::with_capacity(cursor.remaining() / 2);
    // Writers of empty designs end the stitch list where the size fields end, so the byte that
    // otherwise holds a constant (0xE0) is the end mark.
    if bytes.get(pec.saturating_add(PEC_EMPTY_END)) == Some(&0xFF) {
        return Ok((pen.finish(), stored_threads));
    }
    loop {
        let first = cursor.u8()?;
        if first == 0xFF {
            break;
        }
        if first == 0xFE && cursor.bytes.get(cursor.pos) == Some(&0xB0) {
            cursor.take(2)?;
            pen.push(0, 0, RecordKind::ColourChange)?;
            continue;
        }
        let (dx, x_flags) = coordinate(&mut cursor, first)?;
        let second = cursor.u8()?;
        let (dy, y_flags) = coordinate(&mut cursor, second)?;
        let flags = x_flags | y_flags;
        if flags & TRIM != 0 {
            // A trim, then the move to where stitching resumes.
            pen.push(0, 0, RecordKind::Trim)?;
            pen.push(dx, dy, RecordKind::Jump)?;
        } else if flags & JUMP != 0 {
            pen.push(dx, dy, RecordKind::Jump)?;
        } else {
            pen.push(dx, dy, RecordKind::Stitch)?;
        }
    }
    Ok((pen.finish(), stored_threads))
}

const LONG: u8 = 0x80;
const TRIM: u8 = 0x20;
const JUMP: u8 = 0x10;

/// One axis's step, given its first byte: the step and the long form's flags (0 for short steps).
fn coordinate(cursor: &mut Cursor<'_>, first: u8) -> Result<(i32, u8), DesignError> {
    if first & LONG == 0 {
        let value = i32::from(first);
        return Ok((if value > 0x3F { value - 0x80 } else { value }, 0));
    }
    let low = cursor.u8()?;
    let value = (i32::from(first & 0x0F) << 8) | i32::from(low);
    Ok((if value >= 0x800 { value - 0x1000 } else { value }, first & (TRIM | JUMP)))
}

/// The thread of a PEC palette index. Out-of-range indices (which some writers use for custom
/// threads) fall back to entry 0, as Brother machines do.
fn pec_thread(index: u8) -> BlockThread {
    let (name, r, g, b) = PEC_PALETTE.get(usize::from(index)).copied().unwrap_or(PEC_PALETTE[0]);
    BlockThread { colour: Rgb8::new(r, g, b), name: (!name.is_empty()).then(|| name.to_owned()) }
}

/// Brother's fixed 65-entry PEC thread palette, with the names machines show (entry 0 is
/// "unknown": no name).
const PEC_PALETTE: [(&str, u8, u8, u8); 65] = [
    ("", 0, 0, 0),
    ("Prussian Blue", 14, 31, 124),
    ("Blue", 10, 85, 163),
    ("Teal Green", 0, 135, 119),
    ("Cornflower Blue", 75, 107, 175),
    ("Red", 237, 23, 31),
    ("Reddish Brown", 209, 92, 0),
    ("Magenta", 145, 54, 151),
    ("Light Lilac", 228, 154, 203),
    ("Lilac", 145, 95, 172),
    ("Mint Green", 158, 214, 125),
    ("Deep Gold", 232, 169, 0),
    ("Orange", 254, 186, 53),
    ("Yellow", 255, 255, 0),
    ("Lime Green", 112, 188, 31),
    ("Brass", 186, 152, 0),
    ("Silver", 168, 168, 168),
    ("Russet Brown", 125, 111, 0),
    ("Cream Brown", 255, 255, 179),
    ("Pewter", 79, 85, 86),
    ("Black", 0, 0, 0),
    ("Ultramarine", 11, 61, 145),
    ("Royal Purple", 119, 1, 118),
    ("Dark Grey", 41, 49, 51),
    ("Dark Brown", 42, 19, 1),
    ("Deep Rose", 246, 74, 138),
    ("Light Brown", 178, 118, 36),
    ("Salmon Pink", 252, 187, 197),
    ("Vermilion", 254, 55, 15),
    ("White", 240, 240, 240),
    ("Violet", 106, 28, 138),
    ("Seacrest", 168, 221, 196),
    ("Sky Blue", 37, 132, 187),
    ("Pumpkin", 254, 179, 67),
    ("Cream Yellow", 255, 243, 107),
    ("Khaki", 208, 166, 96),
    ("Clay Brown", 209, 84, 0),
    ("Leaf Green", 102, 186, 73),
    ("Peacock Blue", 19, 74, 70),
    ("Grey", 135, 135, 135),
    ("Warm Grey", 216, 204, 198),
    ("Dark Olive", 67, 86, 7),
    ("Linen", 253, 217, 222),
    ("Pink", 249, 147, 188),
    ("Deep Green", 0, 56, 34),
    ("Lavender", 178, 175, 212),
    ("Wisteria Violet", 104, 106, 176),
    ("Beige", 239, 227, 185),
    ("Carmine", 247, 56, 102),
    ("Amber Red", 181, 75, 100),
    ("Olive Green", 19, 43, 26),
    ("Dark Fuchsia", 199, 1, 86),
    ("Tangerine", 254, 158, 50),
    ("Light Blue", 168, 222, 235),
    ("Emerald Green", 0, 103, 62),
    ("Purple", 78, 41, 144),
    ("Moss Green", 47, 126, 32),
    ("Flesh Pink", 255, 204, 204),
    ("Harvest Gold", 255, 217, 17),
    ("Electric Blue", 9, 91, 166),
    ("Lemon Yellow", 240, 249, 112),
    ("Fresh Green", 227, 243, 91),
    ("Appliqué Material", 255, 153, 0),
    ("Appliqué Position", 255, 240, 141),
    ("Appliqué", 255, 200, 200),
];
