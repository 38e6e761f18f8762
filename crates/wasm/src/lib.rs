//! JavaScript bindings for `bobbin-core`. This crate only wraps: each export converts its
//! arguments, calls the core and converts the result; no domain logic lives here.
//!
//! Built by `scripts/build-wasm.sh` with wasm-bindgen's `web` target into `crates/wasm/pkg/`, as
//! two modules, each of its feature: `converter` (the thread catalogue and the converter:
//! `bobbin_wasm`, which every page's footer and the widget load) and `pricing` (the pricing model
//! and the design-file readers: `bobbin_pricing`, loaded by the pricing calculator alone). Apart,
//! neither carries the other's code, so the module most pages load stays small
//! (docs/benchmarks.md, "Front-end weight"). Both features are on by default, for the tests and
//! the native build.
//!
//! Values cross the boundary as plain objects (serde-wasm-bindgen, JSON-compatible: `None` is
//! `null`), the same shapes the server's `/api/v2` sends. Their TypeScript types are written below
//! by hand rather than derived with `tsify`, because deriving them would put wasm-bindgen into the
//! core crate; the app's unit tests call every export through the real module and check the
//! shapes, so a drift fails a test.

use serde::Serialize;
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::{JsError, JsValue, wasm_bindgen};

#[cfg(feature = "converter")]
mod converter;
#[cfg(feature = "pricing")]
mod pricing;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r##"
export type Fibre = "polyester" | "rayon" | "cotton" | "wool-blend" | "nylon" | "metallic" | "acrylic" | "other";
export type LineKind = "thread" | "reference";
export type MatchLabel = "indistinguishable" | "close" | "similar" | "poor";

export interface LineSummary {
  id: string;
  brand: string;
  name: string;
  display_name: string;
  fibre: Fibre | null;
  weight: number | null;
  kind: LineKind;
  source: string;
  thread_count: number;
  duplicate_codes: number;
  conflicting_codes: number;
}

export interface CodeIssue {
  code: string;
  kind: "duplicate" | "conflict";
  /** Line numbers in the line's data file. */
  rows: number[];
}

export interface LineDetail extends LineSummary {
  threads: ThreadView[];
  issues: CodeIssue[];
}

export interface ThreadView {
  line: string;
  line_name: string;
  code: string;
  name: string;
  /** "#RRGGBB" */
  hex: string;
  conflict: boolean;
  /** Why its charted colour may be wrong: its matches are then at best "similar". */
  doubt: Doubt | null;
}

export type Doubt = 'sources-disagree' | 'name-disagrees' | 'placeholder';

export interface Lab { l: number; a: number; b: number }
export interface ThreadRef { line: string; code: string }

export type Source =
  | { thread: ThreadRef }
  | { hex: string }
  | { rgb: [number, number, number] }
  | { lab: Lab };

export interface ConvertRequest {
  from: Source;
  /** Line ids; empty or missing means every thread line. */
  to?: string[];
  /** Matches per line, 1 to 20 (default 5). */
  matches?: number;
  /** Only consider these threads ("threads we own"). */
  candidates?: ThreadRef[] | null;
}

export interface ResolvedSource {
  hex: string;
  lab: Lab;
  thread: ThreadView | null;
  out_of_gamut: boolean;
}

export interface Match {
  thread: ThreadView;
  delta_e: number;
  label: MatchLabel;
  /** Why it is listed above a nearer match of a better label, when it is. */
  note: string | null;
}

export interface LineMatches {
  line: string;
  line_name: string;
  matches: Match[];
}

export interface Conversion {
  source: ResolvedSource;
  lines: LineMatches[];
}

export interface BulkRequest {
  /** The line the pasted codes belong to. */
  from?: string | null;
  to: string;
  input: string;
  /** Next-best matches per row besides the best (default 2). */
  alternatives?: number;
}

export interface BulkRow {
  row: number;
  input: string;
  source: ResolvedSource | null;
  matches: Match[];
  error: string | null;
}

export interface BulkConversion {
  line: string;
  line_name: string;
  rows: BulkRow[];
}

/** An exact decimal amount as text, e.g. "7.12" (inputs may also be numbers). */
export type Amount = string;

export type BreakRate = { price_per_thousand: Amount } | { discount_percent: Amount };
export type QuantityBreak = { min_quantity: number } & BreakRate;
export type Profit = { markup_percent: Amount } | { margin_percent: Amount };

/** A shop's price list (bobbin_core::pricing::Rates); every field has a default. */
export interface Rates {
  price_per_thousand: Amount;
  minimum_stitches: number;
  quantity_breaks: QuantityBreak[];
  setup_fee: Amount;
  digitising_fee: Amount;
  included_colours: number;
  colour_fee: Amount;
  extra_location_fee: Amount;
  backing_cost: Amount;
  thread_metres_per_thousand: Amount;
  thread_cost_per_1000_m: Amount;
  rush_percent: Amount;
  profit: Profit;
  tax_percent: Amount;
  efficiency_percent: Amount;
  hoop_minutes: Amount;
}

export interface Job {
  stitches: number;
  colours: number;
  quantity: number;
  locations?: number;
  garment_cost?: Amount;
  digitising?: boolean;
  rush?: boolean;
  one_off_fees?: "spread" | "separate";
  machine?: { stitches_per_minute: number; heads: number } | null;
  /** Thread per piece in metres, from the design by the thread-usage model (threadUsage). */
  thread_m?: Amount | null;
}

export type PriceItem =
  | "stitches" | "colours" | "extra_locations" | "garment" | "backing" | "thread" | "profit"
  | "setup_fee" | "digitising_fee" | "rush" | "tax";

export interface Quote {
  decimals: number;
  billable_stitches: number;
  price_per_thousand: Amount;
  quantity_break: QuantityBreak | null;
  per_piece: Amount;
  one_off: Amount;
  total: Amount;
  lines: { item: PriceItem; per_piece: Amount | null; total: Amount }[];
  machine_time: {
    minutes_per_piece: Amount;
    runs: number;
    hours: Amount;
    price_per_hour: Amount;
    price_per_hour_after_materials: Amount;
  } | null;
}

/** What is wrong with one input; `field` is its path, e.g. "job.quantity". */
export interface PriceProblem { field: string; code: string; message: string }

export type DesignFormat = "dst" | "pes" | "jef" | "exp" | "vp3";

/** A design file's figures, counted from its stitch records (bobbin_core::design::DesignSummary). */
export interface DesignSummary {
  format: DesignFormat;
  stitches: number;
  jumps: number;
  /** null where the format has no trim command (DST, JEF). */
  trims: number | null;
  colour_changes: number;
  colours: number;
  width_mm: number;
  height_mm: number;
  /** "#RRGGBB" per colour block, where the file stores colours (PES, VP3). */
  thread_colours: string[];
  /** The threads of those blocks, each once, in order of first use. Absent from the figures of
   * quotes saved before it was added. */
  threads?: DesignThread[];
  /** Threads the machine is set up with: the distinct threads, plus one per block whose colour
   * the file does not store. Absent from quotes saved before it was added. */
  threads_needed?: number;
}

/** One thread a design needs (bobbin_core::design::DesignThread). */
export interface DesignThread {
  /** "#RRGGBB". */
  colour: string;
  /** The file palette's name for it (PES, VP3), or null. */
  name: string | null;
  /** The colour blocks sewn with it, counted from 1. */
  blocks: number[];
}

/** Polylines per colour block in 0.1 mm, y downwards, for drawing as SVG. */
export interface DesignPreview {
  min_x: number;
  min_y: number;
  max_x: number;
  max_y: number;
  blocks: { colour: string | null; lines: [number, number][][] }[];
}

/** One colour block in stitching order (bobbin_core::design::ColourBlock). */
export interface ColourBlock {
  stitches: number;
  /** The length its stitches lay, in mm (what the thread-usage model counts from). */
  sewn_mm: number;
  /** "#RRGGBB" where the file stores it (PES, VP3), else null. */
  colour: string | null;
}

export interface DesignFile { summary: DesignSummary; blocks: ColourBlock[]; preview: DesignPreview }

/** The thread a design takes for one piece (bobbin_core::design::Usage), in metres. */
export interface ThreadUsage {
  blocks: { stitches: number; top_m: number; bobbin_m: number }[];
  top_m: number;
  bobbin_m: number;
  /** Top and bobbin, rounded to the centimetre: the pricing job's thread_m. */
  thread_m: Amount;
}

export interface PriceRequest { rates: Partial<Rates>; job: Job; currency: string }
export type Pricing = { quote: Quote } | { problems: PriceProblem[] };
"##;

/// The version of the domain core compiled into this module.
#[wasm_bindgen(js_name = coreVersion)]
pub fn core_version() -> String {
    bobbin_core::VERSION.to_owned()
}

pub(crate) fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    Ok(value.serialize(&serde_wasm_bindgen::Serializer::json_compatible())?)
}

pub(crate) fn from_js<T: DeserializeOwned>(value: JsValue) -> Result<T, JsError> {
    Ok(serde_wasm_bindgen::from_value(value)?)
}
