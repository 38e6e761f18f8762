import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { Toaster } from '@/lib/toast';
import { fakeSession, resetFakeAuth, signIn } from '@/test/fake-auth';
import { type FakeApi, apiError, fakeApi } from '@/test/fake-api';
import { renderPage } from '@/test/render';

import { teamStore } from './store';
import { TeamPage } from './team-page';
import { aMember, aTeam, anInvite } from './test-data';
import type { Role } from './types';

vi.mock('@supabase/ssr', async () => (await import('@/test/fake-auth')).fakeSsrModule);
// The thread catalogue runs in the browser tests (end2end); here it is a stand-in.
// A test may hold the catalogue back (`catalogue.held`) to load it after the settings.
const catalogue = vi.hoisted(() => ({ held: null as Promise<void> | null }));
vi.mock('@/lib/core', async () => {
  const { queryOptions } = await import('@tanstack/react-query');
  const lines = [
    { id: 'isacord-40', display_name: 'Isacord 40' },
    { id: 'madeira-polyneon-40', display_name: 'Madeira Polyneon 40' },
  ];
  return {
    converterQueryOptions: queryOptions({
      queryKey: ['core', 'converter'],
      queryFn: async () => {
        await catalogue.held;
        return { lines: () => lines };
      },
    }),
  };
});

let server: FakeApi;

/** The team page for someone whose role in team 'tm_shop' is `role`, the team's settings being `settings`. */
async function openAs(role: Role, settings: Record<string, unknown> = { currency: 'EUR', default_stitch_rate: 1.5 }) {
  resetFakeAuth();
  signIn(fakeSession({ id: 'me' }));
  const { currentSession } = await import('@/lib/auth');
  await currentSession();
  const team = aTeam('tm_shop', role, 'Stitch Shop');
  teamStore.getState().reset();
  teamStore.getState().setTeams([team]);
  teamStore.getState().setCurrentTeam('tm_shop');
  server = fakeApi({
    'GET /teams/tm_shop': () => Response.json({ team }),
    'GET /teams/tm_shop/members': () =>
      Response.json({
        members: [aMember('me', role, 'me@example.com'), { ...aMember('u2', 'member', 'bo@example.com'), full_name: 'Bo Peep' }],
      }),
    'GET /teams/tm_shop/invites': () =>
      Response.json({ invites: [anInvite('inv_1', { email: 'cy@example.com', team_public_id: 'tm_shop' })] }),
    'GET /teams/tm_shop/settings': () => Response.json({ settings }),
    'POST /teams/tm_shop/invites': (body) => Response.json({ invite: anInvite('inv_2', body as object) }, { status: 201 }),
    'POST /teams/tm_shop/members': (body) => Response.json({ member: { ...aMember('u2', 'member'), ...(body as object) } }),
    'POST /invites/inv_1/revoke': () => Response.json({ invite: anInvite('inv_1', { status: 'revoked', team_public_id: 'tm_shop' }) }),
    'PATCH /teams/tm_shop/settings': (body) => Response.json({ settings: body }),
    'DELETE /teams/tm_shop': () => new Response(null, { status: 204 }),
    'DELETE /teams/tm_shop/members/me': () => new Response(null, { status: 204 }),
    'GET /teams': () => Response.json({ teams: [] }),
  });
  return renderPage(
    <>
      <TeamPage />
      <Toaster />
    </>,
    '/team',
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  catalogue.held = null;
});

/** Holds the thread catalogue back until the returned function is called. */
function holdCatalogue(): () => void {
  let release = () => {};
  catalogue.held = new Promise((resolve) => (release = resolve));
  return release;
}

describe('team settings whose thread lines load after the saved values', () => {
  const saved = { currency: 'EUR', default_stitch_rate: 1.5, preferred_thread_line: 'madeira-polyneon-40' };

  it.each<Role>(['member', 'owner'])('show the preferred line to a %s once the lines arrive', async (role) => {
    const release = holdCatalogue();
    const { queryClient } = await openAs(role, saved);
    await waitFor(() => expect(queryClient.getQueryData(['teams', 'settings', 'tm_shop'])).toEqual(saved));
    release();
    await screen.findByRole('option', { name: 'Isacord 40' });
    const line = screen.getByLabelText('Preferred thread line');
    expect((line as HTMLSelectElement).value).toBe('madeira-polyneon-40');
    expect(screen.getByRole('option', { name: 'Madeira Polyneon 40', selected: true })).toBeTruthy();
  });

  it('keep the preferred line when an admin saves another field', async () => {
    const release = holdCatalogue();
    const { queryClient } = await openAs('admin', saved);
    const user = userEvent.setup();
    await waitFor(() => expect(queryClient.getQueryData(['teams', 'settings', 'tm_shop'])).toEqual(saved));
    release();
    await screen.findByRole('option', { name: 'Isacord 40' });
    const rate = screen.getByLabelText('Default price per 1,000 stitches');
    await waitFor(() => expect((rate as HTMLInputElement).value).toBe('1.5'));
    await user.clear(rate);
    await user.type(rate, '2');
    // Passing through the line's field (its blur reads what the field shows) on the way to Save.
    await user.click(screen.getByLabelText('Preferred thread line'));
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() =>
      expect(server.callsTo('PATCH /teams/tm_shop/settings')).toEqual([
        {
          currency: 'EUR',
          default_stitch_rate: 2,
          preferred_thread_line: 'madeira-polyneon-40',
          default_reorder_point: null,
          thread_usage: null,
          quotes: null,
        },
      ]),
    );
  });
});

describe('the team page as an owner', () => {
  it('invites someone by e-mail with a role, with the success toast', async () => {
    await openAs('owner');
    const user = userEvent.setup();
    const form = await screen.findByRole('region', { name: 'Invite someone' });
    await user.type(within(form).getByLabelText('E-mail address'), 'new@example.com');
    await user.selectOptions(within(form).getByLabelText('Role'), 'admin');
    await user.click(within(form).getByRole('button', { name: 'Send invite' }));
    expect(await screen.findByText('Invite sent successfully!')).toBeTruthy();
    expect(server.callsTo('POST /teams/tm_shop/invites')).toEqual([{ email: 'new@example.com', role: 'admin' }]);
  });

  it("shows the server's status message, else its message, when the invite fails", async () => {
    await openAs('owner');
    server.handlers['POST /teams/tm_shop/invites'] = () => apiError(409, 'invite_pending', 'An invite to this address is already pending.');
    const user = userEvent.setup();
    const form = await screen.findByRole('region', { name: 'Invite someone' });
    await user.type(within(form).getByLabelText('E-mail address'), 'cy@example.com');
    await user.click(within(form).getByRole('button', { name: 'Send invite' }));
    expect(await screen.findByText('An invite to this address is already pending.')).toBeTruthy();
  });

  it("changes a member's role, and may grant the owner role", async () => {
    await openAs('owner');
    const user = userEvent.setup();
    const role = await screen.findByRole('combobox', { name: 'Role of Bo Peep' });
    expect(
      within(role)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Owner', 'Admin', 'Member', 'Viewer']);
    await user.selectOptions(role, 'viewer');
    await waitFor(() => expect(server.callsTo('POST /teams/tm_shop/members')).toEqual([{ userId: 'u2', role: 'viewer' }]));
  });

  it('says what each role may do where roles are chosen, and names people by name', async () => {
    await openAs('owner');
    const user = userEvent.setup();
    const form = await screen.findByRole('region', { name: 'Invite someone' });
    const explained = within(form).getByLabelText('Role').getAttribute('aria-describedby') ?? '';
    const help = explained
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ');
    for (const role of ['Owner', 'Admin', 'Member', 'Viewer']) expect(help).toContain(`${role}:`);
    expect(help).toContain('delete the team');
    expect(help).toContain('read');

    await user.selectOptions(await screen.findByRole('combobox', { name: 'Role of Bo Peep' }), 'viewer');
    expect(await screen.findByText('Bo Peep is now viewer.')).toBeTruthy();
  });

  it('lists pending invites and revokes one', async () => {
    await openAs('owner');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Revoke the invite to cy@example.com' }));
    await waitFor(() => expect(server.callsTo('POST /invites/inv_1/revoke')).toHaveLength(1));
  });

  it('saves the team settings; an emptied field removes its key', async () => {
    await openAs('owner');
    const user = userEvent.setup();
    const rate = await screen.findByLabelText('Default price per 1,000 stitches');
    await waitFor(() => expect((rate as HTMLInputElement).value).toBe('1.5'));
    await user.clear(rate);
    await user.type(rate, '2.25');
    await user.selectOptions(screen.getByLabelText('Preferred thread line'), 'madeira-polyneon-40');
    await user.selectOptions(screen.getByLabelText('Currency'), '');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() =>
      expect(server.callsTo('PATCH /teams/tm_shop/settings')).toEqual([
        {
          currency: null,
          default_stitch_rate: 2.25,
          preferred_thread_line: 'madeira-polyneon-40',
          default_reorder_point: null,
          thread_usage: null,
          quotes: null,
        },
      ]),
    );
  });

  it('sets the default reorder point, a whole number of spools', async () => {
    await openAs('owner', { default_reorder_point: 2 });
    const user = userEvent.setup();
    const point = await screen.findByLabelText('Default reorder point');
    await waitFor(() => expect((point as HTMLInputElement).value).toBe('2'));
    await user.clear(point);
    await user.type(point, '1.5');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Enter a whole number of spools, 0 or more.')).toBeTruthy();
    expect(server.callsTo('PATCH /teams/tm_shop/settings')).toEqual([]);
    await user.clear(point);
    await user.type(point, '3');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() =>
      expect(server.callsTo('PATCH /teams/tm_shop/settings')).toEqual([
        {
          currency: null,
          default_stitch_rate: null,
          preferred_thread_line: null,
          default_reorder_point: 3,
          thread_usage: null,
          quotes: null,
        },
      ]),
    );
  });

  it('sets the thread-usage model: only what is typed is kept, the bobbin share as a percentage, yards', async () => {
    await openAs('owner', { thread_usage: { take_up_mm: 3, bobbin_share: 0.5 } });
    const user = userEvent.setup();
    const takeUp = await screen.findByLabelText('Take-up per stitch (mm)');
    await waitFor(() => expect((takeUp as HTMLInputElement).value).toBe('3'));
    expect(screen.getByLabelText<HTMLInputElement>('Bobbin thread (% of top)').value).toBe('50');
    expect(screen.getByLabelText<HTMLInputElement>('Waste allowance for a job (%)').placeholder).toBe('10');
    await user.clear(takeUp);
    await user.type(screen.getByLabelText('Waste allowance for a job (%)'), '120');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Enter an allowance from 0 to 100%.')).toBeTruthy();
    expect(server.callsTo('PATCH /teams/tm_shop/settings')).toEqual([]);
    await user.clear(screen.getByLabelText('Waste allowance for a job (%)'));
    await user.type(screen.getByLabelText('Waste allowance for a job (%)'), '5');
    await user.selectOptions(screen.getByLabelText('Show thread in'), 'yards');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() =>
      expect(server.callsTo('PATCH /teams/tm_shop/settings')).toEqual([
        {
          currency: null,
          default_stitch_rate: null,
          preferred_thread_line: null,
          default_reorder_point: null,
          thread_usage: { bobbin_share: 0.5, waste_percent: 5, unit: 'yards' },
          quotes: null,
        },
      ]),
    );
  });

  it("sets how quotes read to customers: the days they are valid, the shop's details and its logo", async () => {
    await openAs('owner', { quotes: { valid_days: 14 } });
    const user = userEvent.setup();
    const days = await screen.findByLabelText('Days a new quote is valid');
    await waitFor(() => expect((days as HTMLInputElement).value).toBe('14'));
    await user.clear(days);
    await user.type(days, '400');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Enter 1 to 365 days.')).toBeTruthy();
    await user.clear(days);
    await user.type(days, '21');
    await user.type(screen.getByLabelText('Your address, telephone and e-mail'), '1 Mill Lane{Enter}0113 496 0000');
    await user.type(screen.getByLabelText('Logo'), 'logo.png');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() =>
      expect(server.callsTo('PATCH /teams/tm_shop/settings')).toEqual([
        {
          currency: null,
          default_stitch_rate: null,
          preferred_thread_line: null,
          default_reorder_point: null,
          thread_usage: null,
          quotes: { valid_days: 21, shop_details: '1 Mill Lane\n0113 496 0000', logo: 'logo.png' },
        },
      ]),
    );
  });

  it('deletes the team after a confirmation that names it; it is then no longer current', async () => {
    const { location } = await openAs('owner');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete team' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Stitch Shop?' });
    expect(server.callsTo('DELETE /teams/tm_shop')).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Delete team' }));
    await waitFor(() => expect(location()).toBe('/dashboard'));
    expect(server.callsTo('DELETE /teams/tm_shop')).toHaveLength(1);
    expect(teamStore.getState().currentTeamPublicId).toBe('');
  });
});

describe('the team page as an admin', () => {
  it('may not grant the owner role nor delete the team', async () => {
    await openAs('admin');
    const role = await screen.findByRole('combobox', { name: 'Role of Bo Peep' });
    expect(
      within(role)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Admin', 'Member', 'Viewer']);
    expect(screen.queryByRole('button', { name: 'Delete team' })).toBeNull();
    expect(screen.getByRole('region', { name: 'Invite someone' })).toBeTruthy();
  });

  it("offers the team's data as one download", async () => {
    await openAs('admin');
    const download = await screen.findByRole('link', { name: "Download the team's data" });
    expect(download.getAttribute('href')).toBe('/api/v2/teams/tm_shop/export');
    expect(download.hasAttribute('download')).toBe(true);
  });
});

describe('the team page as a viewer', () => {
  it('shows the members and settings, read-only, with the reason, and no invite form', async () => {
    await openAs('viewer');
    expect(await screen.findByText('Bo Peep')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Invite someone' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Pending invites' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Team name' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: /^Role of/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Remove / })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save settings' })).toBeNull();
    expect(screen.getByLabelText('Currency').matches(':disabled')).toBe(true);
    expect(screen.getByText('Only admins and owners can change the team settings.')).toBeTruthy();
    // A viewer may still leave.
    expect(screen.getByRole('button', { name: 'Leave team' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: "Download the team's data" })).toBeNull();
    expect(server.callsTo('GET /teams/tm_shop/invites')).toEqual([]);
  });
});

describe('leaving a team', () => {
  it('asks first, then leaves: the team is no longer current', async () => {
    await openAs('member');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Leave team' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave Stitch Shop?' });
    await user.click(within(dialog).getByRole('button', { name: 'Leave team' }));
    await waitFor(() => expect(server.callsTo('DELETE /teams/tm_shop/members/me')).toHaveLength(1));
    await waitFor(() => expect(teamStore.getState().currentTeamPublicId).toBe(''));
  });

  it("shows the server's reason when the last owner may not leave", async () => {
    await openAs('owner');
    server.handlers['DELETE /teams/tm_shop/members/me'] = () =>
      apiError(409, 'last_owner', 'A team must keep an owner: make someone else an owner first.');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Leave team' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Leave team' }));
    expect((await screen.findByRole('alert')).textContent).toBe('A team must keep an owner: make someone else an owner first.');
    expect(teamStore.getState().currentTeamPublicId).toBe('tm_shop');
  });
});
