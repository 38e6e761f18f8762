// Issue 48: a quote saved with a design of another shape (`blocks: "x"`) replaced the whole app
// with the error page for every teammate who reopened it. What the saved-quotes API answers is
// checked before it is shown; a quote that does not fit is said to be unreadable, in words.
import { readFile } from 'node:fs/promises';

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { loadPricing } from '@/lib/core';
import { fakeApi } from '@/test/fake-api';
import { renderPage } from '@/test/render';

import { PricingPage } from './pricing-page';
import { UNREADABLE_QUOTE, UnreadableQuote, parseQuotePage, parseSavedQuote } from './saved-quote';

const LIST = 'GET /teams/tm_shop/quotes?page=1&per_page=20';

const summary = {
  id: 'q_1',
  name: 'Polos',
  currency: 'EUR',
  quantity: 50,
  per_piece: '7.12',
  total: '356.00',
  created_by_email: 'ada@example.com',
  created_by_name: null,
  created_at: '2026-11-23T10:00:00Z',
};

/** A quote as the server answers it, with a design read from a PES file. */
function savedQuote() {
  return {
    ...summary,
    rates: {},
    job: { stitches: 7200, colours: 2, quantity: 50 },
    design: {
      file_name: 'rosa.pes',
      summary: {
        format: 'pes',
        stitches: 7200,
        jumps: 14,
        trims: 3,
        colour_changes: 2,
        colours: 3,
        width_mm: 80.5,
        height_mm: 61.2,
        thread_colours: ['#FF0000', '#00A050', '#FF0000'],
        threads: [
          { colour: '#FF0000', name: 'Red', blocks: [1, 3] },
          { colour: '#00A050', name: null, blocks: [2] },
        ],
        threads_needed: 2,
      },
    },
    result: { per_piece: '7.12', total: '356.00' },
  };
}

/** The quote of the issue: its design's first thread has `blocks: "x"`. */
function quoteOfAnotherShape() {
  const quote = savedQuote();
  (quote.design.summary.threads[0] as { blocks: unknown }).blocks = 'x';
  return quote;
}

describe('reading saved quotes', () => {
  it('takes quotes of the shape the calculator shows, with or without a design', () => {
    expect(parseSavedQuote(savedQuote())).toEqual(savedQuote());
    expect(parseSavedQuote({ ...savedQuote(), design: null }).design).toBeNull();
    // Saved before threads were counted.
    const older = savedQuote();
    delete (older.design.summary as { threads?: unknown }).threads;
    delete (older.design.summary as { threads_needed?: unknown }).threads_needed;
    expect(parseSavedQuote(older).design?.summary.threads).toBeUndefined();
    expect(parseQuotePage({ quotes: [summary], total: 1, page: 1, per_page: 20 }).quotes).toHaveLength(1);
  });

  it.each([
    ['blocks that are not a list', quoteOfAnotherShape()],
    [
      'a colour that is not #RRGGBB',
      { ...savedQuote(), design: { ...savedQuote().design, summary: { ...savedQuote().design.summary, thread_colours: ['red'] } } },
    ],
    ['a design without figures', { ...savedQuote(), design: { file_name: 'rosa.pes' } }],
    ['a job without a quantity', { ...savedQuote(), job: { stitches: 7200, colours: 2 } }],
    ['no rates', { ...savedQuote(), rates: null }],
    ['not a quote at all', 'Polos'],
  ])('refuses %s in words', (_, value) => {
    expect(() => parseSavedQuote(value)).toThrow(UnreadableQuote);
    expect(() => parseSavedQuote(value)).toThrow(UNREADABLE_QUOTE);
  });

  it('refuses a page whose quotes are of another shape', () => {
    expect(() => parseQuotePage({ quotes: [{ ...summary, quantity: 'many' }], total: 1, page: 1, per_page: 20 })).toThrow(UnreadableQuote);
    expect(() => parseQuotePage(null)).toThrow(UnreadableQuote);
  });
});

describe('reopening a quote stored with a design of another shape', () => {
  beforeAll(async () => {
    // In tests the imported .wasm URL is a file path (vitest.config.ts): served from disk.
    vi.stubGlobal('fetch', async (url: string | URL) => {
      const bytes = await readFile(String(url));
      return new Response(bytes, { headers: { 'content-type': 'application/wasm' } });
    });
    await loadPricing();
    vi.unstubAllGlobals();
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('says the quote cannot be shown, and the rest of the page works', async () => {
    fakeApi({
      'GET /teams/tm_shop/machines': () => Response.json({ machines: [] }),
      [LIST]: () => Response.json({ quotes: [summary], total: 1, page: 1, per_page: 20 }),
      'GET /teams/tm_shop/quotes/q_1': () => Response.json({ quote: quoteOfAnotherShape() }),
    });
    renderPage(
      <PricingPage teamId="tm_shop" role="member" settings={{}} saveSettings={async (changes) => changes} />,
      '/calculators/pricing?quote=q_1',
      '/calculators/pricing',
    );

    expect(await screen.findByText(UNREADABLE_QUOTE)).toBeTruthy();
    // The calculator and the list of saved quotes are still there.
    expect(screen.getByLabelText('Stitches')).toBeTruthy();
    const quotes = screen.getByRole('region', { name: 'Saved quotes' });
    expect(await within(quotes).findByText('Polos')).toBeTruthy();
    expect(screen.queryByText(/is not a function/)).toBeNull();
  });
});

describe('a design of the library in the calculator (issue 49)', () => {
  const DESIGN = '0b7f3c3e-8a0f-4a55-9f0e-2b9c1f7f0a11';
  const svg = () => new Response('<svg xmlns="http://www.w3.org/2000/svg"/>', { headers: { 'Content-Type': 'image/svg+xml' } });

  let rates: unknown;
  beforeAll(async () => {
    vi.stubGlobal('fetch', async (url: string | URL) => {
      const bytes = await readFile(String(url));
      return new Response(bytes, { headers: { 'content-type': 'application/wasm' } });
    });
    rates = (await loadPricing()).defaultRates();
    vi.unstubAllGlobals();
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('opens with ?design=: its figures fill the job, its preview is the server’s, and a save names it', async () => {
    const design = savedQuote().design;
    const api = fakeApi({
      'GET /teams/tm_shop/machines': () => Response.json({ machines: [] }),
      [LIST]: () => Response.json({ quotes: [], total: 0, page: 1, per_page: 20 }),
      [`GET /teams/tm_shop/designs/${DESIGN}`]: () =>
        Response.json({
          design: {
            id: DESIGN,
            name: 'logos/rosa.pes',
            size: 2048,
            mimetype: 'application/octet-stream',
            etag: '"abc"',
            created_at: '2026-12-07T10:00:00Z',
            updated_at: '2026-12-07T10:00:00Z',
            design: { summary: design.summary, blocks: [] },
          },
          quotes: [],
          quotes_total: 0,
        }),
      [`GET /teams/tm_shop/designs/${DESIGN}/preview.svg`]: svg,
      'POST /teams/tm_shop/quotes': () => Response.json({ quote: { ...savedQuote(), design: { ...design, id: DESIGN } } }, { status: 201 }),
    });
    renderPage(
      <PricingPage teamId="tm_shop" role="member" settings={{}} saveSettings={async (changes) => changes} />,
      `/calculators/pricing?design=${DESIGN}`,
      '/calculators/pricing',
    );
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Stitches').value).toBe('7200'));
    expect(screen.getByLabelText<HTMLInputElement>('Colours').value).toBe('2');
    expect(await screen.findByRole('img', { name: 'Preview of rosa.pes' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'rosa.pes' }).getAttribute('href')).toBe(`/designs/${DESIGN}`);

    const save = screen.getByRole('region', { name: 'Save quote' });
    await userEvent.type(within(save).getByLabelText('Name'), 'Rosa polos');
    await userEvent.click(within(save).getByRole('button', { name: 'Save quote' }));
    await waitFor(() => expect(api.callsTo('POST /teams/tm_shop/quotes')).toHaveLength(1));
    const sent = api.callsTo('POST /teams/tm_shop/quotes')[0] as { design: { id?: string; file_name: string } };
    expect(sent.design).toMatchObject({ id: DESIGN, file_name: 'rosa.pes' });
  });

  it('shows the preview of a reopened quote priced from the library', async () => {
    fakeApi({
      'GET /teams/tm_shop/machines': () => Response.json({ machines: [] }),
      [LIST]: () => Response.json({ quotes: [summary], total: 1, page: 1, per_page: 20 }),
      'GET /teams/tm_shop/quotes/q_1': () =>
        Response.json({ quote: { ...savedQuote(), rates, design: { ...savedQuote().design, id: DESIGN } } }),
      [`GET /teams/tm_shop/designs/${DESIGN}/preview.svg`]: svg,
    });
    renderPage(
      <PricingPage teamId="tm_shop" role="member" settings={{}} saveSettings={async (changes) => changes} />,
      '/calculators/pricing?quote=q_1',
      '/calculators/pricing',
    );
    expect(await screen.findByRole('img', { name: 'Preview of rosa.pes' })).toBeTruthy();
    expect(screen.queryByText(/No preview/)).toBeNull();
  });
});
