// PATCH /api/v2/teams/{publicId}/settings (admins and owners) and its member twin under
// /members/settings (anyone, for themselves): a map of keys to new values, null removing a key.
// Answers the whole map.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { type Settings, settingKeys } from '../types';
import { type SettingsScope, putSettings, settingsPath } from './get-settings';

export interface SettingsChange {
  scope: SettingsScope;
  publicId: string;
  changes: Settings;
}

export async function updateSettings({ scope, publicId, changes }: SettingsChange): Promise<Settings> {
  return (await api<{ settings: Settings }>(settingsPath(scope, publicId), { method: 'PATCH', body: changes })).settings;
}

export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSettings,
    // The answer is the whole new map: it replaces the cached one, no refetch needed.
    onSuccess: (settings, { scope, publicId, changes }) => {
      putSettings(queryClient, scope, publicId, settings);
      // Which threads are low follows the default reorder point (docs/behaviour.md, "Low
      // stock"): the team's thread reads, whose keys start ['inventory', team, 'threads'], are
      // read again.
      if (scope === 'team' && settingKeys.defaultReorderPoint in changes) {
        void queryClient.invalidateQueries({ queryKey: ['inventory', publicId, 'threads'] });
      }
    },
  });
}
