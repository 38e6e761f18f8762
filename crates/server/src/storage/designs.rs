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

/// The most points a stored preview draws: enough for a large picture, some tens of kilobytes.
pub const PREVIEW_POINTS: usize = 4_000;

/// What the core reads of a file as a design: JSON of its summary and blocks (or why it cannot
/// be read), and a readable design's preview (SVG).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Described {
    pub design: Option<String>,
    pub preview: Option<String>,
}

/// What the core reads of `bytes` stored under `key`; nothing for a file that is no design.
pub fn describe(bytes: &[u8], key: &str) -> Described {
    let Some(format) = Format::detect(bytes, Some(key)) else { return Described::default() };
    match format.read(bytes) {
        Ok(design) => Described {
            design: Some(json!({ "summary": design.summary(), "blocks": design.blocks() }).to_string()),
            preview: Some(design.preview(PREVIEW_POINTS).to_svg()),
        },
        Err(error) => {
            Described { design: Some(json!({ "unreadable": error.to_string() }).to_string()), preview: None }
        }
    }
}

/// The design JSON kept with a file, as the API shows it: `null` for a file that is no design.
pub fn shown(design: Option<&str>) -> Value {
    design.and_then(|json| serde_json::from_str(json).ok()).unwrap_or(Value::Null)
}

/// The same without the colour blocks: what a list shows of each file.
pub fn summary_only(design: Option<&str>) -> Value {
    let mut shown = shown(design);
    if let Some(fields) = shown.as_object_mut() {
        fields.remove("blocks");
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_design_keeps_its_summary_and_blocks_a_broken_one_why_and_another_file_nothing() {
        let star =
            std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/designs/star.dst")).unwrap();
        let star_described = describe(&star, "logos/star.dst");
        assert!(star_described.preview.as_deref().is_some_and(|svg| svg.starts_with("<svg")));
        let described: Value = serde_json::from_str(&star_described.design.unwrap()).unwrap();
        assert_eq!(described["summary"]["format"], "dst");
        let stitches = described["summary"]["stitches"].as_u64().unwrap();
        let blocks = described["blocks"].as_array().unwrap();
        assert_eq!(blocks.iter().map(|block| block["stitches"].as_u64().unwrap()).sum::<u64>(), stitches);
        assert!(blocks.iter().all(|block| block["colour"].is_null()), "DST stores no colours");

        let cut = describe(&star[..600], "star.dst");
        assert_eq!(cut.preview, None);
        let cut: Value = serde_json::from_str(&cut.design.unwrap()).unwrap();
        assert!(cut["unreadable"].as_str().is_some_and(|why| !why.is_empty()), "{cut}");
        assert!(cut.get("summary").is_none());
        assert_eq!(describe(b"%PDF-1.7 a price list", "prices.pdf"), Described::default());
        assert_eq!(shown(None), Value::Null);
    }
}
