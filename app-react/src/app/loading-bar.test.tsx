import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';

import { setDefaultTeam } from '@/features/profile/api/set-default-team';
import { createTeam } from '@/features/teams/api/create-team';

import { LoadingBar } from '@/components/LoadingBar';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** `fetch` stubbed to wait until the test answers; answers the release. */
function holdingFetch(): (response: Response) => void {
  let release: (response: Response) => void = () => undefined;
  vi.stubGlobal(
    'fetch',
    vi.fn(
      () =>
        new Promise<Response>((resolve) => {
          release = resolve;
        }),
    ),
  );
  return (response) => {
    release(response);
  };
}

function renderBar(queryClient = new QueryClient()) {
  render(
    <QueryClientProvider client={queryClient}>
      <LoadingBar />
    </QueryClientProvider>,
  );
  return queryClient;
}

// The spec: "the global loading indicator is on while any product API call runs, every call
// included" (the issue: the personal-team creation and the default-team save were missed).
describe('the global loading bar', () => {
  it('is on while the personal team is created, a call made outside the data cache', async () => {
    renderBar();
    const answer = holdingFetch();
    let created: Promise<unknown> = Promise.resolve();
    act(() => {
      created = createTeam("ada@example.com's Team");
    });
    expect(await screen.findByRole('progressbar', { name: 'Loading' })).toBeTruthy();
    await act(async () => {
      answer(Response.json({ team: { id: 't', public_id: 'p', name: 'n' } }, { status: 201 }));
      await created;
    });
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('is on while the default team is saved, and off again when the call fails', async () => {
    const queryClient = renderBar();
    const answer = holdingFetch();
    let saved: Promise<unknown> = Promise.resolve();
    act(() => {
      saved = setDefaultTeam(queryClient, 'team-pid').catch(() => undefined);
    });
    expect(await screen.findByRole('progressbar', { name: 'Loading' })).toBeTruthy();
    await act(async () => {
      answer(Response.json({ code: 'internal', message: 'Down' }, { status: 503 }));
      await saved;
    });
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('stays off while something that is not an API call loads (the WebAssembly core)', async () => {
    const queryClient = renderBar();
    let finish: () => void = () => undefined;
    act(() => {
      void queryClient.query({
        queryKey: ['core'],
        queryFn: () =>
          new Promise<string>((resolve) => {
            finish = () => {
              resolve('core');
            };
          }),
      });
    });
    // Past the data cache's batched notification (a timeout of 0), which a bar reading the
    // cache's fetch count would have turned on by now.
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(queryClient.isFetching()).toBe(1);
    expect(screen.queryByRole('progressbar')).toBeNull();
    await act(async () => {
      finish();
      await Promise.resolve();
    });
  });
});
