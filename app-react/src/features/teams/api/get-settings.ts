// GET /api/v2/teams/{publicId}/settings (the team's settings, any member reads them) and
// GET /api/v2/teams/{publicId}/members/settings (the caller's own settings in that team): the
// same call under two paths, so one file serves both.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import type { Settings } from '../types';
import { productQuery, staleTimes } from './cache';

/** Whose settings: the team's, or the signed-in member's own. */
export type SettingsScope = 'team' | 'member';

export function settingsPath(scope: SettingsScope, publicId: string): string {
  const team = `/teams/${encodeURIComponent(publicId)}`;
  return scope === 'team' ? `${team}/settings` : `${team}/members/settings`;
}

export async function fetchSettings(scope: SettingsScope, publicId: string, signal?: AbortSignal): Promise<Settings> {
  return (await api<{ settings: Settings }>(settingsPath(scope, publicId), signal ? { signal } : {})).settings;
}

export function settingsQueryOptions(scope: SettingsScope, publicId: string) {
  return queryOptions({
    queryKey: ['teams', scope === 'team' ? 'settings' : 'member-settings', publicId],
    queryFn: ({ signal }) => fetchSettings(scope, publicId, signal),
    staleTime: staleTimes.default,
    ...productQuery,
  });
}

export function useSettings(scope: SettingsScope, publicId: string) {
  return useQuery({ ...settingsQueryOptions(scope, publicId), enabled: publicId !== '' });
}
