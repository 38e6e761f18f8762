//! Embroidery design files: Tajima DST, Brother PES, Janome JEF, Melco EXP and Pfaff/Husqvarna VP3,
//! read into one list of stitch records from which the figures a price needs (stitch count, colour
//! count, trims, size) are computed.
//!
//! The readers are written here rather than taken from a crate (checked in 2026-11). The one Rust
//! crate that reads these formats natively, `rustitch` (0.x, one author, recently published), is
//! built around PNG thumbnails and depends on `png` and `tiny-skia`, which would grow the
//! WebAssembly module for a preview the browser draws as SVG; and the figures here must follow one
//! exact definition (`testdata/designs/README.md`: trims only where the format has a trim
//! command, each PES block's colour through its PEC index, counts from the records). The other,
//! `libembroidery-sys`, binds a C library and cannot go to WebAssembly. The formats are small: each
//! reader is a few dozen lines over a bounds-checked `Cursor`.
//!
//! Rules every reader keeps, so a damaged or hostile file gives an error and never a panic or a hang:
//! every read goes through `Cursor`, which checks bounds; every loop consumes at least one byte or
//! moves strictly forward; files over [`MAX_FILE_BYTES`], designs over [`MAX_RECORDS`] records or
//! [`MAX_BLOCKS`] colour blocks, and designs listing more than [`MAX_THREADS`] threads are refused;
//! coordinates saturate rather than overflow. Reading and summarising cost time linear in the
//! file's size, whatever its bytes: no step looks back over the blocks or threads read before (a
//! file of many blocks whose thread names differ only at their ends once made merging the threads
//! quadratic). Figures come from the stitch records, never from header fields (headers are often
//! wrong: see `testdata/designs/README.md`).
//!
//! Coordinates are in file units of 0.1 mm, with y growing downwards (as on a screen and in SVG);
//! formats whose y grows upwards (DST, EXP, JEF) are flipped when read.

mod dst;
mod exp;
mod jef;
mod pes;
mod usage;
mod vp3;

pub use usage::{BlockUsage, LengthUnit, METRES_PER_YARD, Usage, UsageModel, UsageModelError, with_waste};

use std::collections::HashMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::colour::Rgb8;

/// Files larger than this are refused before reading: real designs are well under 2 MiB.
pub const MAX_FILE_BYTES: usize = 16 * 1024 * 1024;
/// Designs with more stitch records than this are refused (large commercial designs have a few
/// hundred thousand), which bounds the memory and time a hostile file can take.
pub const MAX_RECORDS: usize = 2_000_000;
/// Designs with more colour blocks than this are refused: large commercial designs change colour
/// a few hundred times at most, and the pricing model takes at most as many colours.
pub const MAX_BLOCKS: usize = 1_000;
/// Designs whose blocks are sewn with more distinct threads than this are refused: real designs
/// use a few dozen; PES and JEF files cannot list more. It also bounds the threads the
/// calculator looks up in the inventory at once.
pub const MAX_THREADS: usize = 256;

/// A design-file format Bobbin reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Tajima DST: a 512-byte text header, then 3-byte records.
    Dst,
    /// Brother PES: a PES header pointing at a PEC section with the palette and stitches.
    Pes,
    /// Janome JEF: a binary header with the colours, then 2-byte records.
    Jef,
    /// Melco EXP: no header, 2-byte records.
    Exp,
    /// Pfaff/Husqvarna VP3: big-endian sections, one per colour block, with RGB colours.
    Vp3,
}

impl Format {
    /// The format a file is in: by its magic bytes first, then by its file name's extension. EXP
    /// files have no magic bytes, so they are only recognised by name.
    pub fn detect(bytes: &[u8], name_hint: Option<&str>) -> Option<Self> {
        if bytes.starts_with(b"#PES") {
            return Some(Self::Pes);
        }
        if bytes.starts_with(b"%vsm%") {
            return Some(Self::Vp3);
        }
        if jef::looks_like_jef(bytes) {
            return Some(Self::Jef);
        }
        // Even when shorter than its 512-byte header: a DST cut short should say so.
        if bytes.starts_with(b"LA:") {
            return Some(Self::Dst);
        }
        name_hint.and_then(Self::from_file_name)
    }

    /// The format a file name's extension names, in any case: `star.DST` is DST.
    pub fn from_file_name(name: &str) -> Option<Self> {
        let (_, extension) = name.rsplit_once('.')?;
        match extension.to_ascii_lowercase().as_str() {
            "dst" => Some(Self::Dst),
            "pes" => Some(Self::Pes),
            "jef" => Some(Self::Jef),
            "exp" => Some(Self::Exp),
            "vp3" => Some(Self::Vp3),
            _ => None,
        }
    }

    /// Reads `bytes` as this format, whatever the bytes look like (for a caller that knows better
    /// than detection, and for fuzzing one reader at a time).
    pub fn read(self, bytes: &[u8]) -> Result<Design, DesignError> {
        if bytes.is_empty() {
            return Err(DesignError::Empty);
        }
        if bytes.len() > MAX_FILE_BYTES {
            return Err(DesignError::FileTooLarge { bytes: bytes.len() });
        }
        let (records, mut stored_threads) = match self {
            Self::Dst => (dst::read(bytes)?, Vec::new()),
            Self::Pes => pes::read(bytes)?,
            Self::Jef => (jef::read(bytes)?, Vec::new()),
            Self::Exp => (exp::read(bytes)?, Vec::new()),
            Self::Vp3 => vp3::read(bytes)?,
        };
        // A file may list more threads than its records sew blocks: those name nothing.
        stored_threads.truncate(tally(&records).colours() as usize);
        let threads = distinct_threads(&stored_threads);
        if threads.len() > MAX_THREADS {
            return Err(DesignError::TooManyThreads);
        }
        Ok(Design { format: self, records, stored_threads, threads })
    }

    /// Whether the format has a trim command of its own. DST and JEF have none: machines trim after
    /// a run of jumps, so their trims cannot be counted from the records.
    pub fn has_trim_command(self) -> bool {
        !matches!(self, Self::Dst | Self::Jef)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Dst => "DST",
            Self::Pes => "PES",
            Self::Jef => "JEF",
            Self::Exp => "EXP",
            Self::Vp3 => "VP3",
        })
    }
}

/// Reads a design file, detecting its format from its bytes and, for EXP, its name.
pub fn read(bytes: &[u8], name_hint: Option<&str>) -> Result<Design, DesignError> {
    if bytes.is_empty() {
        return Err(DesignError::Empty);
    }
    if bytes.len() > MAX_FILE_BYTES {
        return Err(DesignError::FileTooLarge { bytes: bytes.len() });
    }
    Format::detect(bytes, name_hint).ok_or(DesignError::UnknownFormat)?.read(bytes)
}

/// Why a design file could not be read. The messages are for the person who chose the file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DesignError {
    #[error("This file is empty; choose the design file again.")]
    Empty,
    #[error(
        "This file is not a design format Bobbin reads (DST, PES, JEF, VP3, or EXP by its .exp \
         name); save the design in one of those formats."
    )]
    UnknownFormat,
    #[error("This file is {bytes} bytes; design files over 16 MiB are refused.")]
    FileTooLarge { bytes: usize },
    #[error("This design has more than 2,000,000 stitch records; designs that large are refused.")]
    TooManyRecords,
    #[error(
        "This design has more than 1,000 colour blocks; designs with that many colour changes are \
         refused."
    )]
    TooManyBlocks,
    #[error("This design uses more than 256 different threads; designs with that many are refused.")]
    TooManyThreads,
    #[error("This {format} file ends early (byte {at}); it may be damaged or only partly copied.")]
    Truncated { format: Format, at: usize },
    #[error("This {format} file is damaged at byte {at}: {reason}.")]
    Malformed { format: Format, at: usize, reason: &'static str },
}

/// What one stitch record does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordKind {
    /// The needle goes down at this point.
    Stitch,
    /// The frame moves to this point without stitching.
    Jump,
    /// The thread is cut (at the current point).
    Trim,
    /// The machine stops for the next thread; the point is where it resumes from.
    ColourChange,
    /// The design ends. Every design read has exactly one, last.
    End,
}

/// One stitch record at an absolute position, in 0.1 mm units, y downwards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Record {
    pub x: i32,
    pub y: i32,
    pub kind: RecordKind,
}

/// A design read from a file: its stitch records and, where the format stores them, its colour
/// blocks' threads.
#[derive(Debug, Clone, PartialEq)]
pub struct Design {
    format: Format,
    records: Vec<Record>,
    /// The thread of each block the records sew, where the file stores them (never more than the
    /// blocks).
    stored_threads: Vec<BlockThread>,
    /// The distinct threads of `stored_threads`, at most [`MAX_THREADS`].
    threads: Vec<DesignThread>,
}

/// The thread a file gives a colour block: its colour, and its name where the file's palette
/// has one (PES: Brother's palette names; VP3: the brand, number and name the file lists).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BlockThread {
    pub colour: Rgb8,
    pub name: Option<String>,
}

/// One thread a design needs: blocks sewn with the same thread (the same colour and palette
/// name) are one spool on the machine, however often the design comes back to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub struct DesignThread {
    pub colour: Rgb8,
    /// The palette's name for it, where the file has one.
    pub name: Option<String>,
    /// The colour blocks sewn with it, counted from 1, in stitch order.
    pub blocks: Vec<u32>,
}

/// The figures of a design, computed from its stitch records only.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub struct DesignSummary {
    pub format: Format,
    /// Stitch records: needle penetrations.
    pub stitches: u32,
    /// Moves without stitching.
    pub jumps: u32,
    /// Trim commands; `None` where the format has none (DST, JEF).
    pub trims: Option<u32>,
    pub colour_changes: u32,
    /// Colour blocks: colour changes + 1, or 0 for a design with no stitches.
    pub colours: u32,
    /// The width of the stitches' bounding box.
    pub width_mm: f64,
    /// The height of the stitches' bounding box.
    pub height_mm: f64,
    /// The colour of each block in stitch order, where the file stores them (PES, VP3); may be
    /// shorter than `colours` when the file lists fewer colours than it has blocks.
    pub thread_colours: Vec<Rgb8>,
    /// The threads the blocks of `thread_colours` are sewn with, each once, in order of first use.
    pub threads: Vec<DesignThread>,
    /// The threads a machine must be set up with: the distinct threads of the blocks whose
    /// colour the file stores, plus one for each block whose colour it does not (DST, JEF, EXP:
    /// every block), since nothing says two of those are the same. The pricing calculator's
    /// extra-colour fee counts these (docs/behaviour.md, "Pricing").
    pub threads_needed: u32,
}

/// One colour block of a design, in stitching order: how many stitches it sews, the thread its
/// stitches lay, and its colour where the file stores one (PES, VP3; never DST, JEF as read
/// here, or EXP). What the thread-usage model needs of a design ([`UsageModel::usage`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub struct ColourBlock {
    pub stitches: u32,
    /// The length of the block's stitches, in millimetres: each needle-down stitch's straight
    /// distance from where the needle last went down while stitching. A stitch after a jump, a
    /// trim or a colour change is tied in where it lands and counts nothing; the design starts
    /// with the needle at its origin.
    pub sewn_mm: f64,
    pub colour: Option<Rgb8>,
}

/// A thinned outline of a design for drawing: per colour block, the lines its stitches make.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub struct Preview {
    /// The stitches' bounding box, in 0.1 mm units, y downwards (all 0 for an empty design).
    pub min_x: i32,
    pub min_y: i32,
    pub max_x: i32,
    pub max_y: i32,
    pub blocks: Vec<PreviewBlock>,
}

/// One colour block of a [`Preview`]: polylines of `[x, y]` points, broken at every jump and trim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub struct PreviewBlock {
    /// The block's colour where the file stores one.
    pub colour: Option<Rgb8>,
    pub lines: Vec<Vec<[i32; 2]>>,
}

/// The colours a preview draws blocks whose file stores none with, in turn: the pricing page's
/// (`app-react/src/features/pricing/components/DesignView.tsx`).
pub const NEUTRALS: [&str; 8] =
    ["#44403c", "#a8a29e", "#1e3a8a", "#78716c", "#0f766e", "#57534e", "#9f1239", "#d6d3d1"];

impl Preview {
    /// The preview as an SVG document, drawn as the pricing page draws it: one polyline per run
    /// of stitches, each block in its colour (or the next of [`NEUTRALS`]), in a box with a 4%
    /// margin, lines 1.25 px wide whatever the size it is shown at. It holds numbers and colours
    /// only, nothing of the file's text.
    pub fn to_svg(&self) -> String {
        use std::fmt::Write as _;

        let width = i64::from(self.max_x) - i64::from(self.min_x);
        let height = i64::from(self.max_y) - i64::from(self.min_y);
        let (width, height) = (width.max(1), height.max(1));
        let margin = width.max(height) * 4 / 100;
        let mut svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"{} {} {} {}\" preserveAspectRatio=\"xMidYMid meet\" \
             stroke-width=\"1.25\" fill=\"none\" stroke-linejoin=\"round\" stroke-linecap=\"round\">",
            i64::from(self.min_x) - margin,
            i64::from(self.min_y) - margin,
            width + 2 * margin,
            height + 2 * margin,
        );
        let mut neutral = NEUTRALS.iter().cycle();
        for block in &self.blocks {
            let colour = block
                .colour
                .map_or_else(|| (*neutral.next().unwrap_or(&NEUTRALS[0])).to_owned(), |c| c.to_string());
            let _ = write!(svg, "<g stroke=\"{colour}\">");
            for line in &block.lines {
                svg.push_str("<polyline vector-effect=\"non-scaling-stroke\" points=\"");
                for (index, [x, y]) in line.iter().enumerate() {
                    let _ = write!(svg, "{}{x},{y}", if index == 0 { "" } else { " " });
                }
                svg.push_str("\"/>");
            }
            svg.push_str("</g>");
        }
        svg.push_str("</svg>");
        svg
    }
}

/// The stitches' bounding box: (min x, min y, max x, max y), or `None` without stitches.
type Bounds = (i32, i32, i32, i32);

/// The records of each kind, and the stitches' bounding box. At most [`MAX_RECORDS`] records
/// (plus the end), so every count fits in a u32.
#[derive(Debug, Default)]
struct Tally {
    stitches: u32,
    jumps: u32,
    trims: u32,
    colour_changes: u32,
    bounds: Option<Bounds>,
}

impl Tally {
    /// The number of colour blocks: colour changes + 1, or 0 without stitches.
    fn colours(&self) -> u32 {
        if self.stitches > 0 { self.colour_changes.saturating_add(1) } else { 0 }
    }
}

/// The records of each kind and the stitches' bounding box, in one pass over the records.
fn tally(records: &[Record]) -> Tally {
    let mut tally = Tally::default();
    let (mut x0, mut y0, mut x1, mut y1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
    for record in records {
        match record.kind {
            RecordKind::Stitch => {
                tally.stitches += 1;
                (x0, y0) = (x0.min(record.x), y0.min(record.y));
                (x1, y1) = (x1.max(record.x), y1.max(record.y));
            }
            RecordKind::Jump => tally.jumps += 1,
            RecordKind::Trim => tally.trims += 1,
            RecordKind::ColourChange => tally.colour_changes += 1,
            RecordKind::End => {}
        }
    }
    tally.bounds = (tally.stitches > 0).then_some((x0, y0, x1, y1));
    tally
}

impl Design {
    pub fn format(&self) -> Format {
        self.format
    }

    /// The stitch records in order, ending with one [`RecordKind::End`].
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    fn bounds(&self) -> Option<Bounds> {
        tally(&self.records).bounds
    }

    /// The design's figures, computed from the records (never from header fields).
    pub fn summary(&self) -> DesignSummary {
        let tally = tally(&self.records);
        let (width, height) = tally.bounds.map_or((0, 0), |(x0, y0, x1, y1)| {
            (i64::from(x1) - i64::from(x0), i64::from(y1) - i64::from(y0))
        });
        let colours = tally.colours();
        let stored = &self.stored_threads;
        // Both at most `colours`, a u32 (`read` keeps a thread for each block at most).
        let unstored = colours.saturating_sub(u32::try_from(stored.len()).unwrap_or(colours));
        let threads_needed = u32::try_from(self.threads.len()).unwrap_or(u32::MAX).saturating_add(unstored);
        DesignSummary {
            format: self.format,
            stitches: tally.stitches,
            jumps: tally.jumps,
            trims: self.format.has_trim_command().then_some(tally.trims),
            colour_changes: tally.colour_changes,
            colours,
            #[expect(clippy::cast_precision_loss, reason = "extents are far below 2^52")]
            width_mm: width as f64 / 10.0,
            #[expect(clippy::cast_precision_loss, reason = "extents are far below 2^52")]
            height_mm: height as f64 / 10.0,
            thread_colours: stored.iter().map(|thread| thread.colour).collect(),
            threads: self.threads.clone(),
            threads_needed,
        }
    }

    /// The colour blocks in stitching order, each with its stitches and its colour where the
    /// file stores one: as many as the summary's `colours` (none without stitches).
    pub fn blocks(&self) -> Vec<ColourBlock> {
        let mut blocks = Vec::new();
        let (mut stitches, mut sewn_mm) = (0_u32, 0.0_f64);
        // Where the needle last went down while stitching: the design starts there, at 0, 0.
        let mut needle: Option<(i32, i32)> = Some((0, 0));
        for record in &self.records {
            match record.kind {
                RecordKind::Stitch => {
                    stitches += 1;
                    if let Some((x, y)) = needle {
                        let (dx, dy) =
                            (f64::from(record.x) - f64::from(x), f64::from(record.y) - f64::from(y));
                        // Records are in 0.1 mm.
                        sewn_mm += dx.hypot(dy) / 10.0;
                    }
                    needle = Some((record.x, record.y));
                }
                RecordKind::Jump | RecordKind::Trim => needle = None,
                RecordKind::ColourChange | RecordKind::End => {
                    let colour = self.stored_threads.get(blocks.len()).map(|thread| thread.colour);
                    blocks.push(ColourBlock { stitches, sewn_mm, colour });
                    (stitches, sewn_mm, needle) = (0, 0.0, None);
                }
            }
        }
        // As the summary counts them: colour changes + 1 blocks, or none without a stitch.
        if blocks.iter().all(|block| block.stitches == 0) {
            blocks.clear();
        }
        blocks
    }

    /// An outline for drawing, with at most `max_points` points in all: when the design has more
    /// stitches, every n-th stitch is kept, evenly through the design.
    pub fn preview(&self, max_points: usize) -> Preview {
        let (min_x, min_y, max_x, max_y) = self.bounds().unwrap_or((0, 0, 0, 0));
        let total = self.records.iter().filter(|r| r.kind == RecordKind::Stitch).count();
        let step = if max_points == 0 { usize::MAX } else { total.div_ceil(max_points).max(1) };
        let mut blocks: Vec<PreviewBlock> = Vec::new();
        let mut line: Vec<[i32; 2]> = Vec::new();
        let mut lines: Vec<Vec<[i32; 2]>> = Vec::new();
        let mut stitch_index = 0usize;
        // The colour block a record is in: a block with nothing to draw still takes its colour.
        let mut block_index = 0usize;
        let mut flush_block = |lines: &mut Vec<Vec<[i32; 2]>>, blocks: &mut Vec<PreviewBlock>| {
            if !lines.is_empty() {
                blocks.push(PreviewBlock {
                    colour: self.stored_threads.get(block_index).map(|thread| thread.colour),
                    lines: std::mem::take(lines),
                });
            }
            block_index += 1;
        };
        for record in &self.records {
            match record.kind {
                RecordKind::Stitch => {
                    if max_points != 0 && stitch_index.is_multiple_of(step) {
                        line.push([record.x, record.y]);
                    }
                    stitch_index += 1;
                }
                RecordKind::Jump | RecordKind::Trim => {
                    if !line.is_empty() {
                        lines.push(std::mem::take(&mut line));
                    }
                }
                RecordKind::ColourChange | RecordKind::End => {
                    if !line.is_empty() {
                        lines.push(std::mem::take(&mut line));
                    }
                    flush_block(&mut lines, &mut blocks);
                }
            }
        }
        Preview { min_x, min_y, max_x, max_y, blocks }
    }
}

/// A bounds-checked reader over a file's bytes: every read either advances or fails with
/// [`DesignError::Truncated`].
#[derive(Debug)]
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    format: Format,
}

impl<'a> Cursor<'a> {
    fn new(bytes: &'a [u8], format: Format) -> Self {
        Self { bytes, pos: 0, format }
    }

    fn at(bytes: &'a [u8], pos: usize, format: Format) -> Result<Self, DesignError> {
        if pos > bytes.len() {
            return Err(DesignError::Truncated { format, at: bytes.len() });
        }
        Ok(Self { bytes, pos, format })
    }

    fn is_empty(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    /// The file ended before a field that had to be there: reported at the file's end, where the
    /// person can see the damage (a cut-short copy), rather than at the field's start.
    fn truncated(&self) -> DesignError {
        DesignError::Truncated { format: self.format, at: self.bytes.len() }
    }

    fn malformed(&self, at: usize, reason: &'static str) -> DesignError {
        DesignError::Malformed { format: self.format, at, reason }
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], DesignError> {
        let end = self.pos.checked_add(n).filter(|&end| end <= self.bytes.len());
        let end = end.ok_or_else(|| self.truncated())?;
        let slice = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(slice)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], DesignError> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    fn u8(&mut self) -> Result<u8, DesignError> {
        Ok(self.array::<1>()?[0])
    }

    fn u16_be(&mut self) -> Result<u16, DesignError> {
        Ok(u16::from_be_bytes(self.array()?))
    }

    fn i16_be(&mut self) -> Result<i16, DesignError> {
        Ok(i16::from_be_bytes(self.array()?))
    }

    fn u32_be(&mut self) -> Result<u32, DesignError> {
        Ok(u32::from_be_bytes(self.array()?))
    }

    fn i32_be(&mut self) -> Result<i32, DesignError> {
        Ok(i32::from_be_bytes(self.array()?))
    }

    fn u32_le(&mut self) -> Result<u32, DesignError> {
        Ok(u32::from_le_bytes(self.array()?))
    }
}

/// The pen: its position, and the records it has made so far (up to the record and block
/// limits).
#[derive(Debug, Default)]
struct Pen {
    records: Vec<Record>,
    colour_changes: usize,
    x: i32,
    y: i32,
}

impl Pen {
    /// A pen with room for `records` records (at most [`MAX_RECORDS`]), for a format whose size
    /// gives their number.
    fn with_capacity(records: usize) -> Self {
        Self { records: Vec::with_capacity(records.min(MAX_RECORDS) + 1), ..Self::default() }
    }

    /// Moves the pen by (dx, dy) and records `kind` there.
    #[inline]
    fn push(&mut self, dx: i32, dy: i32, kind: RecordKind) -> Result<(), DesignError> {
        if self.records.len() >= MAX_RECORDS {
            return Err(DesignError::TooManyRecords);
        }
        if kind == RecordKind::ColourChange {
            // Each colour change starts one more block after the first.
            if self.colour_changes + 1 >= MAX_BLOCKS {
                return Err(DesignError::TooManyBlocks);
            }
            self.colour_changes += 1;
        }
        // Saturating: a hostile file can sum to any offset, and a panic is worse than a wrong
        // position in a design that size.
        self.x = self.x.saturating_add(dx);
        self.y = self.y.saturating_add(dy);
        self.records.push(Record { x: self.x, y: self.y, kind });
        Ok(())
    }

    /// Moves the pen to an absolute position and records `kind` there.
    fn push_at(&mut self, x: i32, y: i32, kind: RecordKind) -> Result<(), DesignError> {
        self.x = x;
        self.y = y;
        self.push(0, 0, kind)
    }

    fn finish(mut self) -> Vec<Record> {
        // The End record may be the 2,000,001st: the limit is on the records a file supplies.
        self.records.push(Record { x: self.x, y: self.y, kind: RecordKind::End });
        self.records
    }
}

/// The blocks' threads merged: one entry per distinct thread, in order of first use. Each block's
/// thread is found by hashing its colour and name, so the time is linear in the blocks and their
/// names' length (a search through the threads seen so far was quadratic).
fn distinct_threads(blocks: &[BlockThread]) -> Vec<DesignThread> {
    let mut threads: Vec<DesignThread> = Vec::new();
    let mut index: HashMap<(Rgb8, Option<&str>), usize> = HashMap::new();
    for (block, thread) in (1u32..).zip(blocks) {
        let at = *index.entry((thread.colour, thread.name.as_deref())).or_insert_with(|| {
            threads.push(DesignThread {
                colour: thread.colour,
                name: thread.name.clone(),
                blocks: Vec::new(),
            });
            threads.len() - 1
        });
        threads[at].blocks.push(block);
    }
    threads
}
