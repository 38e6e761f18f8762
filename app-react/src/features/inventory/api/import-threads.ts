// POST /api/v2/teams/{id}/threads/import {csv, commit}: a preview with each row's problems, or
// (commit) the import itself, all rows or none.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';

import type { ImportResult } from '../types';
import { threadsKey } from './cache';

export function importThreads({ teamId, csv, commit }: { teamId: string; csv: string; commit: boolean }) {
  return api<ImportResult>(teamPath(teamId, 'threads/import'), { method: 'POST', body: { csv, commit } });
}

export function useImportThreads(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ csv, commit }: { csv: string; commit: boolean }) => importThreads({ teamId, csv, commit }),
    onSuccess: async (result) => {
      if (result.committed) await queryClient.invalidateQueries({ queryKey: threadsKey(teamId) });
    },
  });
}
