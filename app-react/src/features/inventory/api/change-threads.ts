// PATCH /api/v2/teams/{id}/threads {ids, location?, reorder_point?}: the same location and/or
// reorder point for several threads at once, all or none.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';

import type { ThreadView } from '../types';
import { threadsKey } from './cache';

export interface ManyChanges {
  ids: string[];
  location?: string;
  reorder_point?: number | null;
}

export function useChangeThreads(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (changes: ManyChanges) =>
      (await api<{ threads: ThreadView[] }>(teamPath(teamId, 'threads'), { method: 'PATCH', body: changes })).threads,
    onSettled: () => queryClient.invalidateQueries({ queryKey: threadsKey(teamId) }),
  });
}
