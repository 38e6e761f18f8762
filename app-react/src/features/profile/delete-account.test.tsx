import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { fakeAuth, fakeSession, resetFakeAuth, signIn } from '@/test/fake-auth';
import { type FakeApi, apiError, fakeApi } from '@/test/fake-api';
import { renderPage } from '@/test/render';

import type { Deletion } from './api/account';
import { ProfilePage } from './profile-page';

vi.mock('@supabase/ssr', async () => (await import('@/test/fake-auth')).fakeSsrModule);

const shop = { id: 't1', public_id: 'tm_shop', name: 'Stitch Shop', member_count: 3 };
const mine = { id: 't2', public_id: 'tm_mine', name: "Ada's Team", member_count: 1 };
const plan = (extra: Partial<Deletion> = {}): Deletion => ({
  password_needed: true,
  has_password: true,
  blocking_teams: [],
  teams_deleted: [mine],
  ...extra,
});

let server: FakeApi;

async function open(deletion: Deletion, onDelete: (body: unknown) => Response = () => new Response(null, { status: 204 })) {
  resetFakeAuth();
  signIn(fakeSession({ id: 'u1' }));
  server = fakeApi({
    'GET /users/me': () =>
      Response.json({ id: 'u1', email: 'ada@example.com', full_name: null, default_team_pid: null, created_at: '2026-01-01T00:00:00Z' }),
    'GET /users/me/deletion': () => Response.json(deletion),
    'DELETE /users/me': onDelete,
  });
  const { currentSession } = await import('@/lib/auth');
  await currentSession();
  const page = renderPage(<ProfilePage />, '/profile');
  const section = await screen.findByRole('region', { name: 'Delete your account' });
  return { page, section };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('deleting the account', () => {
  it('names the teams to hand over first, and offers no deletion until then', async () => {
    const { section } = await open(plan({ blocking_teams: [shop] }));
    expect(await within(section).findByText('Stitch Shop')).toBeTruthy();
    expect(within(section).getByText(/First hand over or delete these teams/)).toBeTruthy();
    expect(within(section).queryByRole('button', { name: 'Delete my account' })).toBeNull();
  });

  it('asks for the password, then a final confirmation; then signs out and goes home', async () => {
    const { page, section } = await open(plan());
    const user = userEvent.setup();
    expect(await within(section).findByText("Ada's Team")).toBeTruthy();
    await user.click(within(section).getByRole('button', { name: 'Delete my account' }));
    expect(within(section).getByText('Enter your password.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.type(within(section).getByLabelText('Your password'), 'Stitch-Count-4812');
    await user.click(within(section).getByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    expect(server.callsTo('DELETE /users/me')).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));

    await waitFor(() => expect(page.location()).toBe('/'));
    expect(server.callsTo('DELETE /users/me')).toEqual([{ password: 'Stitch-Count-4812' }]);
    expect(fakeAuth.auth.signOut).toHaveBeenCalledWith({ scope: 'local' });
  });

  it("shows the server's word on a wrong password next to the field", async () => {
    const { section } = await open(plan(), () =>
      apiError(422, 'validation_failed', 'Some fields are not valid.', {
        fields: [{ field: 'password', code: 'wrong_password', message: 'That is not your password.' }],
      }),
    );
    const user = userEvent.setup();
    await user.type(await within(section).findByLabelText('Your password'), 'wrong-one');
    await user.click(within(section).getByRole('button', { name: 'Delete my account' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete my account' }));
    expect(await within(section).findByText('That is not your password.')).toBeTruthy();
    expect(fakeAuth.auth.signOut).not.toHaveBeenCalled();
  });

  it('after a refusal for a team handed back meanwhile, shows the message and the team', async () => {
    let blocked = false;
    const { section } = await open(plan(), () => {
      blocked = true;
      return apiError(409, 'sole_owner', 'You are the only owner of \u201cStitch Shop\u201d, which still has other members.');
    });
    server.handlers['GET /users/me/deletion'] = () => Response.json(plan({ blocking_teams: blocked ? [shop] : [] }));
    const user = userEvent.setup();
    await user.type(await within(section).findByLabelText('Your password'), 'Stitch-Count-4812');
    await user.click(within(section).getByRole('button', { name: 'Delete my account' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete my account' }));
    expect((await within(section).findByRole('alert')).textContent).toContain('only owner of \u201cStitch Shop\u201d');
    expect(await within(section).findByText('Stitch Shop')).toBeTruthy();
  });

  it('asks no password when the session has the authenticator code', async () => {
    const { section } = await open(plan({ password_needed: false }));
    const user = userEvent.setup();
    expect(await within(section).findByText(/no password is needed/)).toBeTruthy();
    expect(within(section).queryByLabelText('Your password')).toBeNull();
    await user.click(within(section).getByRole('button', { name: 'Delete my account' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(server.callsTo('DELETE /users/me')).toEqual([{}]));
  });
});

describe('my data', () => {
  it('is one download of the JSON file', async () => {
    await open(plan());
    const link = screen.getByRole('link', { name: 'Download my data' });
    expect(link.getAttribute('href')).toBe('/api/v2/users/me/export');
    expect(link.hasAttribute('download')).toBe(true);
  });
});
