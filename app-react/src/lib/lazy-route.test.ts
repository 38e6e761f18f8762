import { CHUNK_RETRY_DELAYS_MS, RELOAD_GUARD_MS, lazyRoute, loadChunk, preloadRoute, reloadOnce } from './lazy-route';

function fakeEnv(start = 1_000_000) {
  const store = new Map<string, string>();
  const env = {
    time: start,
    reloads: 0,
    storage: {
      getItem: (key: string) => store.get(key) ?? null,
      setItem: (key: string, value: string) => void store.set(key, value),
    },
    now: () => env.time,
    reload: () => {
      env.reloads += 1;
    },
    waits: [] as number[],
    wait: (ms: number) => {
      env.waits.push(ms);
      return Promise.resolve();
    },
  };
  return env;
}

describe('reloadOnce', () => {
  it('reloads once, then not again within 10 seconds, then again after', () => {
    const env = fakeEnv();
    expect(RELOAD_GUARD_MS).toBe(10_000);
    expect(reloadOnce(env)).toBe(true);
    env.time += RELOAD_GUARD_MS - 1;
    expect(reloadOnce(env)).toBe(false);
    env.time += 1;
    expect(reloadOnce(env)).toBe(true);
    expect(env.reloads).toBe(2);
  });

  it('does not reload when storage is unavailable, since nothing could stop a loop', () => {
    const env = fakeEnv();
    env.storage.getItem = () => {
      throw new Error('SecurityError');
    };
    expect(reloadOnce(env)).toBe(false);
    expect(env.reloads).toBe(0);
  });
});

// The auth client's chunk (lib/auth.ts) goes by the same rule as the routes'.
describe('loadChunk', () => {
  const failedFetch = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));

  it('fetches a chunk that failed again, up to 3 times, without a reload', async () => {
    const env = fakeEnv();
    let tries = 0;
    await expect(loadChunk(() => (++tries < 4 ? failedFetch() : Promise.resolve('client')), env)).resolves.toBe('client');
    expect(tries).toBe(4);
    expect(env.waits).toEqual([...CHUNK_RETRY_DELAYS_MS]);
    expect(env.reloads).toBe(0);
  });

  it('reloads once after the retries, and fails the next time within the guard window', async () => {
    const env = fakeEnv();
    void loadChunk(failedFetch, env);
    await vi.waitFor(() => expect(env.reloads).toBe(1));
    await expect(loadChunk(failedFetch, env)).rejects.toThrow('Failed to fetch');
    expect(env.reloads).toBe(1);
  });
});

describe('lazyRoute', () => {
  it('passes a loaded module through', async () => {
    const env = fakeEnv();
    await expect(lazyRoute(async () => 'module', env)()).resolves.toBe('module');
    expect(env.reloads).toBe(0);
  });

  // The spec: "Failed fetches are retried up to 3 times"; route code is such a fetch.
  it('fetches a chunk that failed again, up to 3 times, before any reload', async () => {
    const env = fakeEnv();
    let tries = 0;
    const flaky = () => {
      tries += 1;
      return tries < 4 ? Promise.reject(new TypeError('Failed to fetch dynamically imported module')) : Promise.resolve('module');
    };
    await expect(lazyRoute(flaky, env)()).resolves.toBe('module');
    expect(tries).toBe(4);
    expect(env.waits).toEqual([...CHUNK_RETRY_DELAYS_MS]);
    expect(env.reloads).toBe(0);
  });

  it('reloads the page when a chunk fails to load, and after 3 retries', async () => {
    const env = fakeEnv();
    let tries = 0;
    const pending = lazyRoute(() => {
      tries += 1;
      return Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    }, env)();
    await vi.waitFor(() => expect(env.reloads).toBe(1));
    expect(tries).toBe(4);
    // The router is kept waiting while the page reloads.
    const settled = await Promise.race([pending.then(() => 'settled'), new Promise((r) => setTimeout(r, 20, 'waiting'))]);
    expect(settled).toBe('waiting');
  });

  it('shows the error when the chunk fails again right after a reload', async () => {
    const env = fakeEnv();
    reloadOnce(env);
    const failing = lazyRoute(() => Promise.reject(new TypeError('Failed to fetch')), env);
    await expect(failing()).rejects.toThrow('Failed to fetch');
    expect(env.reloads).toBe(1);
  });
});

// The payload prefetch (app/prefetch.ts) loads route code ahead through preloadRoute.
describe('preloadRoute', () => {
  it("loads a route's module once, shared with the router's later call", async () => {
    const env = fakeEnv();
    const load = vi.fn(async () => 'module');
    const lazy = lazyRoute(load, env);
    preloadRoute(lazy);
    preloadRoute(lazy);
    await expect(lazy()).resolves.toBe('module');
    await expect(lazy()).resolves.toBe('module');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('never reloads the page for a chunk that fails ahead of a visit; the visit fetches it again', async () => {
    const env = fakeEnv();
    const load = vi.fn((): Promise<string> => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
    const lazy = lazyRoute(load, env);
    preloadRoute(lazy);
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(4));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(env.reloads).toBe(0);

    // The failure is not kept: the visit tries again, and only then may the page reload.
    load.mockImplementation(() => Promise.resolve('module'));
    await expect(lazy()).resolves.toBe('module');
    expect(load).toHaveBeenCalledTimes(5);
  });

  it('leaves alone what lazyRoute did not make', () => {
    expect(() => preloadRoute(undefined)).not.toThrow();
    expect(() => preloadRoute(async () => ({}))).not.toThrow();
  });
});
