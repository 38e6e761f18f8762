import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { type FakeApi, apiError, fakeApi } from '@/test/fake-api';
import { renderPage } from '@/test/render';

import { draftOf } from './components/MachineForm';
import { problemsOf } from './errors';
import { today } from '@/lib/dates';

import { MaintenanceDue, dueSoon } from './components/MaintenanceDue';
import { MachinePage } from './machine-page';
import { ShoppingListPage } from './shopping-list-page';
import { inputOf, valuesOf, ThreadPage } from './thread-page';
import { defaultFilters, hexOf, readFilters, writeFilters } from './thread-filters';
import { ThreadsPage, pageRange } from './threads-page';
import type { ImportResult, Machine, ThreadView } from './types';
import { ApiError } from '@/lib/api-client';

const LIST = 'GET /teams/tm_shop/threads?sort=code&order=asc&page=1&per_page=50';

function aThread(id: string, extra: Partial<ThreadView> = {}): ThreadView {
  return {
    id,
    line: 'madeira-polyneon-40',
    line_name: 'Madeira Polyneon 40',
    code: '1800',
    name: 'Navy',
    colour: '#1f2a44',
    fibre: 'polyester',
    quantity: 2,
    spool_length_m: 1000,
    location: 'Shelf A',
    reorder_point: 1,
    cost_per_spool: 4.5,
    notes: '',
    low: false,
    to_buy: 0,
    version: 1,
    updated_by_email: 'me@example.com',
    updated_at: '2026-11-23T10:00:00Z',
    ...extra,
  };
}

let server: FakeApi;

function threadsServer(threads: ThreadView[]) {
  server = fakeApi({
    [LIST]: () => Response.json({ threads, total: threads.length, page: 1, per_page: 50 }),
    'GET /catalog/lines': () => Response.json({ lines: [{ id: 'madeira-polyneon-40', display_name: 'Madeira Polyneon 40' }] }),
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the thread list', () => {
  it('shows each thread with its swatch, quantity and low-stock badge, and the page range', async () => {
    threadsServer([aThread('th_1'), aThread('th_2', { code: '1801', name: 'Sky', low: true, quantity: 0.5 })]);
    renderPage(<ThreadsPage teamId="tm_shop" canWrite />, '/inventory/threads');
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('link', { name: 'Navy' })).toBeTruthy();
    expect(within(table).getByText('Low stock')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Quantity of 1801 Sky').value).toBe('0.5');
    expect(screen.getByText('1–2 of 2')).toBeTruthy();
  });

  it('keeps the filters beyond the search behind one button that counts those in use (shown on a phone)', async () => {
    server = fakeApi({
      'GET /teams/tm_shop/threads?line=madeira-polyneon-40&low=true&sort=code&order=asc&page=1&per_page=50': () =>
        Response.json({ threads: [aThread('th_1')], total: 1, page: 1, per_page: 50 }),
      'GET /catalog/lines': () => Response.json({ lines: [{ id: 'madeira-polyneon-40', display_name: 'Madeira Polyneon 40' }] }),
    });
    renderPage(<ThreadsPage teamId="tm_shop" canWrite />, '/inventory/threads?line=madeira-polyneon-40&low=true');
    const toggle = await screen.findByRole('button', { name: 'Filters (2)' });
    const more = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(more?.hasAttribute('data-open')).toBe(false);
    expect(more?.contains(within(screen.getByRole('search')).getByLabelText('Line'))).toBe(true);
    expect(more?.contains(within(screen.getByRole('search')).getByLabelText('Search'))).toBe(false);

    await userEvent.setup().click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(more?.hasAttribute('data-open')).toBe(true);
  });

  it('adds one in a tap and shows it before the server answers', async () => {
    threadsServer([aThread('th_1')]);
    let answer: (response: Response) => void = () => {};
    server.handlers['POST /teams/tm_shop/threads/th_1/adjust'] = () => new Promise((resolve) => (answer = resolve));
    renderPage(<ThreadsPage teamId="tm_shop" canWrite />, '/inventory/threads');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: '+1: one more of 1800 Navy' }));
    expect(screen.getByLabelText<HTMLInputElement>('Quantity of 1800 Navy').value).toBe('3');
    expect(server.callsTo('POST /teams/tm_shop/threads/th_1/adjust')).toEqual([{ delta: 1 }]);
    answer(Response.json({ thread: aThread('th_1', { quantity: 3 }) }));
  });

  it('puts the quantity back and says why when the server refuses', async () => {
    threadsServer([aThread('th_1', { quantity: 1 })]);
    server.handlers['POST /teams/tm_shop/threads/th_1/adjust'] = () =>
      apiError(422, 'negative_quantity', 'That would leave fewer than zero spools.');
    renderPage(<ThreadsPage teamId="tm_shop" canWrite />, '/inventory/threads');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: '−1: one fewer of 1800 Navy' }));
    expect((await screen.findByRole('alert')).textContent).toContain('fewer than zero');
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Quantity of 1800 Navy').value).toBe('1'));
  });

  it('takes a count typed into the list, as replacing the count seen, and names both when a teammate changed it since', async () => {
    const threads = [aThread('th_1'), aThread('th_2', { code: '1801', name: 'Sky' })];
    threadsServer(threads);
    server.handlers['POST /teams/tm_shop/threads/th_1/quantity'] = () => {
      threads[0] = aThread('th_1', { quantity: 12 });
      return Response.json({ thread: threads[0] });
    };
    server.handlers['POST /teams/tm_shop/threads/th_2/quantity'] = () =>
      apiError(409, 'quantity_changed', 'Someone changed this count to 3 after you saw 2, so your 7 was not saved.');
    renderPage(<ThreadsPage teamId="tm_shop" canWrite />, '/inventory/threads');
    const user = userEvent.setup();
    const navy = await screen.findByLabelText<HTMLInputElement>('Quantity of 1800 Navy');
    await user.clear(navy);
    await user.type(navy, '12{Enter}');
    await waitFor(() => expect(server.callsTo('POST /teams/tm_shop/threads/th_1/quantity')).toEqual([{ quantity: 12, expected: 2 }]));
    expect(navy.value).toBe('12');

    const sky = screen.getByLabelText<HTMLInputElement>('Quantity of 1801 Sky');
    await user.clear(sky);
    await user.type(sky, '7');
    await user.tab();
    expect((await screen.findByRole('alert')).textContent).toContain('to 3 after you saw 2, so your 7 was not saved');
  });

  it('sets one location and reorder point for the threads chosen, in one request', async () => {
    threadsServer([aThread('th_1'), aThread('th_2', { code: '1801', name: 'Sky' }), aThread('th_3', { code: '1610', name: 'Moss' })]);
    server.handlers['PATCH /teams/tm_shop/threads'] = (body) =>
      Response.json({ threads: (body as { ids: string[] }).ids.map((id) => aThread(id, { location: 'Shelf 3' })) });
    renderPage(<ThreadsPage teamId="tm_shop" canWrite />, '/inventory/threads');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'Choose 1800 Navy' }));
    await user.click(screen.getByRole('checkbox', { name: 'Choose 1610 Moss' }));
    const form = screen.getByRole('form', { name: 'Change the chosen threads' });
    expect(form.textContent).toContain('2 threads chosen');
    await user.type(within(form).getByLabelText('Location'), 'Shelf 3');
    await user.type(within(form).getByLabelText('Reorder point'), '2');
    await user.click(within(form).getByRole('button', { name: 'Set for the chosen' }));

    expect(await screen.findByText('Changed 2 threads.')).toBeTruthy();
    expect(server.callsTo('PATCH /teams/tm_shop/threads')).toEqual([{ ids: ['th_1', 'th_3'], location: 'Shelf 3', reorder_point: 2 }]);
    expect(screen.queryByRole('form', { name: 'Change the chosen threads' })).toBeNull();
  });

  it('shows viewers no controls that change the inventory', async () => {
    threadsServer([aThread('th_1')]);
    renderPage(<ThreadsPage teamId="tm_shop" canWrite={false} />, '/inventory/threads');
    await screen.findByRole('table');
    expect(screen.queryByRole('button', { name: /One more/ })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Add thread' })).toBeNull();
    expect(screen.queryByLabelText('CSV file')).toBeNull();
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe('/api/v2/teams/tm_shop/threads/export.csv');
    expect(screen.getByRole('link', { name: 'Shopping list' }).getAttribute('href')).toBe('/inventory/shopping-list');
  });

  // Issue 52: "A template CSV can be downloaded from the import dialog."
  it('offers a template CSV with the columns of an export, a catalogue thread and a custom one', async () => {
    threadsServer([]);
    renderPage(<ThreadsPage teamId="tm_shop" canWrite />, '/inventory/threads');
    const link = await screen.findByRole('link', { name: 'Download a template CSV' });
    expect(link.getAttribute('download')).toBe('bobbin-threads-template.csv');
    const href = link.getAttribute('href') ?? '';
    expect(href.startsWith('data:text/csv;charset=utf-8,')).toBe(true);
    const rows = decodeURIComponent(href.slice(href.indexOf(',') + 1))
      .trimEnd()
      .split('\n');
    expect(rows[0]).toBe('line,code,name,colour,quantity,spool_length_m,location,reorder_point,cost_per_spool,notes');
    expect(rows).toHaveLength(3);
    expect(rows.slice(1).every((row) => row.split(',').length === 10)).toBe(true);
  });

  it('previews an import with its problems, and offers Import only once every row is valid', async () => {
    threadsServer([]);
    const bad: ImportResult = {
      rows: [
        {
          line: 2,
          thread_line: 'madeira-polyneon-40',
          code: '9999',
          name: '',
          quantity: '1',
          action: null,
          problems: [{ field: 'code', code: 'unknown_code', message: 'No thread 9999 in this line.' }],
          warnings: [],
        },
      ],
      ignored_columns: [],
      valid: false,
      committed: false,
      added: 0,
      updated: 0,
      skipped: 0,
    };
    const good: ImportResult = { ...bad, rows: [{ ...bad.rows[0]!, code: '1800', action: 'add', problems: [] }], valid: true };
    server.handlers['POST /teams/tm_shop/threads/import'] = (body) => {
      const { csv, commit } = body as { csv: string; commit: boolean };
      if (csv.includes('9999')) return Response.json(bad);
      return Response.json(commit ? { ...good, committed: true, added: 1 } : good);
    };
    renderPage(<ThreadsPage teamId="tm_shop" canWrite />, '/inventory/threads');
    const user = userEvent.setup();
    const input = await screen.findByLabelText('CSV file');
    await user.upload(input, new File(['line,code,quantity\nmadeira-polyneon-40,9999,1\n'], 'threads.csv', { type: 'text/csv' }));
    expect(await screen.findByText('No thread 9999 in this line.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();
    await user.upload(input, new File(['line,code,quantity\nmadeira-polyneon-40,1800,1\n'], 'threads.csv', { type: 'text/csv' }));
    await user.click(await screen.findByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Imported: 1 added, 0 updated.')).toBeTruthy();
    expect(server.callsTo('POST /teams/tm_shop/threads/import').map((call) => (call as { commit: boolean }).commit)).toEqual([
      false,
      false,
      true,
    ]);
  });

  it('imports the good rows of a file with bad ones when asked, and lists the skipped rows and the warnings', async () => {
    threadsServer([]);
    const row = (line: number, code: string, extra: Partial<ImportResult['rows'][number]> = {}) => ({
      line,
      thread_line: 'madeira-polyneon',
      code,
      name: '',
      quantity: '1',
      action: 'add',
      problems: [],
      warnings: [],
      ...extra,
    });
    const rows = [
      row(2, '1801', {
        name: 'White',
        warnings: [
          {
            field: 'name',
            code: 'name_differs',
            message: 'The file calls Madeira Polyneon 1801 "White"; the catalogue calls it "Barely Blue".',
          },
        ],
      }),
      row(3, '9999', { action: null, problems: [{ field: 'code', code: 'unknown_code', message: 'No thread 9999 in this line.' }] }),
      row(4, '1610'),
    ];
    const preview: ImportResult = { rows, ignored_columns: [], valid: false, committed: false, added: 0, updated: 0, skipped: 0 };
    server.handlers['POST /teams/tm_shop/threads/import'] = (body) => {
      const { commit } = body as { commit: boolean };
      return Response.json(commit ? { ...preview, committed: true, added: 2, skipped: 1 } : preview);
    };
    renderPage(<ThreadsPage teamId="tm_shop" canWrite />, '/inventory/threads');
    const user = userEvent.setup();
    await user.upload(await screen.findByLabelText('CSV file'), new File(['a file'], 'threads.csv', { type: 'text/csv' }));
    expect(await screen.findByText(/the catalogue calls it "Barely Blue"/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Import the 2 good rows, skip 1' }));

    expect(await screen.findByText('Imported: 2 added, 0 updated. Skipped row 3: see below.')).toBeTruthy();
    expect(screen.getByText('No thread 9999 in this line.')).toBeTruthy();
    expect(server.callsTo('POST /teams/tm_shop/threads/import').at(-1)).toEqual({ csv: 'a file', commit: true, skip_invalid: true });
  });

  it('counts pages as people read them', () => {
    expect(pageRange(2, 50, 50, 240)).toBe('51–100 of 240');
    expect(pageRange(5, 50, 40, 240)).toBe('201–240 of 240');
    expect(pageRange(1, 50, 0, 0)).toBe('0 of 0');
  });
});

describe('the thread list in the address', () => {
  const lines = () => Response.json({ lines: [{ id: 'madeira-polyneon-40', display_name: 'Madeira Polyneon 40', fibre: 'polyester' }] });
  const pageOf =
    (threads: ThreadView[], page = 1, total = threads.length) =>
    () =>
      Response.json({ threads, total, page, per_page: 50 });

  it('reads the filters and the page from the address', async () => {
    server = fakeApi({
      'GET /teams/tm_shop/threads?q=navy&location=Shelf+A&low=true&sort=name&order=desc&page=2&per_page=50': pageOf(
        [aThread('th_1')],
        2,
        51,
      ),
      'GET /catalog/lines': lines,
    });
    renderPage(
      <ThreadsPage teamId="tm_shop" canWrite />,
      '/inventory/threads?q=navy&location=Shelf+A&low=true&sort=name&order=desc&page=2',
    );
    expect(await screen.findByText('51–51 of 51')).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search' }).value).toBe('navy');
    expect(within(screen.getByRole('search')).getByLabelText<HTMLInputElement>('Location').value).toBe('Shelf A');
    expect(screen.getByLabelText<HTMLInputElement>('Low stock only').checked).toBe(true);
    expect(screen.getByLabelText<HTMLSelectElement>('Sort by').value).toBe('name');
    expect(screen.getByLabelText<HTMLSelectElement>('Order').value).toBe('desc');
  });

  it('writes what is typed to the address in place, leaving defaults out and going back to page 1', async () => {
    server = fakeApi({
      'GET /teams/tm_shop/threads?sort=code&order=asc&page=3&per_page=50': pageOf([aThread('th_1')], 3, 101),
      'GET /catalog/lines': lines,
    });
    const page = renderPage(<ThreadsPage teamId="tm_shop" canWrite />, '/inventory/threads?page=3');
    const user = userEvent.setup();
    await screen.findByText('101–101 of 101');
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'sky');
    await waitFor(() => expect(page.location()).toBe('/inventory/threads?q=sky'));
    expect(page.router.action).toBe('REPLACE');
    await user.click(screen.getByLabelText('Low stock only'));
    await user.selectOptions(screen.getByLabelText('Sort by'), 'quantity');
    await waitFor(() => expect(page.location()).toBe('/inventory/threads?q=sky&low=true&sort=quantity'));
    await user.click(screen.getByLabelText('Low stock only'));
    await user.selectOptions(screen.getByLabelText('Sort by'), 'code');
    await waitFor(() => expect(page.location()).toBe('/inventory/threads?q=sky'));
    expect(screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search' }).value).toBe('sky');
  });

  it('gives a new page its own history entry, and Back and links bring their filters with them', async () => {
    server = fakeApi({
      'GET /teams/tm_shop/threads?q=navy&sort=code&order=asc&page=1&per_page=50': pageOf([aThread('th_1')], 1, 60),
      'GET /teams/tm_shop/threads?q=navy&sort=code&order=asc&page=2&per_page=50': pageOf([aThread('th_2')], 2, 60),
      'GET /teams/tm_shop/threads?q=sky&sort=code&order=asc&page=1&per_page=50': pageOf([], 1, 0),
      'GET /catalog/lines': lines,
    });
    const page = renderPage(<ThreadsPage teamId="tm_shop" canWrite />, '/inventory/threads?q=navy');
    const user = userEvent.setup();
    await screen.findByText('1–1 of 60');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(page.location()).toBe('/inventory/threads?q=navy&page=2'));
    expect(page.router.action).toBe('PUSH');
    expect(await screen.findByText('51–51 of 60')).toBeTruthy();
    await page.router.navigate(-1);
    await waitFor(() => expect(page.location()).toBe('/inventory/threads?q=navy'));
    expect(await screen.findByText('1–1 of 60')).toBeTruthy();
    await page.router.navigate('/inventory/threads?q=sky');
    await waitFor(() => expect(screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search' }).value).toBe('sky'));
    expect(await screen.findByText('No thread matches these filters.')).toBeTruthy();
  });

  it('reads and writes the address, ignoring what it cannot read', () => {
    const read = readFilters(new URLSearchParams('q=a&closest=1f2a44&sort=colour&order=up&page=-2&low=1&fibre=rayon'));
    expect(read).toEqual({ ...defaultFilters, q: 'a', closest: '#1F2A44', fibre: 'rayon' });
    expect(writeFilters(read).toString()).toBe('q=a&closest=1F2A44&fibre=rayon');
    expect(writeFilters({ ...defaultFilters, closest: '#1F2A4' }).toString()).toBe('');
    expect(writeFilters(defaultFilters).toString()).toBe('');
    expect(hexOf(' 1f2a44 ')).toBe('#1F2A44');
    expect(hexOf('#1f2a4g')).toBeNull();
  });
});

describe('the fibre and colour filters', () => {
  const lines = () =>
    Response.json({
      lines: [
        { id: 'madeira-polyneon-40', display_name: 'Madeira Polyneon 40', fibre: 'polyester' },
        { id: 'madeira-rayon-40', display_name: 'Madeira Rayon 40', fibre: 'rayon' },
        { id: 'isacord-polyester', display_name: 'Isacord Polyester', fibre: 'polyester' },
        { id: 'madeira-burmilana', display_name: 'Madeira Burmilana', fibre: 'wool-blend' },
        { id: 'pantone', display_name: 'Pantone', fibre: null },
      ],
    });
  const NEAREST = 'GET /teams/tm_shop/threads?closest=%231F2A44&sort=code&order=asc&page=1&per_page=50';

  it('offers each fibre of the catalogue once, and filters by the one chosen from page 1', async () => {
    server = fakeApi({
      'GET /teams/tm_shop/threads?sort=code&order=asc&page=2&per_page=50': () =>
        Response.json({ threads: [aThread('th_1')], total: 51, page: 2, per_page: 50 }),
      'GET /teams/tm_shop/threads?fibre=wool-blend&sort=code&order=asc&page=1&per_page=50': () =>
        Response.json({ threads: [], total: 0, page: 1, per_page: 50 }),
      'GET /catalog/lines': lines,
    });
    const page = renderPage(<ThreadsPage teamId="tm_shop" canWrite />, '/inventory/threads?page=2');
    const user = userEvent.setup();
    const select = screen.getByLabelText('Fibre');
    await waitFor(() =>
      expect(
        within(select)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['All fibres', 'Polyester', 'Rayon', 'Wool blend']),
    );
    await user.selectOptions(select, 'wool-blend');
    await waitFor(() => expect(page.location()).toBe('/inventory/threads?fibre=wool-blend'));
    expect(await screen.findByText('No thread matches these filters.')).toBeTruthy();
  });

  it('orders by closeness to a typed colour, shows each difference, and clears', async () => {
    server = fakeApi({
      [LIST]: () => Response.json({ threads: [aThread('th_1')], total: 1, page: 1, per_page: 50 }),
      [NEAREST]: () =>
        Response.json({
          threads: [aThread('th_1', { distance: 0 }), aThread('th_2', { code: '1801', name: 'Sky', distance: 12.345 })],
          total: 2,
          page: 1,
          per_page: 50,
        }),
      'GET /catalog/lines': lines,
    });
    const page = renderPage(<ThreadsPage teamId="tm_shop" canWrite />, '/inventory/threads');
    const user = userEvent.setup();
    await screen.findByRole('table');
    await user.type(screen.getByLabelText('Closest to colour'), '1f2a44');
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(3));
    expect(screen.getByRole('columnheader', { name: 'ΔE' })).toBeTruthy();
    const sky = screen.getAllByRole('row')[2]!;
    expect(within(sky).getByText('ΔE 12.3')).toBeTruthy();
    expect(within(sky).getByText('Colour difference 12.3')).toBeTruthy();
    expect(within(screen.getAllByRole('row')[1]!).getByText('ΔE 0.0')).toBeTruthy();
    expect(page.location()).toBe('/inventory/threads?closest=1F2A44');
    expect(screen.getByLabelText<HTMLInputElement>('Pick the colour').value).toBe('#1f2a44');
    expect(screen.getByLabelText<HTMLSelectElement>('Sort by').disabled).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Clear the colour' }));
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(2));
    expect(screen.queryByRole('columnheader', { name: 'ΔE' })).toBeNull();
    expect(screen.queryByText(/Colour difference/)).toBeNull();
    expect(screen.getByLabelText<HTMLInputElement>('Closest to colour').value).toBe('');
    expect(page.location()).toBe('/inventory/threads');
  });

  it('takes the colour from the picker and from a shared link', async () => {
    server = fakeApi({
      [NEAREST]: () => Response.json({ threads: [aThread('th_1', { distance: 2.34 })], total: 1, page: 1, per_page: 50 }),
      'GET /teams/tm_shop/threads?closest=%23AABBCC&sort=code&order=asc&page=1&per_page=50': () =>
        Response.json({ threads: [aThread('th_1', { distance: 40 })], total: 1, page: 1, per_page: 50 }),
      'GET /catalog/lines': lines,
    });
    const page = renderPage(<ThreadsPage teamId="tm_shop" canWrite />, '/inventory/threads?closest=1f2a44');
    expect(await screen.findByText('ΔE 2.3')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Closest to colour').value).toBe('#1F2A44');
    fireEvent.change(screen.getByLabelText('Pick the colour'), { target: { value: '#aabbcc' } });
    expect(screen.getByLabelText<HTMLInputElement>('Closest to colour').value).toBe('#AABBCC');
    expect(await screen.findByText('ΔE 40.0')).toBeTruthy();
    await waitFor(() => expect(page.location()).toBe('/inventory/threads?closest=AABBCC'));
  });

  it('says what is wrong with a colour that is not one, and sends nothing', async () => {
    server = fakeApi({
      [LIST]: () => Response.json({ threads: [aThread('th_1')], total: 1, page: 1, per_page: 50 }),
      'GET /catalog/lines': lines,
    });
    renderPage(<ThreadsPage teamId="tm_shop" canWrite />, '/inventory/threads');
    const user = userEvent.setup();
    await screen.findByRole('table');
    const field = screen.getByLabelText('Closest to colour');
    await user.type(field, 'navy');
    expect(field.getAttribute('aria-invalid')).toBeNull();
    await user.tab();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    const error = document.getElementById(`${field.id}-error`);
    expect(error?.textContent).toBe('Give the colour as #RRGGBB, e.g. #1F2A44.');
    expect(field.getAttribute('aria-describedby')).toContain(error?.id);
    expect(server.calls.filter((call) => call.route.includes('closest'))).toEqual([]);
    expect(screen.getByRole('table')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('the shopping list', () => {
  const page = (n: number) => `GET /teams/tm_shop/threads?low=true&sort=code&page=${n}&per_page=200`;

  it('lists every low thread by line with how many to buy, and prints', async () => {
    const low = [
      aThread('th_1', { code: '1800', name: 'Navy', quantity: 0, reorder_point: null, low: true, to_buy: 3 }),
      aThread('th_2', { code: '1801', name: 'Sky', quantity: 0.5, reorder_point: 1, low: true, to_buy: 1, location: '' }),
      aThread('th_3', { line: null, line_name: null, code: null, name: 'Fair gold', quantity: 1, reorder_point: 4, low: true, to_buy: 4 }),
    ];
    server = fakeApi({ [page(1)]: () => Response.json({ threads: low, total: 3, page: 1, per_page: 200 }) });
    const print = vi.fn();
    vi.stubGlobal('print', print);
    renderPage(<ShoppingListPage teamId="tm_shop" canWrite defaultReorderPoint={2} />, '/inventory/shopping-list');
    const table = await screen.findByRole('table');
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent.trim()));
    expect(rows).toEqual([
      ['Madeira Polyneon 40'],
      ['1800 NavyShelf A', '0', '2', '3'],
      ['1801 Sky', '0.5', '1', '1'],
      ['Custom threads'],
      ['Fair goldShelf A', '1', '4', '4'],
    ]);
    expect(screen.getByRole('status').textContent).toBe('3 threads to buy, 8 spools in all.');
    expect(screen.getByText(/at 2 spools or fewer \(the team's default\)/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe(
      '/api/v2/teams/tm_shop/threads/export.csv?low=true',
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledOnce();
  });

  it('reads every page of a long list', async () => {
    const many = Array.from({ length: 201 }, (_, i) => aThread(`th_${i}`, { code: String(1000 + i), low: true, to_buy: 1 }));
    server = fakeApi({
      [page(1)]: () => Response.json({ threads: many.slice(0, 200), total: 201, page: 1, per_page: 200 }),
      [page(2)]: () => Response.json({ threads: many.slice(200), total: 201, page: 2, per_page: 200 }),
    });
    renderPage(<ShoppingListPage teamId="tm_shop" canWrite defaultReorderPoint={null} />, '/inventory/shopping-list');
    expect(await screen.findByText('201 threads to buy, 201 spools in all.', {}, { timeout: 3000 })).toBeTruthy();
  });

  it('says when nothing is low', async () => {
    server = fakeApi({ [page(1)]: () => Response.json({ threads: [], total: 0, page: 1, per_page: 200 }) });
    renderPage(<ShoppingListPage teamId="tm_shop" canWrite defaultReorderPoint={null} />, '/inventory/shopping-list');
    expect(await screen.findByText('Nothing to buy: no thread is low.')).toBeTruthy();
    expect(screen.getByText(/a thread without a reorder point of its own is low only then/)).toBeTruthy();
  });
});

describe('the thread details', () => {
  // A clash with someone's change: edit-conflict.test.tsx.
  it('saves from the version read, and shows who changed it last', async () => {
    let stored = aThread('th_1');
    server = fakeApi({
      'GET /teams/tm_shop/threads/th_1': () => Response.json({ thread: stored }),
      'GET /catalog/lines': () => Response.json({ lines: [{ id: 'madeira-polyneon-40', display_name: 'Madeira Polyneon 40' }] }),
      'PUT /teams/tm_shop/threads/th_1': (body) => {
        stored = aThread('th_1', { ...(body as object), version: stored.version + 1 });
        return Response.json({ thread: stored });
      },
    });
    renderPage(<ThreadPage teamId="tm_shop" canWrite threadId="th_1" />, '/inventory/threads/th_1');
    const user = userEvent.setup();
    const location = await screen.findByLabelText('Location');
    // Who changed it last, and when.
    expect(screen.getByText(/^Last changed /).textContent).toMatch(/ by me@example\.com\.$/);
    await user.clear(location);
    await user.type(location, 'Drawer 2');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('status')).textContent).toBe('Saved.');
    expect(server.callsTo('PUT /teams/tm_shop/threads/th_1')[0]).toMatchObject({
      version: 1,
      location: 'Drawer 2',
      line: 'madeira-polyneon-40',
      code: '1800',
    });
    // The next save is made from the version the first one stored.
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.callsTo('PUT /teams/tm_shop/threads/th_1')[1]).toMatchObject({ version: 2 }));
  });

  it("shows the server's field messages next to their inputs", async () => {
    server = fakeApi({
      'GET /teams/tm_shop/threads/th_1': () => Response.json({ thread: aThread('th_1') }),
      'GET /catalog/lines': () => Response.json({ lines: [] }),
      'PUT /teams/tm_shop/threads/th_1': () =>
        apiError(422, 'validation_failed', 'Check the fields.', {
          fields: [{ field: 'reorder_point', code: 'bad_number', message: 'Too many decimals.' }],
        }),
    });
    renderPage(<ThreadPage teamId="tm_shop" canWrite threadId="th_1" />, '/inventory/threads/th_1');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    const reorder = screen.getByLabelText('Reorder point');
    await waitFor(() => expect(reorder.getAttribute('aria-invalid')).toBe('true'));
    // Described by its hint, then its message.
    const [hint, message] = (reorder.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent);
    expect([hint, message]).toEqual([
      "Low at or below this. Empty: the team's default reorder point, if it has one.",
      'Too many decimals.',
    ]);
  });

  it('removes the thread only once the dialog is confirmed, then goes back to the list', async () => {
    server = fakeApi({
      'GET /teams/tm_shop/threads/th_1': () => Response.json({ thread: aThread('th_1') }),
      'GET /catalog/lines': () => Response.json({ lines: [] }),
      'DELETE /teams/tm_shop/threads/th_1': () => new Response(null, { status: 204 }),
    });
    const page = renderPage(<ThreadPage teamId="tm_shop" canWrite threadId="th_1" />, '/inventory/threads/th_1');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Remove from inventory' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this thread?' });
    expect(server.callsTo('DELETE /teams/tm_shop/threads/th_1')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Remove from inventory' }));
    await waitFor(() => expect(page.location()).toBe('/inventory/threads'));
    expect(server.callsTo('DELETE /teams/tm_shop/threads/th_1')).toHaveLength(1);
  });

  it('reads the typed numbers, refusing what is not one', () => {
    const values = valuesOf(aThread('th_1'));
    expect(inputOf({ ...values, quantity: '1,5' })).toMatchObject({ input: { quantity: 1.5 } });
    expect(inputOf({ ...values, cost_per_spool: 'lots' })).toEqual({ fields: { cost_per_spool: 'Enter a number, e.g. 2 or 1.5.' } });
    expect(inputOf({ ...values, line: '', name: 'Mine', colour: '#ff0000' })).toMatchObject({ input: { name: 'Mine', colour: '#ff0000' } });
  });
});

function aMachine(extra: Partial<Machine> = {}): Machine {
  return {
    id: 'mc_1',
    name: 'Tajima',
    brand: 'Tajima',
    model: 'TMBR',
    serial_number: '',
    heads: 1,
    needles_per_head: 15,
    max_spm: 1200,
    typical_spm: 800,
    hoops: [{ name: 'Large', width_mm: 300, height_mm: 200 }],
    status: 'active',
    purchase_date: null,
    notes: '',
    version: 1,
    updated_at: '2026-11-23T10:00:00Z',
    stitch_counter: null,
    due: [{ kind: 'oiling', date: '2026-11-20', at_stitches: null, overdue: true, never_done: true }],
    intervals: [
      { kind: 'oiling', days: 7, stitches: 1000000 },
      { kind: 'hook_cleaning', days: 30, stitches: 5000000 },
      { kind: 'needle_change', days: 90, stitches: 10000000 },
      { kind: 'service', days: 365, stitches: 100000000 },
    ],
    maintenance: [],
    ...extra,
  };
}

describe('the machine details', () => {
  it('logs maintenance dated today by default, and shows what is due', async () => {
    server = fakeApi({
      'GET /teams/tm_shop/machines/mc_1': () => Response.json({ machine: aMachine() }),
      'POST /teams/tm_shop/machines/mc_1/maintenance': (body) =>
        Response.json({ entry: { id: 'lg_1', created_at: '2026-11-23T10:00:00Z', ...(body as object) } }, { status: 201 }),
      'GET /teams/tm_shop/machines': () => Response.json({ machines: [] }),
    });
    renderPage(<MachinePage teamId="tm_shop" canWrite machineId="mc_1" />, '/inventory/machines/mc_1');
    const user = userEvent.setup();
    const due = await screen.findByRole('list', { name: 'Maintenance due' });
    expect(due.textContent).toContain('Oiling: due 2026-11-20 (never logged) — overdue');
    const form = screen.getByRole('form', { name: 'Log maintenance' });
    expect(within(form).getByLabelText<HTMLInputElement>('Date').value).toBe(today());
    await user.selectOptions(within(form).getByLabelText('Kind'), 'needle_change');
    // Typed as the machine's display shows it.
    await user.type(within(form).getByLabelText('Stitch counter'), '1,250,000');
    await user.click(within(form).getByRole('button', { name: 'Log maintenance' }));
    expect(await within(form).findByRole('status')).toBeTruthy();
    expect(server.callsTo('POST /teams/tm_shop/machines/mc_1/maintenance')).toEqual([
      { performed_on: today(), kind: 'needle_change', notes: '', stitch_counter: 1250000 },
    ]);
  });

  // Issue 52: "A double submit does not log the same entry twice."
  it('logs an entry once when its button is pressed twice, and again once a field changes', async () => {
    server = fakeApi({
      'GET /teams/tm_shop/machines/mc_1': () => Response.json({ machine: aMachine() }),
      'POST /teams/tm_shop/machines/mc_1/maintenance': async (body) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return Response.json({ entry: { id: 'lg_1', created_at: '2026-11-23T10:00:00Z', ...(body as object) } }, { status: 201 });
      },
      'GET /teams/tm_shop/machines': () => Response.json({ machines: [] }),
    });
    renderPage(<MachinePage teamId="tm_shop" canWrite machineId="mc_1" />, '/inventory/machines/mc_1');
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Log maintenance' });
    const button = within(form).getByRole('button', { name: 'Log maintenance' });
    await user.type(within(form).getByLabelText('Notes'), 'Oiled the hook');
    // Two submits before the page can re-render, as a double tap makes.
    fireEvent.submit(form);
    fireEvent.submit(form);
    await within(form).findByText(/^Logged oiling on /);
    await user.click(button);
    expect(await within(form).findByText(/^Already logged: oiling on /)).toBeTruthy();
    const sent = server.callsTo('POST /teams/tm_shop/machines/mc_1/maintenance');
    expect(sent).toEqual([{ performed_on: today(), kind: 'oiling', notes: 'Oiled the hook', stitch_counter: null }]);

    await user.type(within(form).getByLabelText('Notes'), 'Oiled again');
    await user.click(button);
    await waitFor(() => expect(server.callsTo('POST /teams/tm_shop/machines/mc_1/maintenance')).toHaveLength(2));
  });

  // Issue 52: "Intervals can be set per machine, in days and/or stitches, with sensible defaults
  // by kind."
  it("shows the machine's maintenance intervals and saves them changed, a blank one as none", async () => {
    server = fakeApi({
      'GET /teams/tm_shop/machines/mc_1': () => Response.json({ machine: aMachine() }),
      'PUT /teams/tm_shop/machines/mc_1': (body) => Response.json({ machine: aMachine({ version: 2, ...(body as object) }) }),
      'GET /teams/tm_shop/machines': () => Response.json({ machines: [] }),
    });
    renderPage(<MachinePage teamId="tm_shop" canWrite machineId="mc_1" />, '/inventory/machines/mc_1');
    const user = userEvent.setup();
    const schedule = await screen.findByRole('group', { name: 'Maintenance schedule' });
    expect(within(schedule).getByLabelText<HTMLInputElement>('Oiling every (days)').value).toBe('7');
    expect(within(schedule).getByLabelText<HTMLInputElement>('Service every (stitches)').value).toBe('100000000');
    await user.clear(within(schedule).getByLabelText('Oiling every (days)'));
    await user.type(within(schedule).getByLabelText('Oiling every (days)'), '3');
    await user.clear(within(schedule).getByLabelText('Oiling every (stitches)'));
    await user.clear(within(schedule).getByLabelText('Hook cleaning every (stitches)'));
    await user.type(within(schedule).getByLabelText('Hook cleaning every (stitches)'), '2,500,000');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.callsTo('PUT /teams/tm_shop/machines/mc_1')).toHaveLength(1));
    expect(server.callsTo('PUT /teams/tm_shop/machines/mc_1')[0]).toMatchObject({
      version: 1,
      intervals: [
        { kind: 'oiling', days: 3, stitches: null },
        { kind: 'hook_cleaning', days: 30, stitches: 2500000 },
        { kind: 'needle_change', days: 90, stitches: 10000000 },
        { kind: 'service', days: 365, stitches: 100000000 },
      ],
    });
  });

  it("is headed with the machine's name; the tab keeps the page's name", async () => {
    server = fakeApi({ 'GET /teams/tm_shop/machines/mc_1': () => Response.json({ machine: aMachine({ name: 'Tajima six' }) }) });
    renderPage(<MachinePage teamId="tm_shop" canWrite machineId="mc_1" />, '/inventory/machines/mc_1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Tajima six' })).toBeTruthy();
    expect(
      within(screen.getByRole('navigation', { name: 'Breadcrumb' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Machines', 'Machine Details']);
  });

  it('reads the machine form, hoops included', () => {
    const values = {
      name: 'Brother',
      brand: '',
      model: '',
      serial_number: '',
      purchase_date: '',
      notes: '',
      heads: '1',
      needles_per_head: '10',
      max_spm: '',
      typical_spm: '',
      status: 'active' as const,
    };
    expect(draftOf(values, [{ name: 'Small', width_mm: '100', height_mm: '100' }])).toMatchObject({
      draft: { name: 'Brother', needles_per_head: 10, max_spm: null, hoops: [{ name: 'Small', width_mm: 100, height_mm: 100 }] },
    });
    expect(draftOf({ ...values, name: ' ' }, [{ name: '', width_mm: 'x', height_mm: '1' }])).toEqual({
      fields: { name: 'Give the machine a name, e.g. "Tajima 6-head".', 'hoops[0].width_mm': 'Enter a whole number.' },
    });
  });
});

describe('problemsOf', () => {
  it('puts field messages by their inputs and the rest in the alert', () => {
    const error = new ApiError(422, 'validation_failed', 'Check the fields.', { fields: { name: 'Required.', version: 'Send it.' } });
    expect(problemsOf(error, ['name'], 'x')).toEqual({ fields: { name: 'Required.' }, alert: 'Check the fields. Send it.' });
    expect(problemsOf(new TypeError(''), [], 'Failed.')).toEqual({ fields: {}, alert: 'Failed.' });
  });
});

// Issue 52: "Due and overdue items show on the dashboard."
describe('the maintenance due on the dashboard', () => {
  it('lists what is overdue or due within a week, machine by machine, and leaves out retired machines', async () => {
    server = fakeApi({
      'GET /teams/tm_shop/machines': () =>
        Response.json({
          machines: [
            aMachine({
              name: 'Tajima',
              due: [
                { kind: 'oiling', date: '2026-12-03', at_stitches: null, overdue: true, never_done: false },
                { kind: 'hook_cleaning', date: '2026-12-10', at_stitches: 5000000, overdue: false, never_done: false },
                { kind: 'service', date: '2027-06-01', at_stitches: null, overdue: false, never_done: false },
              ],
            }),
            aMachine({
              id: 'mc_2',
              name: 'Brother',
              due: [{ kind: 'service', date: '2027-01-20', at_stitches: null, overdue: false, never_done: true }],
            }),
            aMachine({ id: 'mc_3', name: 'Old Barudan', status: 'retired' }),
          ],
        }),
    });
    renderPage(<MaintenanceDue teamId="tm_shop" today="2026-12-07" />, '/dashboard');
    const list = await screen.findByRole('list', { name: 'Maintenance due this week' });
    const machines = within(list)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(machines).toEqual(['Tajima']);
    expect(list.textContent).toContain('Oiling: due 2026-12-03 — overdue');
    expect(list.textContent).toContain('Hook cleaning: due 2026-12-10 or at 5,000,000 stitches');
    expect(list.textContent).not.toContain('Service');
    expect(within(list).getByRole('link', { name: 'Tajima' }).getAttribute('href')).toBe('/inventory/machines/mc_1');
  });

  it('says when nothing is due, and what to do with no machines', async () => {
    server = fakeApi({ 'GET /teams/tm_shop/machines': () => Response.json({ machines: [aMachine({ due: [] })] }) });
    renderPage(<MaintenanceDue teamId="tm_shop" today="2026-12-07" />, '/dashboard');
    expect(await screen.findByText('Nothing is due this week.')).toBeTruthy();
    expect(dueSoon({ kind: 'oiling', date: '2026-12-14', at_stitches: null, overdue: false, never_done: false }, '2026-12-07')).toBe(true);
    expect(dueSoon({ kind: 'oiling', date: '2026-12-15', at_stitches: null, overdue: false, never_done: false }, '2026-12-07')).toBe(false);
    expect(dueSoon({ kind: 'oiling', date: null, at_stitches: 10, overdue: false, never_done: false }, '2026-12-07')).toBe(false);
  });
});
