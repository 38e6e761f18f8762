// POST /api/v2/teams/{id}/threads/bulk {line, codes, quantity}: many codes of one line at once;
// codes already owned are left alone.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';

import type { BulkInput, BulkResult } from '../types';
import { threadsKey } from './cache';

export function bulkAddThreads({ teamId, input }: { teamId: string; input: BulkInput }): Promise<BulkResult> {
  return api<BulkResult>(teamPath(teamId, 'threads/bulk'), { method: 'POST', body: input });
}

export function useBulkAddThreads(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BulkInput) => bulkAddThreads({ teamId, input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: threadsKey(teamId) }),
  });
}
