/* tslint:disable */
/* eslint-disable */

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



/**
 * One line with its threads; throws for an unknown id.
 */
export function catalogueLine(id: string): LineDetail;

/**
 * Every line of the catalogue, without threads.
 */
export function catalogueLines(): LineSummary[];

/**
 * The nearest threads to one colour in each target line.
 */
export function convert(request: ConvertRequest): Conversion;

/**
 * A pasted list converted to one line.
 */
export function convertBulk(request: BulkRequest): BulkConversion;

/**
 * The same bulk conversion as CSV text, for a download.
 */
export function convertBulkCsv(request: BulkRequest): string;

/**
 * The version of the domain core compiled into this module.
 */
export function coreVersion(): string;

/**
 * The default price list, for a team that has set none.
 */
export function defaultRates(): Rates;

/**
 * CIEDE2000 between two CIELAB colours.
 */
export function deltaE2000(l1: number, a1: number, b1: number, l2: number, a2: number, b2: number): number;

/**
 * Reads the compact catalogue (`threads.bin`, fetched by the app or inlined in the widget). Call
 * once before the functions below; later calls are ignored.
 */
export function loadCatalogue(bytes: Uint8Array | number[]): void;

/**
 * Prices a job: `{ quote }`, or `{ problems }` naming each input out of range. Throws only for
 * a request of the wrong shape.
 */
export function priceJob(request: PriceRequest): Pricing;

/**
 * Reads an embroidery design file (DST, PES, JEF, EXP or VP3; `fileName` only helps tell the
 * format, and is needed for EXP): its figures, and a preview of at most `maxPoints` points.
 * Throws a sentence to show a person for a file it cannot read.
 */
export function readDesign(bytes: Uint8Array | number[], file_name: string, max_points: number): DesignFile;

/**
 * Threads whose code or name matches `query`, best first; `lines` (ids) limits the search when
 * not empty.
 */
export function searchThreads(query: string, lines: string[], limit: number): ThreadView[];

/**
 * Runs once when the module is instantiated: a Rust panic then shows its message in the
 * browser console instead of an opaque `unreachable` trap.
 */
export function start(): void;

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly catalogueLine: (a: number, b: number) => [number, number, number];
    readonly catalogueLines: () => [number, number, number];
    readonly convert: (a: any) => [number, number, number];
    readonly convertBulk: (a: any) => [number, number, number];
    readonly convertBulkCsv: (a: any) => [number, number, number, number];
    readonly coreVersion: () => [number, number];
    readonly defaultRates: () => [number, number, number];
    readonly deltaE2000: (a: number, b: number, c: number, d: number, e: number, f: number) => number;
    readonly loadCatalogue: (a: number, b: number) => [number, number];
    readonly priceJob: (a: any) => [number, number, number];
    readonly readDesign: (a: number, b: number, c: number, d: number, e: number) => [number, number, number];
    readonly searchThreads: (a: number, b: number, c: number, d: number, e: number) => [number, number, number];
    readonly start: () => void;
    readonly __wbindgen_malloc: (a: number, b: number) => number;
    readonly __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
    readonly __wbindgen_free: (a: number, b: number, c: number) => void;
    readonly __wbindgen_exn_store: (a: number) => void;
    readonly __externref_table_alloc: () => number;
    readonly __wbindgen_externrefs: WebAssembly.Table;
    readonly __externref_table_dealloc: (a: number) => void;
    readonly __externref_drop_slice: (a: number, b: number) => void;
    readonly __wbindgen_start: () => void;
}

export type SyncInitInput = BufferSource | WebAssembly.Module;

/**
 * Instantiates the given `module`, which can either be bytes or
 * a precompiled `WebAssembly.Module`.
 *
 * @param {{ module: SyncInitInput }} module - Passing `SyncInitInput` directly is deprecated.
 *
 * @returns {InitOutput}
 */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;

/**
 * If `module_or_path` is {RequestInfo} or {URL}, makes a request and
 * for everything else, calls `WebAssembly.instantiate` directly.
 *
 * @param {{ module_or_path: InitInput | Promise<InitInput> }} module_or_path - Passing `InitInput` directly is deprecated.
 *
 * @returns {Promise<InitOutput>}
 */
export default function __wbg_init (module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<InitOutput>;
