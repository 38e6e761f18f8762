// The pricing calculator over the real WebAssembly core (crates/wasm/pkg, built by `make`) and a
// fake product API: prices as the inputs change, problems by field, a design file read in the
// page, what each role may do, saving and reopening quotes.
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { onlineManager } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import pricingWasmUrl from '@bobbin/core-wasm/bobbin_pricing_bg.wasm';

import { type DesignSummary, type Rates, loadConverter, loadPricing } from '@/lib/core';
import { answer } from '@/lib/design-reading';
import { type FakeApi, apiError, fakeApi } from '@/test/fake-api';
import { FakeWorker } from '@/test/fake-worker';
import { renderPage } from '@/test/render';

import { effectiveRates } from './model';
import { PricingPage } from './pricing-page';
import type { PricingAccess, Role, SavedQuote, TeamSettings } from './types';

const DESIGNS = path.resolve(import.meta.dirname, '../../../../testdata/designs');
const LIST = 'GET /teams/tm_shop/quotes?page=1&per_page=20';

let defaults: Rates;

beforeAll(async () => {
  // In tests the imported .wasm URL is a file path (vitest.config.ts): serve it from disk once;
  // the loaded core is then shared by every test.
  vi.stubGlobal('fetch', async (url: string | URL) => {
    const bytes = await readFile(String(url));
    return new Response(bytes, { headers: { 'content-type': 'application/wasm' } });
  });
  defaults = (await loadPricing()).defaultRates();
  // The catalogue too, for naming a design's threads after the preferred line.
  await loadConverter();
  vi.unstubAllGlobals();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A design's figures as the design reader's worker reads them. */
async function summaryOf(bytes: Uint8Array, fileName: string): Promise<DesignSummary> {
  const wasmUrl = pricingWasmUrl as unknown as string;
  const read = await answer({ id: 0, wasmUrl, bytes: new Uint8Array(bytes).buffer, fileName, maxPoints: 10 });
  if (!('file' in read)) throw new Error(read.error);
  return read.file.summary;
}

let server: FakeApi;

function shopServer(extra: FakeApi['handlers'] = {}) {
  server = fakeApi({
    'GET /teams/tm_shop/machines': () =>
      Response.json({
        machines: [
          { id: 'mc_1', name: 'Tajima six', heads: 6, typical_spm: 1000, max_spm: 1200, status: 'active' },
          { id: 'mc_2', name: 'Old single', heads: 1, typical_spm: null, max_spm: null, status: 'active' },
        ],
      }),
    [LIST]: () => Response.json({ quotes: [], total: 0, page: 1, per_page: 20 }),
    ...extra,
  });
  return server;
}

function renderCalculator(
  {
    role = 'admin',
    settings = {},
    saveSettings = vi.fn(async (changes: TeamSettings) => changes),
  }: Partial<PricingAccess> & { role?: Role } = {},
  at = '/calculators/pricing',
) {
  const view = renderPage(<PricingPage teamId="tm_shop" role={role} settings={settings} saveSettings={saveSettings} />, at);
  return { ...view, saveSettings };
}

const input = (label: string) => screen.getByLabelText<HTMLInputElement>(label, { selector: 'input' });

async function typeJob(user: ReturnType<typeof userEvent.setup>, job: Record<string, string>) {
  // The core loads (once) before the inputs show.
  await screen.findByLabelText('Stitches');
  for (const [label, value] of Object.entries(job)) {
    await user.clear(input(label));
    if (value) await user.type(input(label), value);
  }
}

const perPiece = () => screen.getByTestId('price-per-piece').textContent;
const total = () => screen.getByTestId('price-total').textContent;

/** What a saved quote's summary says of it as a document (issue 51), the same for every test here. */
const DOCUMENT = {
  number: 'Q-0001',
  status: 'draft',
  revision: 1,
  customer_name: '',
  customer_company: '',
  valid_until: '2026-12-23',
} as const;

describe('the pricing calculator', () => {
  it('prices typed inputs as they change, with the breakdown and the quantity break', async () => {
    shopServer();
    renderCalculator();
    const user = userEvent.setup();
    await screen.findByLabelText('Stitches');
    await typeJob(user, { Stitches: '2550', Colours: '2' });
    // 5,000 minimum stitches at 1.00, backing 0.15, thread 12.75 m (0.03825), 40% markup on
    // those materials, set-up 25.00.
    expect(perPiece()).toBe('€30.26');
    expect(total()).toBe('€30.26');
    expect(screen.getByText(/Billable stitches 5,000/)).toBeTruthy();
    const breakdown = screen.getByRole('table', { name: 'Price breakdown' });
    expect(within(breakdown).getByRole('rowheader', { name: 'Set-up fee' })).toBeTruthy();
    expect(within(breakdown).getByRole('rowheader', { name: 'Markup on materials' })).toBeTruthy();

    await typeJob(user, { Quantity: '12' });
    expect(perPiece()).toBe('€6.85');
    expect(total()).toBe('€82.20');
    expect(screen.getByText(/12\+ pieces: 10% off/)).toBeTruthy();

    // One-off fees apart: the piece no longer carries the set-up fee.
    await user.click(screen.getByLabelText('Shown separately'));
    expect(perPiece()).toBe('€4.76');
    expect(screen.getByText('One-off fees', { selector: 'dt' }).nextElementSibling?.textContent).toBe('€25.00');

    // A garment at 4,50 (a decimal comma) with the 40% markup: 4.76355 + 6.30.
    await typeJob(user, { 'Garment cost': '4,50' });
    expect(perPiece()).toBe('€11.06');
  });

  it('uses the team currency and price list, and gives machine time for a chosen machine', async () => {
    shopServer();
    renderCalculator({ settings: { currency: 'USD', default_stitch_rate: 2, pricing: { setup_fee: '0' } } });
    const user = userEvent.setup();
    // Typed as design software shows it.
    await typeJob(user, { Stitches: '10,000', Colours: '1' });
    // 10 x 2.00 + 0.15 + 0.15 thread + 40% of 0.30.
    expect(perPiece()).toBe('$20.42');
    await user.selectOptions(await screen.findByLabelText('Machine'), 'Tajima six');
    // The picker lists names; what the chosen one is, is said under it.
    expect(screen.getByText('6 heads, 1000 stitches a minute')).toBeTruthy();
    expect(screen.getByText(/Machine time .* in 1 run/)).toBeTruthy();
    expect(screen.getByText('Per machine hour')).toBeTruthy();
    // A machine without a speed asks for one.
    await user.selectOptions(screen.getByLabelText('Machine'), 'Old single');
    expect(input('Stitches per minute')).toBeTruthy();
  });

  it('shows each problem next to the field it names, and problems of the price list apart', async () => {
    shopServer();
    renderCalculator({ settings: { pricing: { tax_percent: '150' } } });
    const user = userEvent.setup();
    await typeJob(user, { Stitches: '1000', Colours: '1', Quantity: '0' });
    const quantity = input('Quantity');
    expect(quantity.getAttribute('aria-invalid')).toBe('true');
    const message = document.getElementById(quantity.getAttribute('aria-describedby') ?? '')?.textContent;
    expect(message).toBe('Give a whole number from 1 to 1000000.');
    expect(screen.getByRole('alert').textContent).toBe('Price list, Tax (%): Give a number from 0 to 100.');
    expect(screen.queryByTestId('price-per-piece')).toBeNull();

    await typeJob(user, { Quantity: '1', Stitches: '12.5' });
    expect(document.getElementById(input('Stitches').getAttribute('aria-describedby') ?? '')?.textContent).toBe('Enter a whole number.');
  });

  it('reads a design file in the page and fills stitches and colours, which stay editable', async () => {
    shopServer();
    renderCalculator();
    const user = userEvent.setup();
    const bytes = await readFile(path.join(DESIGNS, 'star.dst'));
    await user.upload(await screen.findByLabelText('Design file'), new File([bytes], 'star.dst'));
    await waitFor(() => expect(input('Stitches').value).toBe('2550'));
    expect(input('Colours').value).toBe('2');
    const figures = screen.getByLabelText('Design star.dst');
    expect(figures.textContent).toContain('FormatDST');
    expect(figures.textContent).toContain('Stitches2,550');
    expect(screen.getByRole('img', { name: "Preview of the design's stitches" }).querySelectorAll('polyline').length).toBeGreaterThan(0);
    // The thread is the design's by the usage model (12.98 m top and 7.79 m bobbin thread, 20.77
    // m at 3.00 / 1,000 m), no longer the 12.75 m the stitch count alone gives (the typed test
    // above): the figure a job's run sheet counts from.
    expect(perPiece()).toBe('€30.30');
    expect(screen.getByText(/^Thread: 20\.77 m a piece, top and bobbin/)).toBeTruthy();
    await typeJob(user, { Stitches: '2551' });
    // A stitch count typed over the design's is priced by the count alone.
    expect(screen.getByText(/^Thread: estimated from the stitch count at 5 m per 1,000 stitches/)).toBeTruthy();
    await typeJob(user, { Stitches: '6000' });
    expect(perPiece()).not.toBe('€30.30');
  });

  it("shows the design's thread in the team's unit, by the team's model", async () => {
    shopServer();
    renderCalculator({ settings: { thread_usage: { take_up_mm: 0, bobbin_share: 0, unit: 'yards' } } });
    const user = userEvent.setup();
    const bytes = await readFile(path.join(DESIGNS, 'star.dst'));
    await user.upload(await screen.findByLabelText('Design file'), new File([bytes], 'star.dst'));
    await waitFor(() => expect(input('Stitches').value).toBe('2550'));
    // The stitches' own length only: 12.98 m less the 2,550 x 2.5 mm take-up, 6.61 m, 7.23 yd.
    expect(screen.getByText(/^Thread: 7\.23 yd a piece/)).toBeTruthy();
  });

  it('reads a file dropped on the zone', async () => {
    shopServer();
    renderCalculator();
    const bytes = await readFile(path.join(DESIGNS, 'star.exp'));
    const zone = (await screen.findByLabelText('Design file')).closest('.design-drop')!;
    fireEvent.dragOver(zone, { dataTransfer: { files: [], dropEffect: 'none' } });
    fireEvent.drop(zone, { dataTransfer: { files: [new File([bytes], 'star.exp')] } });
    await waitFor(() => expect(input('Stitches').value).not.toBe(''));
    expect(screen.getByLabelText('Design star.exp').textContent).toContain('FormatEXP');
  });

  it("shows the core's message for a file it cannot read", async () => {
    shopServer();
    renderCalculator();
    const user = userEvent.setup();
    await user.upload(await screen.findByLabelText('Design file'), new File(['not a design'], 'logo.pes'));
    expect((await screen.findByRole('alert')).textContent).toMatch(/\.$/);
    expect(input('Stitches').value).toBe('');
  });
});

describe('the threads of a design', () => {
  /** The one request for all of a design's colours, in order of their codes. */
  const closest = (...hexes: string[]) =>
    `GET /teams/tm_shop/threads/closest?colours=${hexes
      .map((hex) => hex.slice(1).toUpperCase())
      .sort()
      .join(',')}`;

  it('link each thread to the converter and say whether the team has it', async () => {
    const bytes = await readFile(path.join(DESIGNS, 'star-v7.pes'));
    const summary = await summaryOf(bytes, 'star-v7.pes');
    const [red, white] = summary.threads!;
    shopServer({
      [closest(red!.colour, white!.colour)]: () =>
        Response.json({
          closest: [
            {
              colour: red!.colour,
              thread: { id: 'th_1', code: '1800', name: 'Wildfire', line_name: 'Isacord', quantity: 3, distance: 1.234 },
            },
            {
              colour: white!.colour,
              thread: { id: 'th_2', code: '0015', name: 'Cream', line_name: 'Isacord', quantity: 1, distance: 7.5 },
            },
          ],
        }),
    });
    renderCalculator({ role: 'member' });
    const user = userEvent.setup();
    await user.upload(await screen.findByLabelText('Design file'), new File([bytes], 'star-v7.pes'));
    const list = within(await screen.findByRole('list', { name: 'Threads needed' })).getAllByRole('listitem');
    expect(list).toHaveLength(2);
    const link = within(list[0]!).getByRole('link');
    expect(link.getAttribute('href')).toBe(`/tools/thread-converter?hex=${red!.colour.slice(1)}`);
    expect(await within(list[0]!).findByText('In stock: Isacord 1800 Wildfire, ΔE 1.2, 3 spools')).toBeTruthy();
    expect(await within(list[1]!).findByText('Nothing close in stock (closest: Isacord 0015 Cream, ΔE 7.5)')).toBeTruthy();
  });

  // Issue 48: a file is read in a Web Worker, so the page never freezes on a large or crafted
  // one, and the threads a design needs are looked up in the inventory in one request.
  it('reads the file in the worker, saying so meanwhile, and looks all its threads up in one request', async () => {
    const bytes = await readFile(path.join(DESIGNS, 'programstitch-v5.pes'));
    const summary = await summaryOf(bytes, 'programstitch-v5.pes');
    const colours = summary.threads!.map((thread) => thread.colour);
    expect(colours).toHaveLength(3);
    shopServer({
      [closest(...colours)]: () => Response.json({ closest: colours.map((colour) => ({ colour, thread: null })) }),
    });
    renderCalculator({ role: 'member' });
    const user = userEvent.setup();
    FakeWorker.hold();
    await user.upload(await screen.findByLabelText('Design file'), new File([bytes], 'programstitch-v5.pes'));
    await waitFor(() => expect(FakeWorker.started.at(-1)?.received.at(-1)?.fileName).toBe('programstitch-v5.pes'));
    expect(screen.getByRole('status').textContent).toBe('Reading programstitch-v5.pes…');
    // The page keeps answering while the worker reads.
    await user.type(input('Quantity'), '5');
    expect(input('Quantity').value).toContain('5');
    FakeWorker.release();

    const threads = within(await screen.findByRole('list', { name: 'Threads needed' })).getAllByRole('listitem');
    expect(threads).toHaveLength(3);
    for (const thread of threads) expect(await within(thread).findByText('Not in stock: we own no thread yet.')).toBeTruthy();
    expect(screen.queryByText(/^Reading /)).toBeNull();
    expect(server.calls.filter((call) => call.route.includes('closest')).map((call) => call.route)).toEqual([closest(...colours)]);
    // One worker for the page: the next file goes to the same one.
    const workers = FakeWorker.started.length;
    await user.upload(screen.getByLabelText('Design file'), new File([await readFile(path.join(DESIGNS, 'star.dst'))], 'star.dst'));
    await waitFor(() => expect(input('Stitches').value).toBe('2550'));
    expect(FakeWorker.started).toHaveLength(workers);
  });

  // programstitch-v5.pes sews 8 blocks with 3 threads: black 4 times, white 3 times, red once.
  it('merges the blocks of one thread, names it from the palette, keeps the sequence and charges for threads', async () => {
    const bytes = await readFile(path.join(DESIGNS, 'programstitch-v5.pes'));
    shopServer();
    renderCalculator({ role: 'member' });
    const user = userEvent.setup();
    await user.upload(await screen.findByLabelText('Design file'), new File([bytes], 'programstitch-v5.pes'));

    const threads = within(await screen.findByRole('list', { name: 'Threads needed' })).getAllByRole('listitem');
    expect(threads.map((item) => item.querySelector('.design-threads__name')?.textContent)).toEqual(['Black', 'White', 'Red']);
    expect(threads[0]!.textContent).toContain('Blocks 1, 3, 6, 8');
    expect(threads[2]!.textContent).toContain('Block 5');
    const sequence = within(screen.getByRole('list', { name: 'Sewing sequence' })).getAllByRole('listitem');
    expect(sequence.map((block) => block.getAttribute('title'))).toEqual([
      'Block 1: Black',
      'Block 2: White',
      'Block 3: Black',
      'Block 4: White',
      'Block 5: Red',
      'Block 6: Black',
      'Block 7: White',
      'Block 8: Black',
    ]);
    expect(input('Colours').value).toBe('3');
    expect(screen.getByLabelText('Design programstitch-v5.pes').textContent).toContain('Colour blocks8');
  });

  it('names a thread the file does not name after the closest thread of the preferred line', async () => {
    const bytes = await readFile(path.join(DESIGNS, 'bean.vp3'));
    const summary = await summaryOf(bytes, 'bean.vp3');
    const colour = summary.threads![0]!.colour;
    const converter = await loadConverter();
    const best = converter.convert({ from: { hex: colour }, to: ['madeira-polyneon'], matches: 1 }).lines[0]!.matches[0]!.thread;
    shopServer();
    renderCalculator({ role: 'member', settings: { preferred_thread_line: 'madeira-polyneon' } });
    const user = userEvent.setup();
    await user.upload(await screen.findByLabelText('Design file'), new File([bytes], 'bean.vp3'));

    const [thread] = within(await screen.findByRole('list', { name: 'Threads needed' })).getAllByRole('listitem');
    await waitFor(() =>
      expect(thread!.querySelector('.design-threads__name')?.textContent).toBe(`${best.line_name} ${best.code} ${best.name}`),
    );
  });
});

describe('a file that cannot be read', () => {
  it('takes the previous design and its price off the page', async () => {
    shopServer();
    renderCalculator();
    const user = userEvent.setup();
    const bytes = await readFile(path.join(DESIGNS, 'star-v7.pes'));
    await user.upload(await screen.findByLabelText('Design file'), new File([bytes], 'star-v7.pes'));
    await screen.findByLabelText('Design star-v7.pes');
    expect(perPiece()).not.toBe('');

    await user.upload(screen.getByLabelText('Design file'), new File(['not a design'], 'logo.pes'));

    await screen.findByRole('alert');
    expect(screen.queryByLabelText('Design star-v7.pes')).toBeNull();
    expect(input('Stitches').value).toBe('');
    expect(screen.queryByTestId('price-per-piece')).toBeNull();
  });
});

describe('who may do what', () => {
  it('lets admins edit and save the price list to the team settings', async () => {
    shopServer();
    const { saveSettings } = renderCalculator({ role: 'admin' });
    const user = userEvent.setup();
    const list = await screen.findByRole('region', { name: 'Edit price list' });
    await user.clear(within(list).getByLabelText('Set-up fee (per job)'));
    await user.type(within(list).getByLabelText('Set-up fee (per job)'), '30');
    await user.click(within(list).getByLabelText('Margin (% of the selling price)'));
    await user.clear(within(list).getByLabelText('Margin (%)'));
    await user.type(within(list).getByLabelText('Margin (%)'), '30');
    await user.click(within(list).getByRole('button', { name: 'Remove the break from 100' }));
    await user.click(within(list).getByRole('button', { name: 'Save price list' }));
    await waitFor(() => expect(saveSettings).toHaveBeenCalledTimes(1));
    const { price_per_thousand: _, ...rest } = defaults;
    expect(saveSettings).toHaveBeenCalledWith({
      default_stitch_rate: 1,
      pricing: {
        ...rest,
        setup_fee: '30',
        profit: { margin_percent: '30' },
        quantity_breaks: defaults.quantity_breaks.filter((row) => row.min_quantity !== 100),
      },
    });
    expect(within(list).getByRole('status').textContent).toBe('The price list is saved.');
  });

  it('prices the job with the price list as it is edited, before it is saved', async () => {
    shopServer();
    const { saveSettings } = renderCalculator({ role: 'owner' });
    const user = userEvent.setup();
    await screen.findByLabelText('Stitches');
    await typeJob(user, { Stitches: '2550', Colours: '2' });
    expect(perPiece()).toBe('€30.26');
    expect(screen.queryByText(/as edited below/)).toBeNull();
    const list = screen.getByRole('region', { name: 'Edit price list' });
    await user.clear(within(list).getByLabelText('Set-up fee (per job)'));
    await user.type(within(list).getByLabelText('Set-up fee (per job)'), '10');
    // 5.26355 a piece + 10.00 set-up, not yet saved.
    await waitFor(() => expect(perPiece()).toBe('€15.26'));
    expect(screen.getByText('Priced with the price list as edited below; save it to keep it.')).toBeTruthy();
    expect(saveSettings).not.toHaveBeenCalled();
    // Back to the saved value: the saved price list prices again, and the note goes.
    await user.clear(within(list).getByLabelText('Set-up fee (per job)'));
    await user.type(within(list).getByLabelText('Set-up fee (per job)'), '25');
    await waitFor(() => expect(perPiece()).toBe('€30.26'));
    expect(screen.queryByText(/as edited below/)).toBeNull();
  });

  it('refuses to save a price list the core would refuse, naming the field', async () => {
    shopServer();
    const { saveSettings } = renderCalculator({ role: 'owner' });
    const user = userEvent.setup();
    const list = await screen.findByRole('region', { name: 'Edit price list' });
    await user.clear(within(list).getByLabelText('Tax (%)'));
    await user.type(within(list).getByLabelText('Tax (%)'), '120');
    await user.click(within(list).getByRole('button', { name: 'Save price list' }));
    expect(await within(list).findByText('Give a number from 0 to 100.')).toBeTruthy();
    expect(saveSettings).not.toHaveBeenCalled();
  });

  it('shows members the rates read-only, with Save quote', async () => {
    shopServer();
    renderCalculator({ role: 'member', settings: { pricing: { setup_fee: '12.5' } } });
    const list = await screen.findByRole('region', { name: 'Price list' });
    expect(within(list).getByText('Only admins and owners can change the price list.')).toBeTruthy();
    expect(within(list).getByText('12.5')).toBeTruthy();
    expect(within(list).queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('region', { name: 'Edit price list' })).toBeNull();
    expect(screen.getByRole('region', { name: 'Save quote' })).toBeTruthy();
  });

  it('lets viewers reopen saved quotes but not save, duplicate or remove them', async () => {
    shopServer({
      [LIST]: () =>
        Response.json({
          quotes: [
            {
              id: 'q_1',
              name: 'Polos',
              currency: 'EUR',
              quantity: 12,
              per_piece: '6.85',
              total: '82.20',
              created_by_email: 'me@example.com',
              created_by_name: 'Ada Lovelace',
              created_at: '2026-11-23T10:00:00Z',
            },
          ],
          total: 1,
          page: 1,
          per_page: 20,
        }),
    });
    renderCalculator({ role: 'viewer' });
    const quotes = await screen.findByRole('region', { name: 'Saved quotes' });
    expect(await within(quotes).findByText('Polos')).toBeTruthy();
    expect(within(quotes).getByText(/€82.20/)).toBeTruthy();
    // Who saved it, by name.
    expect(within(quotes).getByText(/Ada Lovelace/)).toBeTruthy();
    expect(within(quotes).getByRole('link', { name: 'Reopen Polos' }).getAttribute('href')).toBe('/calculators/pricing?quote=q_1');
    expect(within(quotes).queryByRole('button', { name: 'Duplicate Polos' })).toBeNull();
    expect(within(quotes).queryByRole('button', { name: 'Remove Polos' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Save quote' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Edit price list' })).toBeNull();
  });
});

/** The server saving a quote as sent, as `POST /teams/tm_shop/quotes` answers. */
function answerQuoteSaves() {
  server.handlers['POST /teams/tm_shop/quotes'] = (body) =>
    Response.json(
      {
        quote: {
          ...(body as object),
          id: 'q_new',
          created_by_email: 'me@example.com',
          created_by_name: null,
          created_at: '2026-11-23T10:00:00Z',
        },
      },
      { status: 201 },
    );
}

describe('saved quotes', () => {
  it('saves the inputs, the rates, the design figures and the result', async () => {
    shopServer();
    answerQuoteSaves();
    renderCalculator({ role: 'member' });
    const user = userEvent.setup();
    const bytes = await readFile(path.join(DESIGNS, 'star.dst'));
    await user.upload(await screen.findByLabelText('Design file'), new File([bytes], 'star.dst'));
    await waitFor(() => expect(input('Stitches').value).toBe('2550'));
    await typeJob(user, { Quantity: '12' });
    await user.click(screen.getByLabelText('Rush'));
    const form = screen.getByRole('region', { name: 'Save quote' });
    await user.type(within(form).getByLabelText('Name'), 'Star caps');
    await user.click(within(form).getByRole('button', { name: 'Save quote' }));
    await waitFor(() => expect(server.callsTo('POST /teams/tm_shop/quotes')).toHaveLength(1));
    const [body] = server.callsTo('POST /teams/tm_shop/quotes') as Record<string, unknown>[];
    expect(body).toEqual({
      name: 'Star caps',
      currency: 'EUR',
      rates: defaults,
      job: {
        stitches: 2550,
        colours: 2,
        quantity: 12,
        locations: 1,
        garment_cost: '0',
        digitising: false,
        rush: true,
        one_off_fees: 'spread',
        machine: null,
        thread_m: '20.77',
      },
      design: { file_name: 'star.dst', summary: expect.objectContaining({ format: 'dst', stitches: 2550, colours: 2 }) },
      result: expect.objectContaining({ per_piece: expect.any(String), total: expect.any(String) }),
    });
    expect((body!.design as Record<string, unknown>).preview).toBeUndefined();
    expect((body!.result as { total: string }).total).toBe(total().replace(/[^\d.]/g, ''));
  });

  // Issue 21: "quote saves made offline are kept ..., shown as pending, and sent in order when
  // the connection returns".
  it('keeps a quote saved offline, shows it waiting, and sends it when the connection returns', async () => {
    shopServer();
    answerQuoteSaves();
    renderCalculator({ role: 'member' });
    const user = userEvent.setup();
    await typeJob(user, { Stitches: '5000', Quantity: '12' });
    onlineManager.setOnline(false);
    try {
      const form = screen.getByRole('region', { name: 'Save quote' });
      await user.type(within(form).getByLabelText('Name'), 'Caps offline');
      await user.click(within(form).getByRole('button', { name: 'Save quote' }));
      const waiting = await screen.findByRole('list', { name: 'Quotes waiting to be sent' });
      expect(waiting.textContent).toBe('Caps offline Waiting to be sent');
      expect(server.callsTo('POST /teams/tm_shop/quotes')).toHaveLength(0);
    } finally {
      onlineManager.setOnline(true);
    }
    await waitFor(() => expect(server.callsTo('POST /teams/tm_shop/quotes')).toHaveLength(1));
    expect((server.callsTo('POST /teams/tm_shop/quotes')[0] as { name: string }).name).toBe('Caps offline');
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Quotes waiting to be sent' })).toBeNull());
  });

  it('duplicates a quote, and removes one after asking', async () => {
    const summary = {
      id: 'q_1',
      name: 'Polos',
      currency: 'EUR',
      quantity: 12,
      per_piece: '6.85',
      total: '82.20',
      created_by_email: 'me@example.com',
      created_by_name: null,
      created_at: '2026-11-23T10:00:00Z',
    };
    shopServer({
      [LIST]: () => Response.json({ quotes: [summary], total: 1, page: 1, per_page: 20 }),
      'POST /teams/tm_shop/quotes/q_1/duplicate': () =>
        Response.json({ quote: { ...summary, id: 'q_2', name: 'Polos (copy)' } }, { status: 201 }),
      'DELETE /teams/tm_shop/quotes/q_1': () => new Response(null, { status: 204 }),
    });
    renderCalculator({ role: 'member' });
    const user = userEvent.setup();
    const quotes = await screen.findByRole('region', { name: 'Saved quotes' });
    await user.click(await within(quotes).findByRole('button', { name: 'Duplicate Polos' }));
    await waitFor(() => expect(server.callsTo('POST /teams/tm_shop/quotes/q_1/duplicate')).toHaveLength(1));
    await user.click(within(quotes).getByRole('button', { name: 'Remove Polos' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove "Polos"?' });
    expect(server.callsTo('DELETE /teams/tm_shop/quotes/q_1')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(server.callsTo('DELETE /teams/tm_shop/quotes/q_1')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("shows the server's message when it prices the quote differently", async () => {
    shopServer({
      'POST /teams/tm_shop/quotes': () => apiError(422, 'quote_mismatch', 'The price changed: the server makes it 7.13 a piece.'),
    });
    renderCalculator({ role: 'member' });
    const user = userEvent.setup();
    await typeJob(user, { Stitches: '7200', Colours: '8' });
    const form = screen.getByRole('region', { name: 'Save quote' });
    await user.type(within(form).getByLabelText('Name'), 'Polos');
    await user.click(within(form).getByRole('button', { name: 'Save quote' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('The price changed: the server makes it 7.13 a piece.');
  });

  it('reopens a quote from the URL with its inputs and the rates saved with it', async () => {
    const saved: SavedQuote = {
      id: 'q_1',
      name: 'Polos',
      currency: 'GBP',
      quantity: 50,
      per_piece: '0',
      total: '0',
      created_by_email: 'me@example.com',
      created_by_name: null,
      created_at: '2026-11-23T10:00:00Z',
      ...DOCUMENT,
      rates: { ...effectiveRates(defaults, {}), setup_fee: '0', price_per_thousand: '2.00' },
      job: {
        stitches: 7200,
        colours: 8,
        quantity: 50,
        locations: 2,
        garment_cost: '3.50',
        digitising: true,
        rush: false,
        one_off_fees: 'separate',
        machine: { stitches_per_minute: 800, heads: 4 },
      },
      design: null,
      result: {} as SavedQuote['result'],
    };
    shopServer({ 'GET /teams/tm_shop/quotes/q_1': () => Response.json({ quote: saved }) });
    renderCalculator({ role: 'member' }, '/calculators/pricing?quote=q_1');
    await waitFor(() => expect(input('Stitches').value).toBe('7200'));
    expect(input('Colours').value).toBe('8');
    expect(input('Quantity').value).toBe('50');
    expect(input('Locations').value).toBe('2');
    expect(input('Garment cost').value).toBe('3.50');
    expect(input('Digitising').checked).toBe(true);
    expect(input('Shown separately').checked).toBe(true);
    expect(screen.getByLabelText<HTMLSelectElement>('Machine').value).toBe('saved');
    expect(screen.getByText(/uses the rates saved with the quote/)).toBeTruthy();
    // The saved rates (2.00 per 1,000, 20% off at 50), in the saved currency.
    expect(screen.getByText(/at £1.60 per 1,000 stitches/)).toBeTruthy();
    expect(perPiece().startsWith('£')).toBe(true);
  });

  it('shows the design saved with a reopened quote, and empties the inputs and the design when left for a new quote', async () => {
    const bytes = await readFile(path.join(DESIGNS, 'star.exp'));
    const summary = await summaryOf(bytes, 'star.exp');
    const saved: SavedQuote = {
      id: 'q_1',
      name: 'Stars',
      currency: 'EUR',
      quantity: 10,
      per_piece: '0',
      total: '0',
      created_by_email: 'me@example.com',
      created_by_name: null,
      created_at: '2026-11-23T10:00:00Z',
      ...DOCUMENT,
      rates: effectiveRates(defaults, {}),
      job: { stitches: 7200, colours: 3, quantity: 10 },
      design: { file_name: 'star.exp', summary },
      result: {} as SavedQuote['result'],
    };
    shopServer({ 'GET /teams/tm_shop/quotes/q_1': () => Response.json({ quote: saved }) });
    const { router } = renderCalculator({ role: 'member' }, '/calculators/pricing?quote=q_1');
    await waitFor(() => expect(input('Stitches').value).toBe('7200'));
    expect(screen.getByLabelText('Design star.exp').textContent).toContain('FormatEXP');

    await router.navigate('/calculators/pricing');
    await waitFor(() => expect(input('Stitches').value).toBe(''));
    expect(input('Colours').value).toBe('1');
    expect(input('Quantity').value).toBe('1');
    expect(screen.queryByLabelText('Design star.exp')).toBeNull();
  });
});
