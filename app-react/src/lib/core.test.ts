// The facade over the real WebAssembly module and catalogue (crates/wasm/pkg, built by `make`):
// every export is called and its result checked against the TypeScript types the module declares,
// so a change on the Rust side that the types do not follow fails here.
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import pricingWasmUrl from '@bobbin/core-wasm/bobbin_pricing_bg.wasm';

import { loadConverter, loadPricing } from './core';
import { type DesignRequest, answer } from './design-reading';

beforeAll(() => {
  // In tests the imported .wasm and .bin URLs are file paths (vitest.config.ts); serve them from disk.
  vi.stubGlobal('fetch', async (url: string | URL) => {
    const path = String(url);
    const bytes = await readFile(path);
    const type = path.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream';
    return new Response(bytes, { headers: { 'content-type': type } });
  });
});

afterAll(() => {
  vi.unstubAllGlobals();
});

describe('the converter facade', () => {
  it('lists lines with the fields of LineSummary', async () => {
    const converter = await loadConverter();
    const lines = converter.lines();
    expect(lines).toHaveLength(76);
    const isacord = lines.find((line) => line.id === 'isacord-polyester');
    expect(isacord).toEqual({
      id: 'isacord-polyester',
      brand: 'Isacord',
      name: 'Polyester',
      display_name: 'Isacord Polyester',
      fibre: 'polyester',
      weight: 40,
      kind: 'thread',
      source: expect.stringContaining('isacord-polyester.gpl'),
      thread_count: 398,
      duplicate_codes: 0,
      conflicting_codes: 0,
    });
    expect(lines.find((line) => line.id === 'pantone')?.fibre).toBeNull();
  });

  it('gives a line with its threads and issues, and throws a readable error for an unknown line', async () => {
    const converter = await loadConverter();
    const dmc = converter.line('dmc');
    expect(dmc.threads).toHaveLength(dmc.thread_count);
    expect(dmc.threads[0]).toEqual({
      line: 'dmc',
      line_name: 'DMC Threads',
      code: expect.any(String),
      name: expect.any(String),
      hex: expect.stringMatching(/^#[0-9A-F]{6}$/),
      conflict: expect.any(Boolean),
      doubt: null,
    });
    expect(dmc.issues).toContainEqual({ code: '0000', kind: 'conflict', rows: expect.any(Array) });
    expect(() => converter.line('nope')).toThrow("There is no thread line 'nope'.");
  });

  it('searches by code and name', async () => {
    const converter = await loadConverter();
    expect(converter.search('1902', ['isacord-polyester'], 5)[0]).toMatchObject({ code: '1902', name: 'Poinsettia' });
    expect(converter.search('navy', [], 3)).toHaveLength(3);
  });

  it('converts a thread to ranked, labelled matches', async () => {
    const converter = await loadConverter();
    const conversion = converter.convert({
      from: { thread: { line: 'isacord-polyester', code: '1902' } },
      to: ['madeira-polyneon'],
      matches: 2,
    });
    expect(conversion.source).toEqual({
      hex: expect.stringMatching(/^#[0-9A-F]{6}$/),
      lab: { l: expect.any(Number), a: expect.any(Number), b: expect.any(Number) },
      thread: expect.objectContaining({ code: '1902' }),
      out_of_gamut: false,
    });
    const [line] = conversion.lines;
    expect(line).toMatchObject({ line: 'madeira-polyneon', line_name: 'Madeira Polyneon' });
    expect(line?.matches).toHaveLength(2);
    const [best, next] = line?.matches ?? [];
    expect(best?.delta_e).toBeLessThanOrEqual(next?.delta_e ?? 0);
    expect(['indistinguishable', 'close', 'similar', 'poor']).toContain(best?.label);
    expect(() => converter.convert({ from: { hex: '#12' } })).toThrow("'#12' is not a hex colour: use #RRGGBB or #RGB.");
  });

  it('converts a list, also as CSV', async () => {
    const converter = await loadConverter();
    const request = { from: 'isacord-polyester', to: 'sulky-rayon', input: '0015\nnope', alternatives: 1 };
    const bulk = converter.convertBulk(request);
    expect(bulk.rows.map((row) => [row.row, row.input, row.matches.length, row.error])).toEqual([
      [1, '0015', 2, null],
      [2, 'nope', 0, "Isacord Polyester has no thread with the code 'nope'"],
    ]);
    const csv = converter.convertBulkCsv(request).trim().split('\n');
    expect(csv).toHaveLength(3);
    expect(csv[0]).toBe('row,input,from_line,from_code,from_name,from_hex,to_line,to_code,to_name,to_hex,delta_e,match,alternatives,error');
  });

  it('exposes CIEDE2000 itself (Sharma, Wu and Dalal 2005, pair 1)', async () => {
    const converter = await loadConverter();
    expect(converter.deltaE2000(50, 2.6772, -79.7751, 50, 0, -82.7485)).toBeCloseTo(2.0425, 4);
  });
});

describe('the pricing facade', () => {
  it('gives the default rates with every field, amounts as text', async () => {
    const rates = (await loadPricing()).defaultRates();
    expect(rates).toMatchObject({
      price_per_thousand: '1.00',
      minimum_stitches: 5000,
      setup_fee: expect.any(String),
      profit: { markup_percent: expect.any(String) },
    });
    expect(rates.quantity_breaks.map((row) => row.min_quantity)).toEqual([12, 50, 100]);
  });

  it('prices the worked example of the module docs, and names the fields it refuses', async () => {
    const pricing = await loadPricing();
    const job = { stitches: 7200, colours: 8, quantity: 50, machine: { stitches_per_minute: 1000, heads: 6 } };
    const priced = pricing.priceJob({ rates: {}, job, currency: 'EUR' });
    if (!('quote' in priced)) throw new Error('expected a quote');
    expect(priced.quote).toMatchObject({ decimals: 2, per_piece: '7.12', total: '356.00', billable_stitches: 7200 });
    expect(priced.quote.machine_time).toMatchObject({ runs: 9, hours: '2.99', price_per_hour: '118.95' });
    const refused = pricing.priceJob({ rates: { tax_percent: '150' }, job: { ...job, quantity: 0 }, currency: 'EUR' });
    expect('problems' in refused && refused.problems.map((problem) => problem.field).sort()).toEqual(['job.quantity', 'rates.tax_percent']);
  });
});

describe("the design reader's worker", () => {
  const request = (bytes: Uint8Array, fileName: string): DesignRequest => ({
    id: 7,
    wasmUrl: pricingWasmUrl as unknown as string,
    bytes: bytes.slice().buffer,
    fileName,
    maxPoints: 500,
  });

  it('reads a design file, and says in a sentence why a damaged one cannot be read', async () => {
    const bytes = new Uint8Array(await readFile(path.resolve(import.meta.dirname, '../../../testdata/designs/star.dst')));
    const read = await answer(request(bytes, 'star.dst'));
    if (!('file' in read)) throw new Error(read.error);
    expect(read.id).toBe(7);
    expect(read.file.summary).toMatchObject({ format: 'dst', stitches: 2550, colours: 2, trims: null, thread_colours: [] });
    expect(read.file.preview.blocks.length).toBeGreaterThan(0);
    expect(await answer(request(bytes.slice(0, 100), 'star.dst'))).toEqual({ id: 7, error: expect.stringMatching(/^[A-Z].*\.$/) });
  });

  it('refuses a design past the block cap in plain words', async () => {
    const crafted = await readFile(path.resolve(import.meta.dirname, '../../../fuzz/seeds/vp3/65535-blocks-claimed.vp3'));
    expect(await answer(request(new Uint8Array(crafted), 'crafted.vp3'))).toEqual({
      id: 7,
      error: 'This design has more than 1,000 colour blocks; designs with that many colour changes are refused.',
    });
  });
});
