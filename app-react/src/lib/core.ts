// The thin facade over the WebAssembly core (crates/wasm), two modules: the converter's
// (`bobbin_wasm`, with the core's version, which every page's footer shows) and the pricing
// calculator's (`bobbin_pricing`: the pricing model and the design-file readers), so the pages that
// convert colours, and the footer, never fetch the pricing code. Each module is fetched and compiled
// once per page load, streamed (WebAssembly.instantiateStreaming, since the server sends
// application/wasm) from a content-hashed URL the browser caches for good. The thread catalogue is
// a separate hashed file, fetched only by pages that convert colours, so every other page loads
// just the code. Design files are read by the pricing module in a Web Worker (design-reader.ts),
// off the page's main thread. Callers never touch wasm-bindgen's generated modules directly.
import { queryOptions } from '@tanstack/react-query';
import catalogueUrl from '@bobbin/core-wasm/threads.bin';
import wasmUrl from '@bobbin/core-wasm/bobbin_wasm_bg.wasm';
import pricingWasmUrl from '@bobbin/core-wasm/bobbin_pricing_bg.wasm';
import type {
  BulkConversion,
  ColourBlock,
  BulkRequest,
  Conversion,
  ConvertRequest,
  LineDetail,
  LineSummary,
  PriceRequest,
  Pricing,
  Rates,
  ThreadUsage,
  ThreadView,
} from '@bobbin/core-wasm';

import { readable } from './core-errors';
import { retriedFetch } from './query-client';

export type {
  Amount,
  BreakRate,
  BulkConversion,
  BulkRequest,
  BulkRow,
  ColourBlock,
  Conversion,
  ConvertRequest,
  DesignFile,
  DesignFormat,
  DesignPreview,
  DesignSummary,
  DesignThread,
  Doubt,
  Job,
  LineDetail,
  LineMatches,
  LineSummary,
  Match,
  MatchLabel,
  PriceItem,
  PriceProblem,
  PriceRequest,
  Pricing,
  Profit,
  QuantityBreak,
  Quote,
  Rates,
  ResolvedSource,
  Source,
  ThreadRef,
  ThreadUsage,
  ThreadView,
} from '@bobbin/core-wasm';

type WasmModule = typeof import('@bobbin/core-wasm');
type PricingModule = typeof import('@bobbin/core-wasm/bobbin_pricing');

export interface Core {
  /** Version of the domain core compiled into the module. */
  version: string;
}

/** The thread catalogue and converter, running in the page. Bad input throws an Error whose
 * message is written for people. */
export interface Converter {
  lines(): LineSummary[];
  line(id: string): LineDetail;
  search(query: string, lines: string[], limit: number): ThreadView[];
  convert(request: ConvertRequest): Conversion;
  convertBulk(request: BulkRequest): BulkConversion;
  convertBulkCsv(request: BulkRequest): string;
  deltaE2000(l1: number, a1: number, b1: number, l2: number, a2: number, b2: number): number;
}

/** The pricing model, running in the page (no thread catalogue). Design files are read by the
 * same module in a Web Worker, never in the page (design-reader.ts). */
export interface PricingCore {
  /** The price list a team starts from; every field filled. */
  defaultRates(): Rates;
  /** A job's price, or what is wrong with its inputs, by field ("job.quantity"). Inputs of the
   * wrong shape (not numbers, not amounts) throw an Error written for people. */
  priceJob(request: PriceRequest): Pricing;
  /** The thread one piece of a design takes, per colour block and in all, by the team's
   * thread-usage model (its `thread_usage` setting as stored; defaults fill what it lacks). */
  threadUsage(blocks: ColourBlock[], setting: unknown): ThreadUsage;
}

/** Shares one in-flight promise between callers; a failure clears it so a later call retries. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}

const loadModule = once(async (): Promise<WasmModule> => {
  const wasm = await import('@bobbin/core-wasm');
  await wasm.default({ module_or_path: wasmUrl });
  return wasm;
});

/** Loads the core on first call; later calls share the same promise. A failure can be retried. */
export const loadCore = once(async (): Promise<Core> => ({ version: (await loadModule()).coreVersion() }));

/** Loads the core and the thread catalogue (large: docs/benchmarks.md, "Front-end weight"; cached for good). */
export const loadConverter = once(async (): Promise<Converter> => {
  const [wasm, response] = await Promise.all([loadModule(), fetch(catalogueUrl)]);
  if (!response.ok) throw new Error(`The thread catalogue could not be loaded (HTTP ${response.status}).`);
  wasm.loadCatalogue(new Uint8Array(await response.arrayBuffer()));
  return {
    lines: () => wasm.catalogueLines(),
    line: (id) => readable(() => wasm.catalogueLine(id)),
    search: (query, lines, limit) => readable(() => wasm.searchThreads(query, lines, limit)),
    convert: (request) => readable(() => wasm.convert(request)),
    convertBulk: (request) => readable(() => wasm.convertBulk(request)),
    convertBulkCsv: (request) => readable(() => wasm.convertBulkCsv(request)),
    deltaE2000: (...lab) => wasm.deltaE2000(...lab),
  };
});

const loadPricingModule = once(async (): Promise<PricingModule> => {
  const wasm = await import('@bobbin/core-wasm/bobbin_pricing');
  await wasm.default({ module_or_path: pricingWasmUrl });
  return wasm;
});

/** Loads the pricing module (the code only: the thread catalogue is not fetched). */
export const loadPricing = once(async (): Promise<PricingCore> => {
  const wasm = await loadPricingModule();
  return {
    defaultRates: () => wasm.defaultRates(),
    priceJob: (request) => readable(() => wasm.priceJob(request)),
    threadUsage: (blocks, setting) => readable(() => wasm.threadUsage(blocks, setting ?? null)),
  };
});

export const coreQueryOptions = queryOptions({
  queryKey: ['core'],
  queryFn: loadCore,
  staleTime: Number.POSITIVE_INFINITY,
  gcTime: Number.POSITIVE_INFINITY,
  ...retriedFetch,
});

export const converterQueryOptions = queryOptions({
  queryKey: ['core', 'converter'],
  queryFn: loadConverter,
  staleTime: Number.POSITIVE_INFINITY,
  gcTime: Number.POSITIVE_INFINITY,
  ...retriedFetch,
});

export const pricingQueryOptions = queryOptions({
  queryKey: ['core', 'pricing'],
  queryFn: loadPricing,
  staleTime: Number.POSITIVE_INFINITY,
  gcTime: Number.POSITIVE_INFINITY,
  ...retriedFetch,
});
