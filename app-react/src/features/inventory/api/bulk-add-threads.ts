// POST /api/v2/teams/{id}/threads/bulk {line, codes, quantity}: many codes of one line at once;
// codes already owned are left alone.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';

import type { ThreadView } from '../types';
import { threadsKey } from './cache';

export interface BulkInput {
  line: string;
  codes: string[];
  quantity: number;
}

export interface BulkResult {
  added: ThreadView[];
  already_owned: string[];
}

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
