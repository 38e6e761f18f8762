import { QueryClient } from '@tanstack/react-query';
import type { Mock } from 'vitest';

import { PROFILE_STALE_MS, profileQueryOptions, refreshProfile } from './get-profile';

const profileOf = (id: string) => ({
  id,
  email: `${id}@example.com`,
  full_name: null,
  default_team_pid: null,
  created_at: '2026-11-01T10:00:00Z',
});

let fetchMock: Mock<(url: string, init: RequestInit) => Promise<Response>>;
let queryClient: QueryClient;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  fetchMock = vi.fn(async (_url: string, _init: RequestInit) => Response.json(profileOf('u1')));
  vi.stubGlobal('fetch', fetchMock);
  queryClient = new QueryClient();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  queryClient.clear();
});

describe('the profile query', () => {
  it('asks /api/v2/users/me with no caching and the session cookie', async () => {
    await refreshProfile(queryClient, 'u1');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/v2/users/me');
    expect(init.cache).toBe('no-store');
    expect(init.credentials).toBe('include');
    expect(queryClient.getQueryData(profileQueryOptions('u1').queryKey)).toEqual(profileOf('u1'));
  });

  it('is fresh for 60 seconds unless forced', async () => {
    await refreshProfile(queryClient, 'u1');
    vi.setSystemTime(Date.now() + PROFILE_STALE_MS - 1000);
    await refreshProfile(queryClient, 'u1');
    expect(fetchMock).toHaveBeenCalledTimes(1);

    await refreshProfile(queryClient, 'u1', true);
    expect(fetchMock).toHaveBeenCalledTimes(2);

    vi.setSystemTime(Date.now() + PROFILE_STALE_MS + 1000);
    await refreshProfile(queryClient, 'u1');
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('is fetched at once for another user (the user id is in its key)', async () => {
    await refreshProfile(queryClient, 'u1');
    await refreshProfile(queryClient, 'u2');
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(profileQueryOptions('u1').queryKey).not.toEqual(profileQueryOptions('u2').queryKey);
  });

  it('never runs twice at once, forced or not', async () => {
    let answer: (response: Response) => void = () => {};
    fetchMock.mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
    const first = refreshProfile(queryClient, 'u1');
    const second = refreshProfile(queryClient, 'u1');
    const forced = refreshProfile(queryClient, 'u1', true);
    answer(Response.json(profileOf('u1')));
    await Promise.all([first, second, forced]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('is cleared, and the failure logged as a warning (not shown, not an error), when a fetch fails', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error');
    await refreshProfile(queryClient, 'u1');
    const unauthorised = { code: 'unauthorized', message: 'Sign in to continue.' };
    fetchMock.mockImplementation(async () => Response.json(unauthorised, { status: 401 }));

    await refreshProfile(queryClient, 'u1', true);

    expect(queryClient.getQueryData(profileQueryOptions('u1').queryKey)).toBeNull();
    expect(warn).toHaveBeenCalledWith('Could not load the profile:', expect.objectContaining({ status: 401 }));
    expect(error).not.toHaveBeenCalled();
    // A failure is not fresh: the next need asks again.
    await refreshProfile(queryClient, 'u1');
    expect(fetchMock).toHaveBeenCalledTimes(3);
    warn.mockRestore();
    error.mockRestore();
  });
});
