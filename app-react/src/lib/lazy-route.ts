// Route modules are separate chunks. After a deployment, an open tab may ask for a chunk that no
// longer exists; the answer is one page reload (which fetches the new index.html), guarded by a
// 10-second window so a chunk that really is broken cannot cause a reload loop.

export const RELOAD_GUARD_MS = 10_000;
const RELOAD_KEY = 'bobbin:chunk-reload-at';

interface ReloadEnv {
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  now: () => number;
  reload: () => void;
}

const browser: ReloadEnv = {
  // A getter: reading sessionStorage can throw (storage disabled), which must not break imports.
  get storage() {
    return window.sessionStorage;
  },
  now: () => Date.now(),
  reload: () => window.location.reload(),
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

/** Wraps a route module import for react-router's `lazy`, applying the reload rule. */
export function lazyRoute<T>(load: () => Promise<T>, env: ReloadEnv = browser): () => Promise<T> {
  return async () => {
    try {
      return await load();
    } catch (error) {
      // While the reload happens, keep the router waiting rather than flashing an error page.
      if (reloadOnce(env)) return new Promise<T>(() => {});
      throw error;
    }
  };
}
