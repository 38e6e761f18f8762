import { RELOAD_GUARD_MS, lazyRoute, reloadOnce } from './lazy-route';

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

describe('lazyRoute', () => {
  it('passes a loaded module through', async () => {
    const env = fakeEnv();
    await expect(lazyRoute(async () => 'module', env)()).resolves.toBe('module');
    expect(env.reloads).toBe(0);
  });

  it('reloads the page when a chunk fails to load', async () => {
    const env = fakeEnv();
    const pending = lazyRoute(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')), env)();
    await vi.waitFor(() => expect(env.reloads).toBe(1));
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
