import { QueryClient, QueryClientProvider, focusManager } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';

import { BUILD_POLL_MS, buildState, latestBuildQueryOptions } from '@/lib/builds';

import { NewBuildNotice } from './NewBuildNotice';

// The issue: "The app polls the latest-build manifest (interval yours: say it, and also on tab
// focus) and, when a new build is out, offers a reload".
describe('the new-build notice', () => {
  let latest = 'build-1';
  let polls = 0;

  beforeEach(() => {
    document.head.insertAdjacentHTML('beforeend', '<meta name="bobbin-build" content="build-1">');
    latest = 'build-1';
    polls = 0;
    vi.stubGlobal('fetch', async (url: string) => {
      if (url !== '/builds/latest.json') throw new Error(`unexpected fetch ${url}`);
      polls += 1;
      return Response.json({ id: latest, timestamp: polls });
    });
  });

  afterEach(() => {
    document.head.querySelector('meta[name="bobbin-build"]')?.remove();
    buildState.setState({ newBuild: null });
    vi.unstubAllGlobals();
    focusManager.setFocused(undefined);
  });

  it('asks every 5 minutes and when the tab comes back, and offers a reload once the build changed', async () => {
    expect(BUILD_POLL_MS).toBe(5 * 60_000);
    expect(latestBuildQueryOptions.refetchInterval).toBe(BUILD_POLL_MS);
    render(
      <QueryClientProvider client={new QueryClient()}>
        <NewBuildNotice />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(polls).toBe(1));
    expect(screen.queryByRole('status')).toBeNull();

    latest = 'build-2';
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    await waitFor(() => expect(polls).toBe(2));
    expect((await screen.findByRole('status')).textContent).toContain('A new version of Bobbin is out.');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
  });
});
