// The team store (teams, current team, members, invites, settings) is kept in the browser between
// visits, and a logout must reset it and remove that copy (docs/behaviour.md, "The team store" and
// "Logout"). The store lives in the teams feature, which registers its reset here: logout
// (app/root.tsx) calls clearLocalTeamData without knowing the feature.

export const TEAM_STORAGE_PREFIX = 'bobbin:team';

const resets = new Set<() => void>();

/** Registers what resets the in-memory team state at logout; answers the unregistering. */
export function onTeamDataCleared(reset: () => void): () => void {
  resets.add(reset);
  return () => resets.delete(reset);
}

/** Resets the team store and removes its locally persisted data. */
export function clearLocalTeamData(storage: Pick<Storage, 'length' | 'key' | 'removeItem'> | null = safeLocalStorage()): void {
  // First the reset (the persisting store writes its empty state), then the removal, so no
  // copy of the old data, nor of the empty state, is left behind.
  for (const reset of resets) reset();
  if (storage) removeStoredKeys(storage, TEAM_STORAGE_PREFIX);
}

/** Removes every key of `storage` that starts with `prefix`. */
export function removeStoredKeys(storage: Pick<Storage, 'length' | 'key' | 'removeItem'>, prefix: string): void {
  const keys: string[] = [];
  for (let index = 0; index < storage.length; index += 1) {
    const key = storage.key(index);
    if (key?.startsWith(prefix)) keys.push(key);
  }
  for (const key of keys) storage.removeItem(key);
}

function safeLocalStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    // Storage disabled: nothing was persisted either.
    return null;
  }
}
