//! Brother PES: `#PES` and a 4-character version, then the offset of the PEC section, which every
//! version has and which holds what a machine needs: at 48 the number of colours less one and a PEC
//! palette index for each colour block, and at 528 the stitches. The PES section before it (thread
//! charts, shapes, metadata) differs by version and is not needed: the PEC index of each block gives
//! its colour, whatever the PES thread chart says (charts list each thread once, not each block).
//!
//! PEC stitches are 1 byte per axis for steps in -64..=63, else 2 bytes (a 12-bit signed step, first
//! byte with bit 0x80, 0x10 for a jump and 0x20 for a trim). 0xFE 0xB0 and one more byte is a colour
//! change; 0xFF is the end. y grows downwards.

use super::{Cursor, DesignError, Format, Pen, Record, RecordKind};
use crate::colour::Rgb8;

/// Where the PEC section's colour count is.
const PEC_COLOUR_COUNT: usize = 48;
/// Where the stitch list starts: with the move from the origin to the design's first point, which
/// PE-Design writes as a jump (often described as two header fields, then stitches from 532; read
/// as a record it is the jump every design starts with).
const PEC_START: usize = 528;
/// Where an empty design's stitch list ends (see `read`).
const PEC_EMPTY_END: usize = 524;

pub(super) fn read(bytes: &[u8]) -> Result<(Vec<Record>, Vec<Rgb8>), DesignError> {
    let mut header = Cursor::new(bytes, Format::Pes);
    if header.take(4)? != b"#PES" {
        return Err(header.malformed(0, "it does not start with \"#PES\""));
    }
    header.take(4)?;
    let pec = header.u32_le()? as usize;
    let mut colours_at = Cursor::at(bytes, pec.saturating_add(PEC_COLOUR_COUNT), Format::Pes)?;
    // 0xFF, one less than none, is how empty designs say they have no colours.
    let count = usize::from(colours_at.u8()?.wrapping_add(1));
    let stored_colours = colours_at.take(count)?.iter().map(|&i| pec_colour(i)).collect();
    let mut cursor = Cursor::at(bytes, pec.saturating_add(PEC_START), Format::Pes)?;
    let mut pen = Pen::default();
    // Writers of empty designs end the stitch list where the size fields end, so the byte that
    // otherwise holds a constant (0xE0) is the end mark.
    if bytes.get(pec.saturating_add(PEC_EMPTY_END)) == Some(&0xFF) {
        return Ok((pen.finish(), stored_colours));
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
    Ok((pen.finish(), stored_colours))
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

/// The colour of a PEC palette index. Out-of-range indices (which some writers use for custom
/// threads) fall back to entry 0, as Brother machines do.
fn pec_colour(index: u8) -> Rgb8 {
    let (r, g, b) = PEC_PALETTE.get(usize::from(index)).copied().unwrap_or(PEC_PALETTE[0]);
    Rgb8::new(r, g, b)
}

/// Brother's fixed 65-entry PEC thread palette (entry 0 is "unknown"), as machines show it.
const PEC_PALETTE: [(u8, u8, u8); 65] = [
    (0, 0, 0),       // 0 unknown
    (14, 31, 124),   // 1 Prussian blue
    (10, 85, 163),   // 2 blue
    (0, 135, 119),   // 3 teal green
    (75, 107, 175),  // 4 cornflower blue
    (237, 23, 31),   // 5 red
    (209, 92, 0),    // 6 reddish brown
    (145, 54, 151),  // 7 magenta
    (228, 154, 203), // 8 light lilac
    (145, 95, 172),  // 9 lilac
    (158, 214, 125), // 10 mint green
    (232, 169, 0),   // 11 deep gold
    (254, 186, 53),  // 12 orange
    (255, 255, 0),   // 13 yellow
    (112, 188, 31),  // 14 lime green
    (186, 152, 0),   // 15 brass
    (168, 168, 168), // 16 silver
    (125, 111, 0),   // 17 russet brown
    (255, 255, 179), // 18 cream brown
    (79, 85, 86),    // 19 pewter
    (0, 0, 0),       // 20 black
    (11, 61, 145),   // 21 ultramarine
    (119, 1, 118),   // 22 royal purple
    (41, 49, 51),    // 23 dark grey
    (42, 19, 1),     // 24 dark brown
    (246, 74, 138),  // 25 deep rose
    (178, 118, 36),  // 26 light brown
    (252, 187, 197), // 27 salmon pink
    (254, 55, 15),   // 28 vermilion
    (240, 240, 240), // 29 white
    (106, 28, 138),  // 30 violet
    (168, 221, 196), // 31 seacrest
    (37, 132, 187),  // 32 sky blue
    (254, 179, 67),  // 33 pumpkin
    (255, 243, 107), // 34 cream yellow
    (208, 166, 96),  // 35 khaki
    (209, 84, 0),    // 36 clay brown
    (102, 186, 73),  // 37 leaf green
    (19, 74, 70),    // 38 peacock blue
    (135, 135, 135), // 39 grey
    (216, 204, 198), // 40 warm grey
    (67, 86, 7),     // 41 dark olive
    (253, 217, 222), // 42 linen
    (249, 147, 188), // 43 pink
    (0, 56, 34),     // 44 deep green
    (178, 175, 212), // 45 lavender
    (104, 106, 176), // 46 wisteria violet
    (239, 227, 185), // 47 beige
    (247, 56, 102),  // 48 carmine
    (181, 75, 100),  // 49 amber red
    (19, 43, 26),    // 50 olive green
    (199, 1, 86),    // 51 dark fuchsia
    (254, 158, 50),  // 52 tangerine
    (168, 222, 235), // 53 light blue
    (0, 103, 62),    // 54 emerald green
    (78, 41, 144),   // 55 purple
    (47, 126, 32),   // 56 moss green
    (255, 204, 204), // 57 flesh pink
    (255, 217, 17),  // 58 harvest gold
    (9, 91, 166),    // 59 electric blue
    (240, 249, 112), // 60 lemon yellow
    (227, 243, 91),  // 61 fresh green
    (255, 153, 0),   // 62 appliqué material
    (255, 240, 141), // 63 appliqué position
    (255, 200, 200), // 64 appliqué
];
