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

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::ColourBlock;
#[cfg(doc)]
use super::Design;
#[cfg(doc)]
use crate::pricing::Job;

/// Metres in a yard, for teams that count thread in yards.
pub const METRES_PER_YARD: f64 = 0.9144;

/// A team's thread-usage setting (`thread_usage`): the model's factors, the waste a job adds, and
/// the unit it is shown in. Any field left out takes its default.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "snake_case")]
pub struct UsageModel {
    /// Top thread each needle penetration takes beyond the stitch's own length, in millimetres
    /// (0 to 20).
    pub take_up_mm: f64,
    /// Bobbin thread as a share of the top thread (0 to 2).
    pub bobbin_share: f64,
    /// Thread a job takes beyond its pieces', for threading, tails and breaks, in percent (0 to
    /// 100).
    pub waste_percent: f64,
    /// How lengths of thread are shown.
    pub unit: LengthUnit,
}

impl Default for UsageModel {
    fn default() -> Self {
        Self { take_up_mm: 2.5, bobbin_share: 0.6, waste_percent: 10.0, unit: LengthUnit::Metres }
    }
}

/// Metres or yards: how a team counts thread.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LengthUnit {
    #[default]
    Metres,
    Yards,
}

impl LengthUnit {
    /// `metres` in this unit.
    pub fn of_metres(self, metres: f64) -> f64 {
        match self {
            Self::Metres => metres,
            Self::Yards => metres / METRES_PER_YARD,
        }
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

impl Usage {
    /// Top and bobbin thread for one piece, in metres rounded to the centimetre: what the pricing
    /// calculator charges for (`Job::thread_m`) and a job's run sheet counts from.
    pub fn thread_m(&self) -> Decimal {
        Decimal::from_f64_retain(self.top_m + self.bobbin_m).unwrap_or_default().round_dp(2)
    }
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
        if !within(self.waste_percent, 100) {
            return Err(UsageModelError { field: "waste_percent", min: 0, max: 100 });
        }
        Ok(self)
    }

    /// The thread a design uses for one piece, from its colour blocks ([`Design::blocks`]).
    pub fn usage(&self, blocks: &[ColourBlock]) -> Usage {
        let blocks: Vec<BlockUsage> =
            blocks.iter().map(|block| self.block(block.stitches, block.sewn_mm)).collect();
        let top_m = blocks.iter().map(|block| block.top_m).sum();
        let bobbin_m = blocks.iter().map(|block| block.bobbin_m).sum();
        Usage { blocks, top_m, bobbin_m }
    }

    fn block(&self, stitches: u32, length_mm: f64) -> BlockUsage {
        let top_m = (length_mm + f64::from(stitches) * self.take_up_mm) / 1000.0;
        BlockUsage { stitches, top_m, bobbin_m: top_m * self.bobbin_share }
    }

    /// The thread `quantity` pieces take, `per_piece_m` each, with the waste on top.
    pub fn for_job(&self, per_piece_m: f64, quantity: u32) -> f64 {
        with_waste(per_piece_m, quantity, self.waste_percent)
    }
}

/// The thread `quantity` pieces take, `per_piece_m` each, with `waste_percent` more for
/// threading, tails and breaks.
pub fn with_waste(per_piece_m: f64, quantity: u32, waste_percent: f64) -> f64 {
    per_piece_m * f64::from(quantity) * (1.0 + waste_percent / 100.0)
}
