//! Melco EXP: no header, only 2-byte records of signed x and y steps (y upwards). A first byte of
//! 0x80 makes a control record whose second byte says what the next 2-byte step is: 0x01 a colour
//! change, 0x02 a stitch, 0x04 a jump; 0x80 is a trim (its step is read and ignored). There is no
//! end record: the file ends where the records do.

use super::{Cursor, DesignError, Format, Pen, Record, RecordKind};

pub(super) fn read(bytes: &[u8]) -> Result<Vec<Record>, DesignError> {
    let mut cursor = Cursor::new(bytes, Format::Exp);
    let mut pen = Pen::with_capacity(bytes.len() / 2);
    while !cursor.is_empty() {
        // Some writers end the file with an end-of-file marker.
        if cursor.remaining() == 1 && bytes.last() == Some(&0x1A) {
            break;
        }
        let at = cursor.pos;
        let [a, b] = cursor.array()?;
        if a != 0x80 {
            pen.push(step(a), -step(b), RecordKind::Stitch)?;
            continue;
        }
        let [x, y] = cursor.array()?;
        let (dx, dy) = (step(x), -step(y));
        match b {
            0x01 => pen.push(dx, dy, RecordKind::ColourChange)?,
            0x02 => pen.push(dx, dy, RecordKind::Stitch)?,
            0x04 => pen.push(dx, dy, RecordKind::Jump)?,
            0x80 => pen.push(0, 0, RecordKind::Trim)?,
            _ => return Err(cursor.malformed(at, "it has a control record EXP does not define")),
        }
    }
    Ok(pen.finish())
}

fn step(byte: u8) -> i32 {
    i32::from(i8::from_ne_bytes([byte]))
}
