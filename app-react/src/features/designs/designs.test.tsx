// The design library's pages (issue 49, point 4) against a stand-in API: the grid says what each
// file is, the search and sort reach the server, a viewer gets no writes, and the names a file
// is stored under.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { fakeApi } from '@/test/fake-api';
import { renderPage } from '@/test/render';

import { keyOf, nthName, objectPath } from './api/files';
import { DesignPage } from './design-page';
import { DesignsPage } from './designs-page';
import { Uploads } from './components/Uploads';

const ID = '0b7f3c3e-8a0f-4a55-9f0e-2b9c1f7f0a11';
const summary = {
  format: 'pes',
  stitches: 7200,
  jumps: 14,
  trims: 3,
  colour_changes: 2,
  colours: 3,
  width_mm: 80.5,
  height_mm: 61.2,
  thread_colours: ['#ff0000', '#00a050', '#ff0000'],
  threads_needed: 2,
};
const item = (id: string, name: string, design: unknown, size = 2048) => ({
  id,
  name,
  size,
  mimetype: 'application/octet-stream',
  etag: `"${'a'.repeat(64)}"`,
  created_at: '2026-12-07T10:00:00Z',
  updated_at: '2026-12-07T10:00:00Z',
  design,
});
const page = {
  designs: [
    item(ID, 'rosa.pes', { summary }),
    item('1b7f3c3e-8a0f-4a55-9f0e-2b9c1f7f0a11', 'cut.dst', { unreadable: 'The file ends inside a stitch record.' }),
    item('2b7f3c3e-8a0f-4a55-9f0e-2b9c1f7f0a11', 'notes.txt', null, 14),
  ],
  total: 3,
  page: 1,
  per_page: 24,
};
const LIST = 'GET /teams/tm_shop/designs?q=&sort=name&order=asc&page=1&per_page=24';

function library(extra: Record<string, () => Response> = {}) {
  return fakeApi({
    [LIST]: () => Response.json(page),
    'GET /storage/v1/bucket/tm_shop': () => Response.json({ id: 'tm_shop', file_size_limit: 20 * 1024 * 1024 }),
    [`GET /teams/tm_shop/designs/${ID}/preview.svg`]: () =>
      new Response('<svg xmlns="http://www.w3.org/2000/svg"/>', { headers: { 'Content-Type': 'image/svg+xml' } }),
    ...extra,
  });
}

describe('the design library', () => {
  it('shows each file with its preview and figures, or what it is when it is no design', async () => {
    library();
    renderPage(<DesignsPage teamId="tm_shop" canWrite />, '/designs');
    const grid = await screen.findByRole('list', { name: 'Designs' });
    const [rosa, cut, notes] = within(grid).getAllByRole('listitem');
    expect(rosa?.textContent).toContain('7,200 stitches');
    expect(rosa?.textContent).toContain('80.5 × 61.2 mm');
    expect(rosa?.textContent).toContain('2 colours: #ff0000, #00a050');
    const preview = await within(rosa!).findByRole('img', { name: 'Preview of rosa.pes' });
    expect(preview.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(cut?.textContent).toContain('Not a design Bobbin can read');
    expect(notes?.textContent).toContain('Plain file');
    expect(notes?.textContent).toContain('14 bytes');
    expect(screen.getByText('3 files')).toBeTruthy();
    expect(within(rosa!).getByRole('button', { name: 'Rename rosa.pes' })).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Design files').disabled).toBe(false);
  });

  it('asks the server for the name searched and the order chosen', async () => {
    const api = library({
      'GET /teams/tm_shop/designs?q=ros&sort=name&order=asc&page=1&per_page=24': () =>
        Response.json({ ...page, designs: page.designs.slice(0, 1), total: 1 }),
      'GET /teams/tm_shop/designs?q=ros&sort=updated&order=desc&page=1&per_page=24': () =>
        Response.json({ ...page, designs: page.designs.slice(0, 1), total: 1 }),
    });
    renderPage(<DesignsPage teamId="tm_shop" canWrite={false} />, '/designs');
    await screen.findByRole('list', { name: 'Designs' });
    await userEvent.type(screen.getByLabelText('Search designs'), 'ros');
    await screen.findByText('1 file with "ros" in the name');
    await userEvent.selectOptions(screen.getByLabelText('Sort'), 'Recently changed first');
    await waitFor(() => expect(api.callsTo('GET /teams/tm_shop/designs?q=ros&sort=updated&order=desc&page=1&per_page=24')).toHaveLength(1));
    // A viewer reads: no uploads, renames or removals.
    expect(screen.queryByLabelText('Design files')).toBeNull();
    expect(screen.queryByRole('button', { name: /^Rename/ })).toBeNull();
  });

  it("shows a design's blocks in stitching order, its quotes, and the way to price it", async () => {
    library({
      [`GET /teams/tm_shop/designs/${ID}`]: () =>
        Response.json({
          design: item(ID, 'rosa.pes', {
            summary,
            blocks: [
              { stitches: 4000, colour: '#ff0000' },
              { stitches: 2000, colour: '#00a050' },
              { stitches: 1200, colour: '#ff0000' },
            ],
          }),
          quotes: [
            {
              id: 'q1234567890abcde',
              name: 'Café Rosa: 50 polos',
              currency: 'EUR',
              quantity: 50,
              per_piece: '7.12',
              total: '356.00',
              created_by_email: null,
              created_at: '2026-12-07T10:00:00Z',
            },
          ],
          quotes_total: 1,
        }),
    });
    renderPage(<DesignPage teamId="tm_shop" canWrite designId={ID} />, `/designs/${ID}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'rosa.pes' })).toBeTruthy();
    const blocks = within(screen.getByRole('region', { name: 'Colour blocks in stitching order' })).getAllByRole('listitem');
    expect(blocks.map((block) => block.textContent)).toEqual([
      'Block 1#ff00004,000 stitches',
      'Block 2#00a0502,000 stitches',
      'Block 3#ff00001,200 stitches',
    ]);
    expect(screen.getByRole('link', { name: 'Price this design' }).getAttribute('href')).toBe(`/calculators/pricing?design=${ID}`);
    expect(screen.getByRole('link', { name: 'Download' }).getAttribute('href')).toBe('/storage/v1/object/authenticated/tm_shop/rosa.pes');
    expect(screen.getByRole('link', { name: 'Café Rosa: 50 polos' }).getAttribute('href')).toBe(
      '/calculators/pricing?quote=q1234567890abcde',
    );
  });

  it('says so when the design is not in the library', async () => {
    library({
      [`GET /teams/tm_shop/designs/${ID}`]: () => Response.json({ code: 'not_found', message: 'No such file.' }, { status: 404 }),
    });
    renderPage(<DesignPage teamId="tm_shop" canWrite designId={ID} />, `/designs/${ID}`);
    expect((await screen.findByRole('alert')).textContent).toContain("There is no such file in this team's library");
  });
});

describe('renaming', () => {
  it("renames the file's own name and keeps the folder it is in", async () => {
    const api = fakeApi({
      [LIST]: () => Response.json({ ...page, designs: [item(ID, 'logos/rosa.pes', { summary })], total: 1 }),
      'GET /storage/v1/bucket/tm_shop': () => Response.json({ id: 'tm_shop', file_size_limit: null }),
      [`GET /teams/tm_shop/designs/${ID}/preview.svg`]: () => new Response('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      'POST /storage/v1/object/move': () => Response.json({ message: 'Successfully moved' }),
    });
    renderPage(<DesignsPage teamId="tm_shop" canWrite />, '/designs');
    await userEvent.click(await screen.findByRole('button', { name: 'Rename logos/rosa.pes' }));
    const field = screen.getByLabelText<HTMLInputElement>('New name for logos/rosa.pes');
    expect(field.value).toBe('rosa.pes');
    // Unchanged: nothing is sent.
    await userEvent.click(screen.getByRole('button', { name: 'Save name' }));
    expect(api.callsTo('POST /storage/v1/object/move')).toEqual([]);
    await userEvent.click(await screen.findByRole('button', { name: 'Rename logos/rosa.pes' }));
    await userEvent.clear(screen.getByLabelText('New name for logos/rosa.pes'));
    await userEvent.type(screen.getByLabelText('New name for logos/rosa.pes'), 'rose/2.pes');
    await userEvent.click(screen.getByRole('button', { name: 'Save name' }));
    await waitFor(() =>
      expect(api.callsTo('POST /storage/v1/object/move')).toEqual([
        { bucketId: 'tm_shop', sourceKey: 'logos/rosa.pes', destinationKey: 'logos/rose-2.pes' },
      ]),
    );
  });
});

describe('adding files', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('refuses a file over the bucket’s limit before sending it, in words, and says so offline', async () => {
    const api = fakeApi({});
    // Uploads go by XMLHttpRequest, not fetch: none may be opened.
    const opened: string[] = [];
    vi.stubGlobal(
      'XMLHttpRequest',
      class {
        upload = new EventTarget();
        open(_method: string, url: string) {
          opened.push(url);
        }
      },
    );
    const { unmount } = renderPage(<Uploads teamId="tm_shop" maxBytes={1000} online />, '/designs');
    await userEvent.upload(screen.getByLabelText('Design files'), new File([new Uint8Array(2500)], 'huge.dst'));
    expect((await screen.findByRole('alert')).textContent).toBe('This file is 2.5 KB; the library takes files up to 1 KB.');
    expect(screen.getByRole('status').textContent).toBe('0 of 1 file added, 1 refused.');
    expect(api.calls).toEqual([]);
    expect(opened).toEqual([]);
    unmount();
    renderPage(<Uploads teamId="tm_shop" maxBytes={1000} online={false} />, '/designs');
    expect(screen.getByLabelText<HTMLInputElement>('Design files').disabled).toBe(true);
    expect(screen.getByText(/read-only while this device is offline/)).toBeTruthy();
  });
});

describe('the names a file is stored under', () => {
  it('keeps its own name, without the characters the storage refuses, then numbers it when taken', () => {
    expect(keyOf('Rosa logo.dst')).toBe('Rosa logo.dst');
    expect(keyOf('a/b\\c?d#e\u202e.pes')).toBe('a-b-c-d-e-.pes');
    expect(keyOf('  ')).toBe('design');
    expect(keyOf('..')).toBe('design');
    expect(nthName('rosa.dst', 1)).toBe('rosa.dst');
    expect(nthName('rosa.dst', 2)).toBe('rosa (2).dst');
    expect(nthName('README', 3)).toBe('README (3)');
    expect(objectPath('tm_shop', 'logos/rosa logo.dst')).toBe('tm_shop/logos/rosa%20logo.dst');
  });
});
