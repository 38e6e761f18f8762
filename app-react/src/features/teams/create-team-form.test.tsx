import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { apiError, fakeApi } from '@/test/fake-api';
import { renderPage } from '@/test/render';

import { CreateTeamForm } from './components/CreateTeamForm';
import { SelectTeamContext } from './select-team';
import { aTeam } from './test-data';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('starting another team', () => {
  it('creates the team and switches to it', async () => {
    const server = fakeApi({
      'POST /teams': () => Response.json({ team: aTeam('tm_new', 'owner', 'Night Shift') }, { status: 201 }),
      'GET /teams': () => Response.json({ teams: [aTeam('tm_new')] }),
    });
    const selectTeam = vi.fn(async () => {});
    renderPage(
      <SelectTeamContext value={selectTeam}>
        <CreateTeamForm />
      </SelectTeamContext>,
      '/dashboard',
    );
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Team name'), '  Night Shift ');
    await user.click(screen.getByRole('button', { name: 'Create team' }));
    await waitFor(() => expect(selectTeam).toHaveBeenCalledWith('tm_new'));
    expect(server.callsTo('POST /teams')).toEqual([{ name: 'Night Shift' }]);
  });

  it("shows the server's word on the name", async () => {
    fakeApi({
      'POST /teams': () =>
        apiError(422, 'validation_failed', 'Check the fields.', {
          fields: [{ field: 'name', code: 'too_long', message: 'A team name has at most 100 characters.' }],
        }),
    });
    renderPage(
      <SelectTeamContext value={vi.fn()}>
        <CreateTeamForm />
      </SelectTeamContext>,
      '/dashboard',
    );
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Team name'), 'x');
    await user.click(screen.getByRole('button', { name: 'Create team' }));
    expect(await screen.findByText('A team name has at most 100 characters.')).toBeTruthy();
  });
});
