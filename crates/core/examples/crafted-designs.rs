//! Writes the crafted design files of `tests/crafted` into a folder, one subfolder per fuzz
//! target: `cargo run -p bobbin-core --example crafted-designs -- fuzz/seeds` writes the seeds
//! committed there (`scripts/fuzz-designs.sh` starts each target's corpus from them). Each file is
//! at or just past a cap of the readers (`bobbin_core::design::MAX_BLOCKS`, `MAX_THREADS`), small
//! enough to commit; the largest crafted files (issue 48's 65,535-block VP3) are made by the tests
//! in memory instead.

#[path = "../tests/crafted/mod.rs"]
mod crafted;

use std::path::Path;

use bobbin_core::design::{MAX_BLOCKS, MAX_THREADS};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args().nth(1).ok_or("usage: crafted-designs FOLDER")?;
    let blocks = u16::try_from(MAX_BLOCKS)?;
    let threads = u16::try_from(MAX_THREADS)?;
    let files = [
        ("vp3", "at-the-caps.vp3", crafted::vp3(blocks, MAX_THREADS, 1)),
        ("vp3", "a-thread-too-many.vp3", crafted::vp3(threads + 1, MAX_THREADS + 1, 1)),
        // The start of issue 48's file: the header claiming 65,535 blocks, then the first blocks.
        (
            "vp3",
            "65535-blocks-claimed.vp3",
            crafted::vp3(u16::MAX, usize::from(u16::MAX), 1)[..4096].to_vec(),
        ),
        ("pes", "at-the-block-cap.pes", crafted::pes(MAX_BLOCKS, 1)),
        ("pes", "a-block-too-many.pes", crafted::pes(MAX_BLOCKS + 1, 1)),
    ];
    for (target, name, bytes) in files {
        let folder = Path::new(&out).join(target);
        std::fs::create_dir_all(&folder)?;
        std::fs::write(folder.join(name), &bytes)?;
        println!("{target}/{name}: {} bytes", bytes.len());
    }
    Ok(())
}
