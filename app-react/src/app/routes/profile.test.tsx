import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { SelectTeamContext } from '@/features/teams/select-team';
import { ApiError } from '@/lib/api-client';
import { notify } from '@/lib/toast';
import { renderPage } from '@/test/render';

import { TeamLink } from './profile';

const team = { id: 'team-uuid', public_id: 'tm_shop', name: 'The Shop', member_count: 2 };

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the profile page's team link", () => {
  it('selects the team and opens the team page', async () => {
    const select = vi.fn(async () => undefined);
    const view = renderPage(
      <SelectTeamContext value={select}>
        <TeamLink team={team} />
      </SelectTeamContext>,
      '/profile',
    );
    await userEvent.click(screen.getByRole('link', { name: 'The Shop' }));
    expect(select).toHaveBeenCalledWith('tm_shop');
    await vi.waitFor(() => expect(view.location()).toBe('/team'));
  });

  // An unhandled rejection shows the error page (docs/behaviour.md, "Error pages"): a failed
  // switch must not be one.
  it('says when the switch fails, and stays', async () => {
    const error = vi.spyOn(notify, 'error').mockReturnValue(undefined);
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const view = renderPage(
        <SelectTeamContext value={async () => Promise.reject(new ApiError(503, 'unavailable', 'The server is busy'))}>
          <TeamLink team={team} />
        </SelectTeamContext>,
        '/profile',
      );
      await userEvent.click(screen.getByRole('link', { name: 'The Shop' }));
      await vi.waitFor(() => expect(error).toHaveBeenCalledWith('Could not switch teams: The server is busy'));
      expect(view.location()).toBe('/profile');
      // Node tells of an unhandled rejection after the microtasks of the turn.
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
