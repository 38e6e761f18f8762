import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';

import { Toaster } from '@/lib/toast';
import { type FakeApi, apiError, fakeApi } from '@/test/fake-api';
import { renderPage } from '@/test/render';

import { AcceptInvitePage } from './accept-invite-page';
import { MyInvites } from './components/MyInvites';
import { SelectTeamContext } from './select-team';
import { teamStore } from './store';
import { TestInvitesPage } from './test-invites-page';
import { aTeam, anInvite } from './test-data';

let server: FakeApi;
const selectTeam = vi.fn(async (_publicId: string) => {});
const accepted = { invite: anInvite('inv_1', { status: 'accepted' }), team: aTeam('tm_shop', 'member', 'Stitch Shop') };

beforeEach(() => {
  teamStore.getState().reset();
  selectTeam.mockClear();
  server = fakeApi({
    'GET /users/me/invites': () => Response.json({ invites: [anInvite('inv_1')] }),
    'POST /invites/inv_1/accept': () => Response.json(accepted),
    'POST /invites/inv_1/revoke': () => Response.json({ invite: anInvite('inv_1', { status: 'revoked' }) }),
    'POST /invites/accept': () => Response.json(accepted),
    'GET /teams': () => Response.json({ teams: [accepted.team] }),
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function render(element: ReactNode, path: string, pattern?: string) {
  return renderPage(
    <SelectTeamContext value={selectTeam}>
      {element}
      <Toaster />
    </SelectTeamContext>,
    path,
    pattern,
  );
}

describe('My Invites', () => {
  it("accepts an invite with the toast 'Invite accepted!', and makes that team current", async () => {
    render(<MyInvites />, '/profile?tab=invites', '/profile');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Accept the invite to Stitch Shop' }));
    expect(await screen.findByText('Invite accepted!')).toBeTruthy();
    expect(selectTeam).toHaveBeenCalledWith('tm_shop');
    expect(server.callsTo('POST /invites/inv_1/accept')).toHaveLength(1);
  });

  it("shows the server's message when accepting fails", async () => {
    server.handlers['POST /invites/inv_1/accept'] = () => apiError(410, 'invite_expired', 'This invite has expired.');
    render(<MyInvites />, '/profile?tab=invites', '/profile');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Accept the invite to Stitch Shop' }));
    expect(await screen.findByText('This invite has expired.')).toBeTruthy();
  });

  it('declines an invite', async () => {
    render(<MyInvites />, '/profile?tab=invites', '/profile');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Decline the invite to Stitch Shop' }));
    await waitFor(() => expect(server.callsTo('POST /invites/inv_1/revoke')).toHaveLength(1));
  });

  it('says when there are none', async () => {
    server.handlers['GET /users/me/invites'] = () => Response.json({ invites: [] });
    render(<MyInvites />, '/profile?tab=invites', '/profile');
    expect(await screen.findByText('You have no pending invites.')).toBeTruthy();
  });
});

describe('the invite link, /profile/invites/accept?token=', () => {
  it('accepts by token once, selects the team, and opens the team page', async () => {
    const { location } = render(<AcceptInvitePage />, '/profile/invites/accept?token=tok-1');
    await waitFor(() => expect(location()).toBe('/team'));
    expect(server.callsTo('POST /invites/accept')).toEqual([{ token: 'tok-1' }]);
    expect(selectTeam).toHaveBeenCalledWith('tm_shop');
  });

  it.each([
    ['invite_expired', 410, /has expired/],
    ['invite_revoked', 410, /withdrawn/],
    ['invite_void', 410, /no longer valid: the person who sent it can no longer invite/],
    ['invite_accepted', 409, /already been accepted/],
  ])('explains %s', async (code, status, message) => {
    server.handlers['POST /invites/accept'] = () => apiError(status, code, 'No.');
    render(<AcceptInvitePage />, '/profile/invites/accept?token=tok-1');
    expect((await screen.findByRole('alert')).textContent).toMatch(message);
    expect(selectTeam).not.toHaveBeenCalled();
  });

  it('says so when the link has no token', async () => {
    render(<AcceptInvitePage />, '/profile/invites/accept');
    expect((await screen.findByRole('alert')).textContent).toMatch(/no token/);
    expect(server.calls).toEqual([]);
  });
});

describe('/test/invites', () => {
  it('accepts by token and by public id, with the same toasts', async () => {
    render(<TestInvitesPage />, '/test/invites');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Invite token'), 'tok-9');
    await user.click(screen.getByRole('button', { name: 'Accept by token' }));
    expect(await screen.findByText('Invite accepted!')).toBeTruthy();
    expect(server.callsTo('POST /invites/accept')).toEqual([{ token: 'tok-9' }]);

    server.handlers['POST /invites/inv_1/accept'] = () => apiError(403, 'forbidden', 'This invite is for someone else.');
    await user.type(screen.getByLabelText('Invite public id'), 'inv_1');
    await user.click(screen.getByRole('button', { name: 'Accept by public id' }));
    expect(await screen.findByText('This invite is for someone else.')).toBeTruthy();
  });
});
