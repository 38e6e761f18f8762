//! JavaScript bindings for `bobbin-core`. This crate only wraps: each export converts its
//! arguments, calls the core and converts the result; no domain logic lives here.
//!
//! Built by `scripts/build-wasm.sh` with wasm-bindgen's `web` target into `crates/wasm/pkg/`.
//!
//! Values cross the boundary as plain objects (serde-wasm-bindgen, JSON-compatible: `None` is
//! `null`), the same shapes the server's `/api/v2` sends. Their TypeScript types are written below
//! by hand rather than derived with `tsify`, because deriving them would put wasm-bindgen into the
//! core crate; the app's unit tests call every export through the real module and check the
//! shapes, so a drift fails a test.

use std::sync::OnceLock;

use bobbin_core::catalogue::Catalogue;
use bobbin_core::colour::{Lab, delta_e_2000};
use bobbin_core::convert::{BulkRequest, ConvertRequest};
use bobbin_core::design::{self, DesignSummary, Preview};
use bobbin_core::pricing::{self, Job, Problem, Quote, Rates};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::{JsError, JsValue, wasm_bindgen};

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
}

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

export interface DesignFile { summary: DesignSummary; preview: DesignPreview }

export interface PriceRequest { rates: Partial<Rates>; job: Job; currency: string }
export type Pricing = { quote: Quote } | { problems: PriceProblem[] };
"##;

/// Runs once when the module is instantiated: a Rust panic then shows its message in the
/// browser console instead of an opaque `unreachable` trap.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// The version of the domain core compiled into this module.
#[wasm_bindgen(js_name = coreVersion)]
pub fn core_version() -> String {
    bobbin_core::VERSION.to_owned()
}

/// The catalogue handed over by [`load_catalogue`]. A page holds one for its whole life.
static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();

/// Reads the compact catalogue (`threads.bin`, fetched by the app or inlined in the widget). Call
/// once before the functions below; later calls are ignored.
#[wasm_bindgen(js_name = loadCatalogue)]
pub fn load_catalogue(bytes: Vec<u8>) -> Result<(), JsError> {
    if CATALOGUE.get().is_none() {
        // Leaked on purpose: the catalogue lives as long as the page, and its strings borrow
        // from these bytes rather than being copied.
        let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
        let catalogue = Catalogue::decode(bytes).map_err(|error| JsError::new(error.0))?;
        let _ = CATALOGUE.set(catalogue);
    }
    Ok(())
}

fn catalogue() -> Result<&'static Catalogue, JsError> {
    CATALOGUE
        .get()
        .ok_or_else(|| JsError::new("the thread catalogue is not loaded: call loadCatalogue first"))
}

/// Every line of the catalogue, without threads.
#[wasm_bindgen(js_name = catalogueLines, unchecked_return_type = "LineSummary[]")]
pub fn catalogue_lines() -> Result<JsValue, JsError> {
    to_js(&catalogue()?.summaries())
}

/// One line with its threads; throws for an unknown id.
#[wasm_bindgen(js_name = catalogueLine, unchecked_return_type = "LineDetail")]
pub fn catalogue_line(id: &str) -> Result<JsValue, JsError> {
    let catalogue = catalogue()?;
    to_js(&catalogue.detail(catalogue.line_by_id(id)?))
}

/// Threads whose code or name matches `query`, best first; `lines` (ids) limits the search when
/// not empty.
#[wasm_bindgen(js_name = searchThreads, unchecked_return_type = "ThreadView[]")]
#[expect(clippy::needless_pass_by_value, reason = "wasm-bindgen hands arrays over by value")]
pub fn search_threads(query: &str, lines: Vec<String>, limit: usize) -> Result<JsValue, JsError> {
    let catalogue = catalogue()?;
    let lines = lines.iter().map(|id| catalogue.line_by_id(id)).collect::<Result<Vec<_>, _>>()?;
    let found: Vec<_> =
        catalogue.search(query, &lines, limit).into_iter().map(|i| catalogue.view(i)).collect();
    to_js(&found)
}

/// The nearest threads to one colour in each target line.
#[wasm_bindgen(unchecked_return_type = "Conversion")]
pub fn convert(
    #[wasm_bindgen(unchecked_param_type = "ConvertRequest")] request: JsValue,
) -> Result<JsValue, JsError> {
    let request: ConvertRequest = from_js(request)?;
    to_js(&catalogue()?.convert(&request)?)
}

/// A pasted list converted to one line.
#[wasm_bindgen(js_name = convertBulk, unchecked_return_type = "BulkConversion")]
pub fn convert_bulk(
    #[wasm_bindgen(unchecked_param_type = "BulkRequest")] request: JsValue,
) -> Result<JsValue, JsError> {
    let request: BulkRequest = from_js(request)?;
    to_js(&catalogue()?.convert_bulk(&request)?)
}

/// The same bulk conversion as CSV text, for a download.
#[wasm_bindgen(js_name = convertBulkCsv)]
pub fn convert_bulk_csv(
    #[wasm_bindgen(unchecked_param_type = "BulkRequest")] request: JsValue,
) -> Result<String, JsError> {
    let request: BulkRequest = from_js(request)?;
    Ok(catalogue()?.convert_bulk(&request)?.to_csv())
}

/// The default price list, for a team that has set none.
#[wasm_bindgen(js_name = defaultRates, unchecked_return_type = "Rates")]
pub fn default_rates() -> Result<JsValue, JsError> {
    to_js(&Rates::default())
}

/// What the calculator asks the core: a price list (missing fields take the defaults), a job,
/// and the currency whose minor unit the figures are rounded to.
#[derive(Deserialize)]
struct PriceRequest {
    rates: Rates,
    job: Job,
    currency: String,
}

#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
enum Pricing {
    Quote(Quote),
    Problems(Vec<Problem>),
}

/// Prices a job: `{ quote }`, or `{ problems }` naming each input out of range. Throws only for
/// a request of the wrong shape.
#[wasm_bindgen(js_name = priceJob, unchecked_return_type = "Pricing")]
pub fn price_job(
    #[wasm_bindgen(unchecked_param_type = "PriceRequest")] request: JsValue,
) -> Result<JsValue, JsError> {
    let request: PriceRequest = from_js(request)?;
    let decimals = pricing::minor_unit_decimals(&request.currency);
    to_js(&match pricing::price(&request.rates, &request.job, decimals) {
        Ok(quote) => Pricing::Quote(quote),
        Err(problems) => Pricing::Problems(problems),
    })
}

#[derive(Serialize)]
struct DesignFile {
    summary: DesignSummary,
    preview: Preview,
}

/// Reads an embroidery design file (DST, PES, JEF, EXP or VP3; `fileName` only helps tell the
/// format, and is needed for EXP): its figures, and a preview of at most `maxPoints` points.
/// Throws a sentence to show a person for a file it cannot read.
#[wasm_bindgen(js_name = readDesign, unchecked_return_type = "DesignFile")]
pub fn read_design(bytes: &[u8], file_name: &str, max_points: usize) -> Result<JsValue, JsError> {
    let design = design::read(bytes, Some(file_name))?;
    to_js(&DesignFile { summary: design.summary(), preview: design.preview(max_points) })
}

/// CIEDE2000 between two CIELAB colours.
#[wasm_bindgen(js_name = deltaE2000)]
pub fn delta_e2000(l1: f64, a1: f64, b1: f64, l2: f64, a2: f64, b2: f64) -> f64 {
    delta_e_2000(Lab { l: l1, a: a1, b: b1 }, Lab { l: l2, a: a2, b: b2 })
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    Ok(value.serialize(&serde_wasm_bindgen::Serializer::json_compatible())?)
}

fn from_js<T: DeserializeOwned>(value: JsValue) -> Result<T, JsError> {
    Ok(serde_wasm_bindgen::from_value(value)?)
}
