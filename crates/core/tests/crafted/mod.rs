//! Crafted design files: what a hostile file can make of the formats' colour blocks and thread
//! names, written byte by byte the way each reader in `bobbin_core::design` reads them. Used by
//! the time test in `tests/designs.rs` and by `examples/crafted-designs.rs`, which writes the fuzz
//! targets' seeds (`fuzz/seeds/`).
//!
//! Every stitch is a small step right or back (the design stays 1 mm wide), so a crafted file and a
//! plain one differ only in their blocks and names.

/// The longest part of a VP3 thread name the reader keeps (`vp3::MAX_NAME_PART`).
const NAME_PART: usize = 60;

/// A VP3 whose header says `blocks` colour blocks, each one red thread of `stitches` stitches.
/// With `names` above 0 the blocks' threads cycle through that many names, each of a brand and a
/// description of the longest kept length that differ only in their last characters (the costliest
/// names to tell apart); with 0 the threads have no name (a plain file).
pub fn vp3(blocks: u16, names: usize, stitches: usize) -> Vec<u8> {
    let mut bytes = b"%vsm%\0".to_vec();
    string(&mut bytes, "Produced by a crafted-file generator");
    bytes.extend_from_slice(&[0x00, 0x02, 0x00]);
    bytes.extend_from_slice(&0_u32.to_be_bytes());
    // The design header's hoop and extents, which the reader skips up to the `xxPP` mark.
    bytes.extend_from_slice(&[0; 24]);
    bytes.extend_from_slice(b"xxPP\x01\x00");
    string(&mut bytes, "");
    bytes.extend_from_slice(&blocks.to_be_bytes());
    let brand = "B".repeat(NAME_PART);
    for block in 0..usize::from(blocks) {
        let (brand, description) = if names == 0 {
            (String::new(), String::new())
        } else {
            let n = (block % names).to_string();
            (brand.clone(), format!("{}{n}", "D".repeat(NAME_PART - n.len())))
        };
        let mut body = Vec::new();
        // The block's start (1/1000 mm from the centre): every block starts where the last ended.
        body.extend_from_slice(&0_i32.to_be_bytes());
        body.extend_from_slice(&0_i32.to_be_bytes());
        // One colour entry (red, then 3 bytes), thread type and weight, number, description, brand.
        body.extend_from_slice(&[0x01, 0x00, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x28]);
        string(&mut body, "1800");
        string(&mut body, &description);
        string(&mut body, &brand);
        // Two offsets, a section tag and the stitch data's length, then 0x0A 0xF6 0x00.
        body.extend_from_slice(&[0; 8]);
        body.extend_from_slice(&[0x00, 0x01, 0x00]);
        body.extend_from_slice(&u32::try_from(3 + 2 * stitches).expect("a block's length").to_be_bytes());
        body.extend_from_slice(&[0x0A, 0xF6, 0x00]);
        for stitch in 0..stitches {
            body.extend_from_slice(if stitch % 2 == 0 { &[0x0A, 0x00] } else { &[0xF6, 0x00] });
        }
        bytes.extend_from_slice(&[0x00, 0x05, 0x00]);
        bytes.extend_from_slice(&u32::try_from(body.len()).expect("a block's length").to_be_bytes());
        bytes.extend_from_slice(&body);
    }
    bytes
}

/// A VP3 string: its length (big-endian u16), then its bytes.
fn string(bytes: &mut Vec<u8>, text: &str) {
    bytes.extend_from_slice(&u16::try_from(text.len()).expect("a short string").to_be_bytes());
    bytes.extend_from_slice(text.as_bytes());
}

/// Where the PEC section starts in the files written here: right after the PES header.
const PEC: usize = 12;

/// A PES of `blocks` colour blocks, each of `stitches` stitches, whose PEC colour list has the
/// most entries it can (255) and cycles through the palette's named threads, each listed many
/// times over.
pub fn pes(blocks: usize, stitches: usize) -> Vec<u8> {
    let mut bytes = b"#PES0001".to_vec();
    bytes.extend_from_slice(&u32::try_from(PEC).expect("a small offset").to_le_bytes());
    // The PEC header: its label and, at 48, the colours less one and their palette indices; its
    // stitches begin at 528.
    let mut pec = vec![0x20_u8; 528];
    pec[48] = 0xFE;
    for (entry, index) in pec[49..49 + 255].iter_mut().zip((1..=64_u8).cycle()) {
        *entry = index;
    }
    bytes.extend_from_slice(&pec);
    for block in 0..blocks {
        if block > 0 {
            bytes.extend_from_slice(&[0xFE, 0xB0, 0x01]);
        }
        for stitch in 0..stitches {
            // Short form: 1 byte an axis, 7-bit signed.
            bytes.extend_from_slice(if stitch % 2 == 0 { &[0x0A, 0x00] } else { &[0x76, 0x00] });
        }
    }
    bytes.push(0xFF);
    bytes
}
