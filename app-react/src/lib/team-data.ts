// The team store (spec, section 3: teams, current team, members, invites, settings) is kept in
// the browser between visits, and a logout must reset it and remove that copy (spec, section 4).
// The store does not exist yet; this is where the teams feature plugs its reset in, so logout
// (app/root.tsx) already calls it.

const TEAM_STORAGE_PREFIX = 'bobbin:team';

/** Resets the team store and removes its locally persisted data. */
export function clearLocalTeamData(
  storage: Pick<Storage, 'length' | 'key' | 'removeItem'> | null = safeLocalStorage(),
): void {
  if (!storage) return;
  const keys: string[] = [];
  for (let index = 0; index < storage.length; index += 1) {
    const key = storage.key(index);
    if (key?.startsWith(TEAM_STORAGE_PREFIX)) keys.push(key);
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
