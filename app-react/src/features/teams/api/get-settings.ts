// GET /api/v2/teams/{publicId}/settings (the team's settings, any member reads them) and
// GET /api/v2/teams/{publicId}/members/settings (the caller's own settings in that team): the
// same call under two paths, so one file serves both.
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';

import { api, productQuery, teamPath } from '@/lib/api-client';

import { teamStore } from '../store';
import type { Settings } from '../types';

/** Whose settings: the team's, or the signed-in member's own. */
export type SettingsScope = 'team' | 'member';

export function settingsPath(scope: SettingsScope, publicId: string): string {
  return teamPath(publicId, scope === 'team' ? 'settings' : 'members/settings');
}

export async function fetchSettings(scope: SettingsScope, publicId: string, signal?: AbortSignal): Promise<Settings> {
  return (await api<{ settings: Settings }>(settingsPath(scope, publicId), signal ? { signal } : {})).settings;
}

/** Into the team store when `publicId` is the current team (the pricing calculator reads them there, offline too). */
function store(scope: SettingsScope, publicId: string, settings: Settings): void {
  const state = teamStore.getState();
  if (scope === 'team') state.setSettings(publicId, settings);
  else state.setMemberSettings(publicId, settings);
}

export function settingsQueryOptions(scope: SettingsScope, publicId: string) {
  return queryOptions({
    queryKey: ['teams', scope === 'team' ? 'settings' : 'member-settings', publicId],
    queryFn: async ({ signal }) => {
      const settings = await fetchSettings(scope, publicId, signal);
      store(scope, publicId, settings);
      return settings;
    },
    // Settings have no lifetime of their own (docs/behaviour.md, "Cache lifetimes"): the default.
    ...productQuery,
  });
}

/** Settings a write answered (the whole new map): cached, and into the team store. */
export function putSettings(queryClient: QueryClient, scope: SettingsScope, publicId: string, settings: Settings): void {
  queryClient.setQueryData(settingsQueryOptions(scope, publicId).queryKey, settings);
  store(scope, publicId, settings);
}

export function useSettings(scope: SettingsScope, publicId: string) {
  return useQuery({ ...settingsQueryOptions(scope, publicId), enabled: publicId !== '' });
}
