//! What a team's file is as a design (issue 49, point 3): a file the core can read (DST, PES,
//! JEF, EXP, VP3) keeps its summary (format, stitches, trims, jumps, size, threads) and its
//! colour blocks in stitching order, each with its stitches and its colour where the file has
//! one; a file that looks like a design (by its bytes or its name) but cannot be read is marked
//! so, with the reader's reason and no partial summary; any other file is no design. Read once,
//! when the file is stored, off the async workers under the heavy-work limit; the readers bound
//! their own work (`bobbin_core::design`: records, blocks and threads capped, every length
//! checked), so a crafted file neither crashes nor stalls an upload.

use bobbin_core::design::Format;
use serde_json::{Value, json};

/// What the core reads of `bytes` stored under `key`, as the JSON kept with the file; `None`
/// for a file that is no design.
pub fn describe(bytes: &[u8], key: &str) -> Option<String> {
    let format = Format::detect(bytes, Some(key))?;
    let described: Value = match format.read(bytes) {
        Ok(design) => json!({ "summary": design.summary(), "blocks": design.blocks() }),
        Err(error) => json!({ "unreadable": error.to_string() }),
    };
    Some(described.to_string())
}

/// The design JSON kept with a file, as the API shows it: `null` for a file that is no design.
pub fn shown(design: Option<&str>) -> Value {
    design.and_then(|json| serde_json::from_str(json).ok()).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_design_keeps_its_summary_and_blocks_a_broken_one_why_and_another_file_nothing() {
        let star =
            std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/designs/star.dst")).unwrap();
        let described: Value = serde_json::from_str(&describe(&star, "logos/star.dst").unwrap()).unwrap();
        assert_eq!(described["summary"]["format"], "dst");
        let stitches = described["summary"]["stitches"].as_u64().unwrap();
        let blocks = described["blocks"].as_array().unwrap();
        assert_eq!(blocks.iter().map(|block| block["stitches"].as_u64().unwrap()).sum::<u64>(), stitches);
        assert!(blocks.iter().all(|block| block["colour"].is_null()), "DST stores no colours");

        let cut: Value = serde_json::from_str(&describe(&star[..600], "star.dst").unwrap()).unwrap();
        assert!(cut["unreadable"].as_str().is_some_and(|why| !why.is_empty()), "{cut}");
        assert!(cut.get("summary").is_none());
        assert_eq!(describe(b"%PDF-1.7 a price list", "prices.pdf"), None);
        assert_eq!(shown(None), Value::Null);
    }
}
