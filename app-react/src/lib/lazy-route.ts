// Route modules are separate chunks, and so is the auth client (./auth.ts). A chunk that fails to
// load is fetched again, up to 3 times
// (a dropped connection, a server restarting); Chromium fetches a failed dynamic import anew
// rather than remembering the failure. After a deployment, an open tab may ask for a chunk that
// no longer exists; when the retries fail too, the answer is one page reload (which fetches the
// new index.html), guarded by a 10-second window so a chunk that really is broken cannot cause a
// reload loop.

export const RELOAD_GUARD_MS = 10_000;
/** The waits before each retry of a failed chunk: short, since a person is waiting for a page. */
export const CHUNK_RETRY_DELAYS_MS = [250, 500, 1000] as const;
const RELOAD_KEY = 'bobbin:chunk-reload-at';

interface ReloadEnv {
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  now: () => number;
  reload: () => void;
  wait: (ms: number) => Promise<void>;
}

const browser: ReloadEnv = {
  // A getter: reading sessionStorage can throw (storage disabled), which must not break imports.
  get storage() {
    return window.sessionStorage;
  },
  now: () => Date.now(),
  reload: () => window.location.reload(),
  wait: (ms) =>
    new Promise((resolve) => {
      setTimeout(resolve, ms);
    }),
};

/** Reloads the page unless it already did so within the guard window; says whether it did. */
export function reloadOnce(env: ReloadEnv = browser): boolean {
  const now = env.now();
  try {
    const last = Number(env.storage.getItem(RELOAD_KEY) ?? 0);
    if (now - last < RELOAD_GUARD_MS) return false;
    env.storage.setItem(RELOAD_KEY, String(now));
  } catch {
    // Without storage there is no guard, and an unguarded reload could loop: show the error.
    return false;
  }
  env.reload();
  return true;
}

/**
 * Loads a chunk by the rule of every chunk (route code, the auth client): fetched again up to 3
 * times, then one guarded reload. While the reload happens the promise never settles, so nothing
 * flashes an error page.
 */
export async function loadChunk<T>(load: () => Promise<T>, env: ReloadEnv = browser): Promise<T> {
  return reloadOnFailure(withRetries(load, env), env);
}

async function reloadOnFailure<T>(loading: Promise<T>, env: ReloadEnv): Promise<T> {
  try {
    return await loading;
  } catch (error) {
    if (reloadOnce(env)) return new Promise<T>(() => {});
    throw error;
  }
}

/** What preloadRoute() calls for each route lazyRoute() made: the load alone, without the reload rule. */
const preloads = new WeakMap<object, () => Promise<unknown>>();

/** Wraps a route module import for react-router's `lazy`: retried, then the reload rule. */
export function lazyRoute<T>(load: () => Promise<T>, env: ReloadEnv = browser): () => Promise<T> {
  // One load, shared by the prefetch (preloadRoute) and the router: React Router caches only the
  // loads it starts itself. A failed load is forgotten, so the next call fetches it again.
  let loading: Promise<T> | undefined;
  const shared = () =>
    (loading ??= withRetries(load, env).catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
  const lazy = () => reloadOnFailure(shared(), env);
  preloads.set(lazy, shared);
  return lazy;
}

/**
 * Loads the module of a route's `lazy` ahead of a visit (app/prefetch.ts), if lazyRoute() made
 * it. Only the module: no loader runs. A failure is left to the visit, which fetches the chunk
 * again and may reload: the page never reloads for code nobody has asked for yet.
 */
export function preloadRoute(lazy: unknown): void {
  const preload = typeof lazy === 'function' ? preloads.get(lazy) : undefined;
  preload?.().catch(() => {});
}

async function withRetries<T>(load: () => Promise<T>, env: ReloadEnv): Promise<T> {
  for (const delay of CHUNK_RETRY_DELAYS_MS) {
    try {
      return await load();
    } catch {
      await env.wait(delay);
    }
  }
  return load();
}
