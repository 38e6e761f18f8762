//! Jobs (issue 50; docs/behaviour.md, "Jobs"): a design run `quantity` times on a machine. This
//! module holds what a job works out, free of storage: which colours of the design need a thread
//! ([`slots`]), the thread Bobbin proposes for each ([`propose`]), the needles the threads go on
//! ([`needles`]), and whether the shelf holds enough of each ([`stock_check`]).
//!
//! A *slot* is one thread the design needs. Where the file stores colours (PES, VP3) a slot is one
//! of the design's threads, however many blocks it sews; where it does not (DST, EXP, JEF as read
//! here) each colour block is a slot of its own, since nothing says two blocks are the same
//! thread. The colour plan maps each slot to one of the team's threads, or to none ("buy").

use std::collections::HashSet;
use std::hash::Hash;

use serde::{Deserialize, Serialize};

use crate::colour::{Rgb8, delta_e_2000};
use crate::convert::MatchLabel;
use crate::design::{BlockUsage, ColourBlock, Design, DesignThread, Format};

/// The most pieces one job may have.
pub const MAX_QUANTITY: u32 = 1_000_000;
/// The most needles a machine may have (the largest heads carry 15 or 18).
pub const MAX_NEEDLES: u32 = 100;

/// Where a job is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum JobStatus {
    /// Being planned; reserves nothing.
    Draft,
    /// Planned and waiting for the machine; reserves its thread.
    Ready,
    /// On the machine; reserves its thread.
    Running,
    /// Every piece done (or the rest given up); its thread was taken from stock.
    Done,
    /// Not to be run; reserves nothing.
    Cancelled,
}

impl JobStatus {
    pub const ALL: [Self; 5] = [Self::Draft, Self::Ready, Self::Running, Self::Done, Self::Cancelled];

    /// Whether a job in this status holds its thread against other jobs.
    pub fn reserves(self) -> bool {
        matches!(self, Self::Ready | Self::Running)
    }

    /// Whether a job may be moved from this status to `to` by a person. Done is reached by
    /// recording pieces (or finishing), and a done job goes back to running only when a
    /// deduction is undone.
    pub fn may_become(self, to: Self) -> bool {
        use JobStatus::{Cancelled, Done, Draft, Ready, Running};
        match (self, to) {
            (from, to) if from == to => true,
            (Draft, Ready | Cancelled)
            | (Ready, Draft | Running | Cancelled)
            | (Running, Ready | Done | Cancelled)
            | (Cancelled, Draft) => true,
            _ => false,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Draft => "draft",
            Self::Ready => "ready",
            Self::Running => "running",
            Self::Done => "done",
            Self::Cancelled => "cancelled",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|status| status.as_str() == raw)
    }
}

/// What a job keeps of its design, taken when the job is made: its figures, its colour blocks
/// and the threads they need, so the plan and the run sheet stay whole when the file changes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub struct JobDesign {
    pub file_name: String,
    pub format: Format,
    pub stitches: u32,
    pub jumps: u32,
    /// Trim commands; `None` where the format has none (DST, JEF).
    pub trims: Option<u32>,
    /// The stops for a new thread.
    pub colour_changes: u32,
    pub width_mm: f64,
    pub height_mm: f64,
    pub blocks: Vec<ColourBlock>,
    pub slots: Vec<Slot>,
}

impl JobDesign {
    pub fn of(design: &Design, file_name: &str) -> Self {
        let summary = design.summary();
        let blocks = design.blocks();
        let slots = slots(&blocks, &summary.threads);
        Self {
            file_name: file_name.to_owned(),
            format: summary.format,
            stitches: summary.stitches,
            jumps: summary.jumps,
            trims: summary.trims,
            colour_changes: summary.colour_changes,
            width_mm: summary.width_mm,
            height_mm: summary.height_mm,
            blocks,
            slots,
        }
    }

    /// The slot (0-based) each block is sewn by, in stitching order.
    pub fn slot_of_blocks(&self) -> Vec<usize> {
        let mut of = vec![0; self.blocks.len()];
        for (index, slot) in self.slots.iter().enumerate() {
            for &number in &slot.blocks {
                if let Some(cell) =
                    usize::try_from(number).ok().and_then(|n| n.checked_sub(1)).and_then(|n| of.get_mut(n))
                {
                    *cell = index;
                }
            }
        }
        of
    }
}

/// One thread the design needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub struct Slot {
    /// Where the file stores it.
    pub colour: Option<Rgb8>,
    /// The file palette's name for it, where it has one.
    pub name: Option<String>,
    /// The colour blocks it sews, counted from 1, in stitching order.
    pub blocks: Vec<u32>,
}

/// The slots of a design with these blocks and threads (its summary's `threads`), in order of
/// first use.
pub fn slots(blocks: &[ColourBlock], threads: &[DesignThread]) -> Vec<Slot> {
    let mut slots: Vec<Slot> = threads
        .iter()
        .map(|thread| Slot {
            colour: Some(thread.colour),
            name: thread.name.clone(),
            blocks: thread.blocks.clone(),
        })
        .collect();
    let listed: HashSet<u32> = threads.iter().flat_map(|thread| thread.blocks.iter().copied()).collect();
    for (number, block) in (1_u32..).zip(blocks) {
        if !listed.contains(&number) {
            slots.push(Slot { colour: block.colour, name: None, blocks: vec![number] });
        }
    }
    slots.sort_by_key(|slot| slot.blocks.first().copied().unwrap_or(u32::MAX));
    slots
}

/// A thread the team owns, as the plan sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct Owned<K> {
    pub key: K,
    pub colour: Rgb8,
    /// Metres on the shelf that no other job holds.
    pub free_m: f64,
}

/// What Bobbin proposes for a slot.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub struct Proposal<K> {
    pub thread: K,
    pub delta_e: f64,
    pub label: MatchLabel,
    /// Whether it holds the metres the slot needs.
    pub enough: bool,
}

/// The thread to propose for a slot of `colour` needing `need_m`: the closest owned thread by
/// CIEDE2000 among those with enough metres free that match it at least as "similar" (below
/// [`MatchLabel::SIMILAR_BELOW`], so a white with plenty is never proposed for a red running
/// short); else the closest owned thread, whatever it holds; else none ("buy"). Ties go to the
/// earlier thread, so a proposal is stable.
pub fn propose<K: Clone>(colour: Rgb8, need_m: f64, owned: &[Owned<K>]) -> Option<Proposal<K>> {
    let lab = colour.to_lab();
    let scored = owned.iter().map(|thread| (thread, delta_e_2000(lab, thread.colour.to_lab())));
    let closest = |enough_only: bool| {
        scored
            .clone()
            .filter(|&(thread, delta_e)| {
                !enough_only || (thread.free_m >= need_m && delta_e < MatchLabel::SIMILAR_BELOW)
            })
            .min_by(|(_, a), (_, b)| a.total_cmp(b))
    };
    let (thread, delta_e) = closest(true).or_else(|| closest(false))?;
    Some(Proposal {
        thread: thread.key.clone(),
        delta_e,
        label: MatchLabel::of(delta_e),
        enough: thread.free_m >= need_m,
    })
}

/// Which needle sews each block, and what must be re-threaded on the way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub struct NeedlePlan<K> {
    /// The thread on each needle when the job starts (needle 1 first); fewer than the machine's
    /// needles when the design needs fewer.
    pub setup: Vec<K>,
    /// The needle of each block, counted from 1, in stitching order.
    pub blocks: Vec<u32>,
    /// Needles to re-thread during the run, in order: more threads than needles.
    pub rethreads: Vec<Rethread<K>>,
}

/// One re-threading: before block `before_block` (counted from 1), needle `needle` takes
/// `thread` in place of `replaces`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub struct Rethread<K> {
    pub before_block: u32,
    pub needle: u32,
    pub replaces: K,
    pub thread: K,
}

/// Puts the threads of `sequence` (each block's thread, in stitching order) on `needles`
/// needles: in order of first use, a thread used again keeping its needle. With more threads than
/// needles, the needle re-threaded is the one whose thread is next needed latest (or never),
/// which needs the fewest re-threads.
pub fn needles<K: Clone + Eq + Hash>(sequence: &[K], needles: u32) -> NeedlePlan<K> {
    let capacity = usize::try_from(needles.max(1)).unwrap_or(1);
    let mut on: Vec<K> = Vec::new();
    let mut plan = NeedlePlan { setup: Vec::new(), blocks: Vec::new(), rethreads: Vec::new() };
    for (index, thread) in sequence.iter().enumerate() {
        let needle = if let Some(at) = on.iter().position(|held| held == thread) {
            at
        } else if on.len() < capacity {
            on.push(thread.clone());
            if plan.rethreads.is_empty() {
                plan.setup.push(thread.clone());
            }
            on.len() - 1
        } else {
            let next_use =
                |held: &K| sequence[index..].iter().position(|later| later == held).unwrap_or(usize::MAX);
            // Ties (threads never needed again) go to the highest needle.
            let at = (0..on.len()).max_by_key(|&at| next_use(&on[at])).unwrap_or(0);
            plan.rethreads.push(Rethread {
                before_block: number(index),
                needle: number(at),
                replaces: on[at].clone(),
                thread: thread.clone(),
            });
            on[at] = thread.clone();
            at
        };
        plan.blocks.push(number(needle));
    }
    plan
}

/// A 0-based index as a number counted from 1.
fn number(index: usize) -> u32 {
    u32::try_from(index + 1).unwrap_or(u32::MAX)
}

/// The top thread each planned thread takes for `pieces` pieces, with the waste: the blocks'
/// usage summed by the thread their slot maps to. Slots mapped to none are left out.
pub fn thread_needs<K: Clone + Eq + Hash>(
    usage: &[BlockUsage],
    slots: &[Slot],
    plan: &[Option<K>],
    pieces: u32,
    waste_percent: f64,
) -> Vec<(K, f64)> {
    let mut needs: Vec<(K, f64)> = Vec::new();
    for (slot, thread) in slots.iter().zip(plan) {
        let Some(thread) = thread else { continue };
        let per_piece: f64 = slot
            .blocks
            .iter()
            .filter_map(|&number| usage.get(usize::try_from(number).ok()?.checked_sub(1)?))
            .map(|block| block.top_m)
            .sum();
        let metres = crate::design::with_waste(per_piece, pieces, waste_percent);
        match needs.iter_mut().find(|(key, _)| key == thread) {
            Some((_, total)) => *total += metres,
            None => needs.push((thread.clone(), metres)),
        }
    }
    needs
}

/// What the shelf holds of one thread, for the stock check.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shelf {
    /// Spools (fractions for part-used ones).
    pub spools: f64,
    /// Metres on one spool: the entry's own, else its line's default.
    pub spool_m: f64,
    /// Metres other jobs hold (ready and running jobs' needs).
    pub reserved_m: f64,
}

impl Shelf {
    pub fn held_m(&self) -> f64 {
        self.spools * self.spool_m
    }

    /// What no other job holds, 0 at least.
    pub fn free_m(&self) -> f64 {
        (self.held_m() - self.reserved_m).max(0.0)
    }
}

/// Whether one thread's stock covers a job.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "verdict")]
pub enum Verdict {
    Enough,
    /// Short by `short_m` metres: `spools` more spools cover it.
    Short {
        short_m: f64,
        spools: u32,
    },
}

/// The stock check of one thread needing `need_m`.
pub fn verdict(need_m: f64, shelf: Shelf) -> Verdict {
    let short_m = need_m - shelf.free_m();
    if short_m <= 1e-9 {
        return Verdict::Enough;
    }
    let spools = if shelf.spool_m > 0.0 { (short_m / shelf.spool_m).ceil() } else { 1.0 };
    #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a positive count, capped")]
    let spools = spools.min(f64::from(u32::MAX)) as u32;
    Verdict::Short { short_m, spools }
}

/// The metres of one spool when the entry gives none (docs/behaviour.md, "Jobs"): Robison-Anton
/// sells its 40-weight thread on 1,100-yard spools; the other makers in the catalogue on
/// 1,000-metre spools, which custom threads are taken to be too.
pub fn default_spool_m(line: Option<&str>) -> u32 {
    match line {
        Some(line) if line.starts_with("robison-anton") => 1_006,
        _ => 1_000,
    }
}

/// The spools `metres` of thread are, on spools of `spool_m`, in hundredths rounded to the
/// nearest (what completing a job takes from stock).
pub fn spool_hundredths(metres: f64, spool_m: f64) -> i64 {
    if spool_m <= 0.0 || !metres.is_finite() {
        return 0;
    }
    #[expect(clippy::cast_possible_truncation, reason = "bounded by the largest stock")]
    let hundredths = (metres / spool_m * 100.0).round().min(1e15) as i64;
    hundredths
}
