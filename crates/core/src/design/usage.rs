//! How much thread a design uses (issue 50): top-thread and bobbin metres per colour block, from
//! the stitch geometry, with a model a team may tune (docs/behaviour.md, "Thread usage").
//!
//! The model: each needle-down stitch takes its own length of top thread (the straight distance
//! from the needle's last position, when the needle was stitching there) plus a take-up: the
//! thread that goes down through the fabric and its backing and back up around the bobbin
//! thread, the same for every penetration. The bobbin thread is a share of the top thread. A
//! stitch after a jump, a trim or a colour change is tied in where it lands: it takes the take-up
//! alone, and the thread a jump drags is left out (it is trimmed away or hidden). The design
//! starts with the needle at its origin.
//!
//! The defaults (2.5 mm take-up, bobbin 60% of the top) put the sample designs, whose stitches
//! are 1.9 to 2.6 mm long on average, at 4.4 to 5.1 m of top thread and 2.6 to 3.1 m of bobbin
//! thread per 1,000 stitches: near the trade rule of about 5 m of top and 3 m of bobbin thread per
//! 1,000 stitches (Madeira's glossary, "Thread consumption").

use serde::{Deserialize, Serialize};

use super::{Design, RecordKind};

/// Metres in a yard, for teams that count thread in yards.
pub const METRES_PER_YARD: f64 = 0.9144;

/// The model's factors.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "snake_case")]
pub struct UsageModel {
    /// Top thread each needle penetration takes beyond the stitch's own length, in millimetres
    /// (0 to 20).
    pub take_up_mm: f64,
    /// Bobbin thread as a share of the top thread (0 to 2).
    pub bobbin_share: f64,
}

impl Default for UsageModel {
    fn default() -> Self {
        Self { take_up_mm: 2.5, bobbin_share: 0.6 }
    }
}

/// A factor of the model out of its range, named.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field} must be a number from {min} to {max}.")]
pub struct UsageModelError {
    pub field: &'static str,
    pub min: u32,
    pub max: u32,
}

/// The thread one colour block uses, for one piece.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub struct BlockUsage {
    pub stitches: u32,
    pub top_m: f64,
    pub bobbin_m: f64,
}

/// The thread a design uses for one piece: per colour block in stitching order (the blocks of
/// [`Design::blocks`]), and in all.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub struct Usage {
    pub blocks: Vec<BlockUsage>,
    pub top_m: f64,
    pub bobbin_m: f64,
}

impl UsageModel {
    /// The model, if every factor is in its range.
    ///
    /// # Errors
    ///
    /// The first factor out of its range (or not a finite number).
    pub fn checked(self) -> Result<Self, UsageModelError> {
        let within = |value: f64, max: u32| value.is_finite() && (0.0..=f64::from(max)).contains(&value);
        if !within(self.take_up_mm, 20) {
            return Err(UsageModelError { field: "take_up_mm", min: 0, max: 20 });
        }
        if !within(self.bobbin_share, 2) {
            return Err(UsageModelError { field: "bobbin_share", min: 0, max: 2 });
        }
        Ok(self)
    }

    /// The thread `design` uses for one piece.
    pub fn usage(&self, design: &Design) -> Usage {
        let mut blocks = Vec::new();
        let (mut stitches, mut length_mm) = (0_u32, 0.0_f64);
        // Where the needle last went down while stitching: the design starts there, at 0, 0.
        let mut needle: Option<(i32, i32)> = Some((0, 0));
        for record in design.records() {
            match record.kind {
                RecordKind::Stitch => {
                    stitches += 1;
                    if let Some((x, y)) = needle {
                        let (dx, dy) =
                            (f64::from(record.x) - f64::from(x), f64::from(record.y) - f64::from(y));
                        // Records are in 0.1 mm.
                        length_mm += dx.hypot(dy) / 10.0;
                    }
                    needle = Some((record.x, record.y));
                }
                RecordKind::Jump | RecordKind::Trim => needle = None,
                RecordKind::ColourChange | RecordKind::End => {
                    blocks.push(self.block(stitches, length_mm));
                    (stitches, length_mm, needle) = (0, 0.0, None);
                }
            }
        }
        // The blocks as `Design::blocks` counts them: none for a design without a stitch.
        if blocks.iter().all(|block| block.stitches == 0) {
            blocks.clear();
        }
        let top_m = blocks.iter().map(|block| block.top_m).sum();
        let bobbin_m = blocks.iter().map(|block| block.bobbin_m).sum();
        Usage { blocks, top_m, bobbin_m }
    }

    fn block(&self, stitches: u32, length_mm: f64) -> BlockUsage {
        let top_m = (length_mm + f64::from(stitches) * self.take_up_mm) / 1000.0;
        BlockUsage { stitches, top_m, bobbin_m: top_m * self.bobbin_share }
    }
}

/// The thread `quantity` pieces take, `per_piece_m` each, with `waste_percent` more for
/// threading, tails and breaks.
pub fn with_waste(per_piece_m: f64, quantity: u32, waste_percent: f64) -> f64 {
    per_piece_m * f64::from(quantity) * (1.0 + waste_percent / 100.0)
}
