import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { type FakeApi, apiError, fakeApi } from '@/test/fake-api';
import { renderPage } from '@/test/render';

import { AddMany } from './components/AddMany';
import { AddThread } from './components/AddThread';
import { MachinePage } from './machine-page';
import { MachinesPage } from './machines-page';
import type { CatalogueThread, Machine } from './types';

// The inventory's forms: what they send, where their messages show, and what they keep for the
// next entry. (The thread and machine edits' clashes: edit-conflict.test.tsx.)

const wildfire: CatalogueThread = {
  line: 'isacord-polyester',
  line_name: 'Isacord Polyester',
  code: '1800',
  name: 'Wildfire',
  hex: '#E03A1E',
  conflict: false,
  doubt: null,
};

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
    hoops: [],
    status: 'active',
    purchase_date: null,
    notes: '',
    version: 1,
    updated_at: '2026-11-23T10:00:00Z',
    stitch_counter: null,
    due: [],
    maintenance: [],
    intervals: [],
    ...extra,
  };
}

/** The message tied to `input` for screen readers. */
const messageOf = (input: HTMLElement) =>
  (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id))
    .find((element) => element?.classList.contains('field__error'))?.textContent;

const valueOf = (label: string, within_: HTMLElement = document.body) => within(within_).getByLabelText<HTMLInputElement>(label).value;

let server: FakeApi;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('adding one thread', () => {
  beforeEach(() => {
    server = fakeApi({
      'GET /catalog/threads?q=1800&limit=20': () => Response.json({ threads: [wildfire] }),
      'POST /teams/tm_shop/threads': (body) =>
        Response.json({ thread: { ...(body as object), id: 'th_1', name: 'Wildfire', code: '1800' } }, { status: 201 }),
    });
  });

  it('asks for a catalogue thread first, by the search, and sends nothing', async () => {
    renderPage(<AddThread teamId="tm_shop" />, '/inventory/threads');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add to inventory' }));
    const search = screen.getByLabelText('Search the catalogue');
    await waitFor(() => expect(search.getAttribute('aria-invalid')).toBe('true'));
    expect(messageOf(search)).toBe('Choose a thread from the search results.');
    expect(server.calls.filter((call) => call.route.startsWith('POST'))).toEqual([]);
  });

  it('adds the chosen thread, then starts a new search keeping the quantity and location', async () => {
    renderPage(<AddThread teamId="tm_shop" />, '/inventory/threads');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Search the catalogue'), '1800');
    await user.click(await screen.findByRole('button', { name: '1800 Wildfire Isacord Polyester' }));
    await user.clear(screen.getByLabelText('Quantity'));
    await user.type(screen.getByLabelText('Quantity'), '2,5');
    await user.type(screen.getByLabelText('Location'), ' Drawer W ');
    await user.click(screen.getByRole('button', { name: 'Add to inventory' }));

    expect(await screen.findByText('Added 1800 Wildfire.')).toBeTruthy();
    expect(server.callsTo('POST /teams/tm_shop/threads')).toEqual([
      { line: 'isacord-polyester', code: '1800', quantity: 2.5, location: 'Drawer W' },
    ]);
    expect(valueOf('Search the catalogue')).toBe('');
    expect(screen.queryByText(/^Chosen:/)).toBeNull();
    expect([valueOf('Quantity'), valueOf('Location')]).toEqual(['2,5', ' Drawer W ']);
  });

  it("shows the server's message by its field, and a typed quantity that is no number by the quantity", async () => {
    server.handlers['POST /teams/tm_shop/threads'] = () =>
      apiError(422, 'validation_failed', 'Check the fields.', {
        fields: [{ field: 'location', code: 'too_long', message: 'At most 100 characters.' }],
      });
    renderPage(<AddThread teamId="tm_shop" />, '/inventory/threads');
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: 'Custom thread' }));
    await user.type(screen.getByLabelText('Name'), 'Mine');
    await user.clear(screen.getByLabelText('Quantity'));
    await user.type(screen.getByLabelText('Quantity'), 'lots');
    await user.click(screen.getByRole('button', { name: 'Add to inventory' }));
    await waitFor(() => expect(messageOf(screen.getByLabelText('Quantity'))).toBe('Give the number of spools or cones (0 is fine).'));

    await user.clear(screen.getByLabelText('Quantity'));
    await user.type(screen.getByLabelText('Quantity'), '1');
    await user.click(screen.getByRole('button', { name: 'Add to inventory' }));
    await waitFor(() => expect(messageOf(screen.getByLabelText('Location'))).toBe('At most 100 characters.'));
    // The message of the last try is gone.
    expect(screen.getByLabelText('Quantity').getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByRole('alert').textContent).toBe('Some fields need a change: see the messages next to them.');
    expect(server.callsTo('POST /teams/tm_shop/threads')).toEqual([{ name: 'Mine', colour: '#000000', quantity: 1, location: '' }]);
  });
});

describe("the team's preferred line", () => {
  const lines = [
    { id: 'isacord-polyester', display_name: 'Isacord Polyester' },
    { id: 'madeira-polyneon', display_name: 'Madeira Polyneon' },
  ];
  /** The catalogue's lines, answered only once `release` is called (they may come late). */
  function catalogueServer() {
    let release = () => {};
    const arrived = new Promise<void>((resolve) => (release = resolve));
    server = fakeApi({
      'GET /catalog/lines': async () => {
        await arrived;
        return Response.json({ lines });
      },
      'GET /catalog/threads?q=1800&limit=20&lines=isacord-polyester': () => Response.json({ threads: [wildfire] }),
      'GET /catalog/threads?q=1800&limit=20': () => Response.json({ threads: [{ ...wildfire, line: 'madeira-polyneon', name: 'Black' }] }),
      'POST /teams/tm_shop/threads/bulk': () => Response.json({ added: [], already_owned: [], unknown: [] }, { status: 201 }),
    });
    return release;
  }

  it('is where the catalogue search looks until every line is chosen', async () => {
    catalogueServer()();
    renderPage(<AddThread teamId="tm_shop" preferredLine="isacord-polyester" />, '/inventory/threads');
    const user = userEvent.setup();
    await screen.findByRole('option', { name: 'Madeira Polyneon' });
    expect(valueOf('Search in')).toBe('isacord-polyester');
    await user.type(screen.getByLabelText('Search the catalogue'), '1800');
    expect(await screen.findByRole('button', { name: '1800 Wildfire Isacord Polyester' })).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Search in'), '');
    await waitFor(() => expect(server.callsTo('GET /catalog/threads?q=1800&limit=20')).toHaveLength(1));
  });

  it('is the line Add many starts at, also when the lines load after it', async () => {
    const release = catalogueServer();
    renderPage(<AddMany teamId="tm_shop" preferredLine="isacord-polyester" />, '/inventory/threads');
    const user = userEvent.setup();
    release();
    await screen.findByRole('option', { name: 'Madeira Polyneon' });
    expect(screen.getByRole('option', { name: 'Isacord Polyester', selected: true })).toBeTruthy();
    await user.type(screen.getByLabelText('Codes'), '1800');
    await user.click(screen.getByRole('button', { name: 'Add all' }));
    await waitFor(() =>
      expect(server.callsTo('POST /teams/tm_shop/threads/bulk')).toEqual([
        { line: 'isacord-polyester', codes: ['1800'], quantity: 1, skip_unknown: false },
      ]),
    );
  });

  it('offers to add the known codes when some are not in the line, and says which were left out', async () => {
    catalogueServer()();
    server.handlers['POST /teams/tm_shop/threads/bulk'] = (body) =>
      (body as { skip_unknown: boolean }).skip_unknown
        ? Response.json({ added: [{}, {}], already_owned: [], unknown: ['nope'] }, { status: 201 })
        : apiError(422, 'validation_failed', 'Some codes are not in this line.', {
            fields: [{ field: 'codes[1]', code: 'unknown_code', message: 'There is no thread nope in Isacord Polyester.' }],
          });
    renderPage(<AddMany teamId="tm_shop" preferredLine="isacord-polyester" />, '/inventory/threads');
    const user = userEvent.setup();
    await screen.findByRole('option', { name: 'Madeira Polyneon' });
    await user.type(screen.getByLabelText('Codes'), '1800 nope 1801');
    await user.click(screen.getByRole('button', { name: 'Add all' }));
    expect(await screen.findByText('Some codes are not in this line; nothing was added.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Add the others, leave those out' }));

    expect(await screen.findByText('Added 2 threads. Left out, not in this line: nope.')).toBeTruthy();
    expect(server.callsTo('POST /teams/tm_shop/threads/bulk').at(-1)).toMatchObject({ codes: ['1800 nope 1801'], skip_unknown: true });
    expect(screen.queryByRole('button', { name: 'Add the others, leave those out' })).toBeNull();
  });

  it('gives way to the line chosen in Add many', async () => {
    catalogueServer()();
    renderPage(<AddMany teamId="tm_shop" preferredLine="isacord-polyester" />, '/inventory/threads');
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByLabelText('Line'), await screen.findByRole('option', { name: 'Madeira Polyneon' }));
    await user.type(screen.getByLabelText('Codes'), '1800');
    await user.click(screen.getByRole('button', { name: 'Add all' }));
    await waitFor(() =>
      expect(server.callsTo('POST /teams/tm_shop/threads/bulk')).toEqual([
        { line: 'madeira-polyneon', codes: ['1800'], quantity: 1, skip_unknown: false },
      ]),
    );
  });
});

describe('adding a machine', () => {
  beforeEach(() => {
    server = fakeApi({
      'GET /teams/tm_shop/machines': () => Response.json({ machines: [] }),
      'POST /teams/tm_shop/machines': (body) => Response.json({ machine: aMachine({ ...(body as object), id: 'mc_2' }) }, { status: 201 }),
    });
  });

  it('shows a hoop size that is no whole number by its input, then adds the machine and empties the form', async () => {
    renderPage(<MachinesPage teamId="tm_shop" canWrite />, '/inventory/machines');
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Add machine' });
    await user.type(within(form).getByLabelText('Name'), 'Brother');
    await user.click(within(form).getByRole('button', { name: 'Add hoop' }));
    await user.type(within(form).getByLabelText('Hoop 1 name'), 'Small');
    await user.type(within(form).getByLabelText('Hoop 1 width'), '10x');
    await user.type(within(form).getByLabelText('Hoop 1 height'), '100');
    await user.click(within(form).getByRole('button', { name: 'Add machine' }));
    await waitFor(() => expect(messageOf(within(form).getByLabelText('Hoop 1 width'))).toBe('Enter a whole number.'));
    expect(server.callsTo('POST /teams/tm_shop/machines')).toEqual([]);

    await user.clear(within(form).getByLabelText('Hoop 1 width'));
    await user.type(within(form).getByLabelText('Hoop 1 width'), '100');
    await user.click(within(form).getByRole('button', { name: 'Add machine' }));
    expect(await within(form).findByRole('status')).toHaveProperty('textContent', 'Added Brother.');
    expect(server.callsTo('POST /teams/tm_shop/machines')).toEqual([
      expect.objectContaining({ name: 'Brother', heads: 1, hoops: [{ name: 'Small', width_mm: 100, height_mm: 100 }] }),
    ]);
    expect(valueOf('Name', form)).toBe('');
    expect(within(form).queryByLabelText('Hoop 1 name')).toBeNull();
  });
});

describe('a machine edited while its maintenance is logged', () => {
  it('follows the newer version while nothing is typed, and saves from it without a clash', async () => {
    let stored = aMachine();
    server = fakeApi({
      'GET /teams/tm_shop/machines/mc_1': () => Response.json({ machine: stored }),
      'GET /teams/tm_shop/machines': () => Response.json({ machines: [] }),
      'POST /teams/tm_shop/machines/mc_1/maintenance': (body) => {
        // Someone else renamed it meanwhile, and the log raises the version again.
        stored = aMachine({ name: 'Tajima left', version: 3 });
        return Response.json({ entry: { id: 'lg_1', created_at: '2026-11-23T10:00:00Z', ...(body as object) } }, { status: 201 });
      },
      'PUT /teams/tm_shop/machines/mc_1': (body) => {
        stored = aMachine({ ...(body as object), version: stored.version + 1 });
        return Response.json({ machine: stored });
      },
    });
    renderPage(<MachinePage teamId="tm_shop" canWrite machineId="mc_1" />, '/inventory/machines/mc_1');
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Machine' });
    await user.click(within(screen.getByRole('form', { name: 'Log maintenance' })).getByRole('button', { name: 'Log maintenance' }));

    await waitFor(() => expect(valueOf('Name', form)).toBe('Tajima left'));
    await user.type(within(form).getByLabelText('Notes'), 'Bay 3');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByRole('status')).toHaveProperty('textContent', 'Saved.');
    expect(server.callsTo('PUT /teams/tm_shop/machines/mc_1')).toEqual([
      expect.objectContaining({ version: 3, name: 'Tajima left', notes: 'Bay 3' }),
    ]);
  });
});
