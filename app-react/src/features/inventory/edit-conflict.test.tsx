import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { type FakeApi, apiError, fakeApi } from '@/test/fake-api';
import { renderPage } from '@/test/render';

import { MachinePage } from './machine-page';
import { ThreadPage } from './thread-page';
import type { Machine, ThreadView } from './types';
import { differences, reapply } from './versioned-edit';

// A full edit made from an older version is refused (409 edit_conflict; docs/behaviour.md, "Thread
// inventory"): the page keeps what the person typed, shows it next to what is saved now, and saves
// it on top of the saved version in one action, or drops it.

function aThread(extra: Partial<ThreadView> = {}): ThreadView {
  return {
    id: 'th_1',
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
    due: [],
    maintenance: [],
    intervals: [],
    ...extra,
  };
}

/**
 * The server's copy of one entry: GET reads it, PUT writes it when made from its version (and
 * raises the version), else answers 409 as the server does.
 */
function versionedServer<T extends { version: number }>(path: string, key: string, first: T) {
  const stored = { current: first };
  const api: FakeApi = fakeApi({
    [`GET ${path}`]: () => Response.json({ [key]: stored.current }),
    [`PUT ${path}`]: (body) => {
      const edit = body as Partial<T> & { version: number };
      if (edit.version !== stored.current.version) return apiError(409, 'edit_conflict', 'Someone changed this after you opened it.');
      stored.current = { ...stored.current, ...edit, version: stored.current.version + 1 };
      return Response.json({ [key]: stored.current });
    },
    'GET /catalog/lines': () => Response.json({ lines: [{ id: 'madeira-polyneon-40', display_name: 'Madeira Polyneon 40' }] }),
    'GET /teams/tm_shop/machines': () => Response.json({ machines: [] }),
  });
  return { api, stored };
}

const input = (label: string) => screen.getByLabelText<HTMLInputElement>(label);

/** The comparison's rows as [field, saved now, yours]. */
function rowsOf(panel: HTMLElement): string[][] {
  return within(panel)
    .getAllByRole('row')
    .slice(1)
    .map((row) => Array.from(row.querySelectorAll('th, td'), (cell) => cell.textContent));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('comparing and re-applying an edit', () => {
  const opened = { quantity: '2', location: 'Shelf A', notes: '' };

  it('lists the fields where the saved version and the edit differ, saying who changed what', () => {
    const saved = { quantity: '3', location: 'Shelf A', notes: 'Reordered' };
    const mine = { quantity: '2', location: 'Drawer 2', notes: 'Reordered' };
    expect(differences(opened, saved, mine)).toEqual([
      { field: 'quantity', saved: '3', yours: null, changedMeanwhile: true },
      { field: 'location', saved: 'Shelf A', yours: 'Drawer 2', changedMeanwhile: false },
    ]);
  });

  it("puts the person's changes on the saved version and keeps the other changes", () => {
    const text = (values: typeof opened) => values;
    const saved = { quantity: '3', location: 'Shelf B', notes: 'Reordered' };
    const mine = { quantity: '2', location: 'Drawer 2', notes: '' };
    expect(reapply(text, opened, saved, mine)).toEqual({ quantity: '3', location: 'Drawer 2', notes: 'Reordered' });
  });
});

describe('a thread edit that someone else overtook', () => {
  /** The page open at version 1, Location typed, then a spool added elsewhere; then Save. */
  async function clash() {
    const server = versionedServer('/teams/tm_shop/threads/th_1', 'thread', aThread());
    renderPage(<ThreadPage teamId="tm_shop" canWrite threadId="th_1" />, '/inventory/threads/th_1');
    const user = userEvent.setup();
    await user.clear(await screen.findByLabelText('Location'));
    await user.type(input('Location'), 'Drawer 2');
    server.stored.current = aThread({ quantity: 3, version: 2, updated_by_email: 'sam@example.com' });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const panel = await screen.findByRole('region', { name: 'sam@example.com changed this thread while you were editing' });
    return { server, user, panel };
  }

  it('shows what is saved now next to what was typed, keeping the form as typed', async () => {
    const { panel } = await clash();
    expect(rowsOf(panel)).toEqual([
      ['Quantity', '3 (just changed)', 'you did not change it'],
      ['Location', 'Shelf A', 'Drawer 2'],
    ]);
    expect(input('Location').value).toBe('Drawer 2');
    // Focused as it appears, so keyboard and screen-reader users land on it.
    expect(document.activeElement).toBe(within(panel).getByRole('heading'));
  });

  it('saves the typed change on top of the saved version from the keyboard, in one action', async () => {
    const { server, user, panel } = await clash();
    await user.tab();
    expect(document.activeElement).toBe(within(panel).getByRole('button', { name: 'Save my changes' }));
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('status')).toHaveProperty('textContent', 'Saved.');
    expect(server.api.callsTo('PUT /teams/tm_shop/threads/th_1')[1]).toMatchObject({ version: 2, quantity: 3, location: 'Drawer 2' });
    expect(server.stored.current).toMatchObject({ version: 3, quantity: 3, location: 'Drawer 2' });
    expect(screen.queryByRole('region', { name: /changed this thread/ })).toBeNull();
    expect([input('Quantity').value, input('Location').value]).toEqual(['3', 'Drawer 2']);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Save' }));
  });

  it('discards the typed change: the form shows what is saved, and nothing is sent', async () => {
    const { server, user } = await clash();
    await user.click(screen.getByRole('button', { name: 'Discard my changes' }));
    expect([input('Quantity').value, input('Location').value]).toEqual(['3', 'Shelf A']);
    expect(screen.getByRole('status').textContent).toBe('Your changes were discarded: the form shows what is saved.');
    expect(server.api.callsTo('PUT /teams/tm_shop/threads/th_1')).toHaveLength(1);
    // The next save is made from the saved version.
    await user.clear(input('Location'));
    await user.type(input('Location'), 'Drawer 3');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.stored.current).toMatchObject({ version: 3, quantity: 3, location: 'Drawer 3' }));
  });

  it('asks again when someone changes it once more before the re-applied save', async () => {
    const { server, user, panel } = await clash();
    server.stored.current = aThread({ quantity: 4, version: 3, updated_by_email: 'kim@example.com' });
    await user.click(within(panel).getByRole('button', { name: 'Save my changes' }));
    const again = await screen.findByRole('region', { name: 'kim@example.com changed this thread while you were editing' });
    expect(rowsOf(again)).toEqual([
      ['Quantity', '4 (just changed)', 'you did not change it'],
      ['Location', 'Shelf A', 'Drawer 2'],
    ]);
    await user.click(within(again).getByRole('button', { name: 'Save my changes' }));
    await waitFor(() => expect(server.stored.current).toMatchObject({ version: 4, quantity: 4, location: 'Drawer 2' }));
  });
});

describe('a machine edit that someone else overtook', () => {
  async function openAndType(server: ReturnType<typeof versionedServer<Machine>>) {
    renderPage(<MachinePage teamId="tm_shop" canWrite machineId="mc_1" />, '/inventory/machines/mc_1');
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Machine' });
    await user.type(within(form).getByLabelText('Notes'), 'Bay 3');
    return { user, form, server };
  }

  it('saves without asking when only the maintenance log changed meanwhile', async () => {
    const server = versionedServer('/teams/tm_shop/machines/mc_1', 'machine', aMachine());
    const { user, form } = await openAndType(server);
    server.stored.current = aMachine({ version: 2, stitch_counter: 5000 });
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByRole('status')).toHaveProperty('textContent', 'Saved.');
    expect(server.api.callsTo('PUT /teams/tm_shop/machines/mc_1').map((call) => (call as Machine).version)).toEqual([1, 2]);
    expect(server.stored.current).toMatchObject({ version: 3, notes: 'Bay 3' });
  });

  it('shows a renamed machine next to the typed notes, and saves both', async () => {
    const server = versionedServer('/teams/tm_shop/machines/mc_1', 'machine', aMachine());
    const { user, form } = await openAndType(server);
    server.stored.current = aMachine({ version: 2, name: 'Tajima left', status: 'maintenance' });
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    const panel = await within(form).findByRole('region', { name: 'Someone changed this machine while you were editing' });
    expect(rowsOf(panel)).toEqual([
      ['Name', 'Tajima left (just changed)', 'you did not change it'],
      ['Notes', '(empty)', 'Bay 3'],
      ['Status', 'In maintenance (just changed)', 'you did not change it'],
    ]);
    await user.click(within(panel).getByRole('button', { name: 'Save my changes' }));
    expect(await within(form).findByRole('status')).toHaveProperty('textContent', 'Saved.');
    expect(server.stored.current).toMatchObject({
      version: 3,
      name: 'Tajima left',
      status: 'maintenance',
      notes: 'Bay 3',
      hoops: [{ name: 'Large', width_mm: 300, height_mm: 200 }],
    });
    expect(within(form).getByLabelText<HTMLInputElement>('Name').value).toBe('Tajima left');
  });
});
