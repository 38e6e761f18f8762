import { MutationObserver, QueryClient, onlineManager } from '@tanstack/react-query';

import { UNREACHABLE, UnreachableError, api } from '../api-client';
import { CHECK_DELAYS_MS, CHECK_PATH, beforeGoingOnline, followConnection } from './online';

const [FIRST_CHECK, SECOND_CHECK, THIRD_CHECK] = CHECK_DELAYS_MS as [number, number, number, number];
import { KEPT_WRITE, followWaitingWrites } from './writes';

// The issue: "Sessions survive a dropped connection ... it retries when the connection returns",
// and kept writes are "sent in order when the connection returns": the session's refresh comes
// first, so no write goes out with an access token that expired offline.
describe('the connection', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('follows the browser from the start, and counts as back only once the session is refreshed', async () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    let refreshed: () => void = () => {};
    const refresh = vi.fn(() => new Promise<void>((resolve) => (refreshed = resolve)));
    const unregister = beforeGoingOnline(refresh);
    followConnection();
    // A page opened without a connection starts offline: its writes wait rather than fail.
    expect(onlineManager.isOnline()).toBe(false);

    onLine.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(onlineManager.isOnline()).toBe(false);
    refreshed();
    await vi.waitFor(() => expect(onlineManager.isOnline()).toBe(true));
    refresh.mockImplementation(() => Promise.resolve());

    onLine.mockReturnValue(false);
    window.dispatchEvent(new Event('offline'));
    expect(onlineManager.isOnline()).toBe(false);
    onLine.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(onlineManager.isOnline()).toBe(true));
    unregister();
  });

  // Issue 52: "A workroom whose Wi-Fi is up but whose internet is down, or a server that is down,
  // counts as 'online' ... When requests fail for lack of a connection, the app behaves as
  // offline ... It checks for the server again and returns when the server answers."
  it('counts a server that does not answer as offline, and comes back when its health check answers', async () => {
    vi.useFakeTimers();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    let serverUp = false;
    const checked: string[] = [];
    const fetch = vi.fn(async (url: string) => {
      if (url === CHECK_PATH) checked.push(url);
      if (!serverUp) throw new TypeError('Failed to fetch');
      return Response.json({ ok: true });
    });
    vi.stubGlobal('fetch', fetch);
    const refresh = vi.fn(() => Promise.resolve());
    const unregister = beforeGoingOnline(refresh);
    followConnection();
    expect(onlineManager.isOnline()).toBe(true);

    const call = api('/teams');
    await expect(call).rejects.toThrow(UNREACHABLE);
    await expect(call).rejects.toBeInstanceOf(UnreachableError);
    // The browser still says it is online; the app does not.
    expect(navigator.onLine).toBe(true);
    expect(onlineManager.isOnline()).toBe(false);

    // The checks back off along the spec's delays while the server stays down.
    await vi.advanceTimersByTimeAsync(FIRST_CHECK);
    expect(checked).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(SECOND_CHECK - 1);
    expect(checked).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(checked).toHaveLength(2);
    expect(onlineManager.isOnline()).toBe(false);

    serverUp = true;
    await vi.advanceTimersByTimeAsync(THIRD_CHECK);
    expect(checked).toHaveLength(3);
    // Back, once the session was refreshed.
    expect(refresh).toHaveBeenCalled();
    expect(onlineManager.isOnline()).toBe(true);
    unregister();
  });

  it('counts a proxy’s 502 page as no answer, and a JSON error of the server as an answer', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    followConnection();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<h1>502 Bad Gateway</h1>', { status: 502, headers: { 'Content-Type': 'text/html' } })),
    );
    await expect(api('/teams')).rejects.toBeInstanceOf(UnreachableError);
    expect(onlineManager.isOnline()).toBe(false);

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ code: 'storage_unavailable', message: 'Down for a moment.' }, { status: 503 })),
    );
    await expect(api('/teams')).rejects.toThrow('Down for a moment.');
    await vi.waitFor(() => expect(onlineManager.isOnline()).toBe(true));
  });

  it('keeps a write that got no answer, and sends it again with the same key once the server answers', async () => {
    vi.useFakeTimers();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    let serverUp = false;
    const keys: (string | null)[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        if (!serverUp) throw new TypeError('Failed to fetch');
        if (url === CHECK_PATH) return Response.json({ ok: true });
        keys.push(new Headers(init.headers).get('Idempotency-Key'));
        return Response.json({ done: true });
      }),
    );
    followConnection();
    const queryClient = new QueryClient();
    // Mounted, as the app's provider does: it resumes paused writes when the app is back online.
    queryClient.mount();
    followWaitingWrites(queryClient);
    const write = new MutationObserver<unknown, Error, string, { offline: boolean }>(queryClient, {
      ...KEPT_WRITE,
      mutationFn: (key) => api('/teams/t/threads/a/adjust', { method: 'POST', body: { delta: 1 }, headers: { 'Idempotency-Key': key } }),
      onMutate: () => ({ offline: false }),
    });
    const sent = write.mutate('key-1');
    await vi.advanceTimersByTimeAsync(0);
    const [mutation] = queryClient.getMutationCache().getAll();
    // Not failed: waiting, as a write made offline does, and counted as one from now on.
    expect(mutation?.state.status).toBe('pending');
    expect(mutation?.state.isPaused).toBe(true);
    expect(mutation?.state.context).toEqual({ offline: true });

    serverUp = true;
    await vi.advanceTimersByTimeAsync(FIRST_CHECK);
    await sent;
    expect(mutation?.state.status).toBe('success');
    expect(keys).toEqual(['key-1']);
    queryClient.unmount();
  });
});
