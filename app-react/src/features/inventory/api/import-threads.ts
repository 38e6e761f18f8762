// POST /api/v2/teams/{id}/threads/import {csv, commit, skip_invalid}: a preview with each row's
// problems and warnings, or (commit) the import itself: all rows or none, or (skip_invalid) the
// rows without problems.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';

import type { ImportResult } from '../types';
import { threadsKey } from './cache';

interface ImportRequest {
  csv: string;
  commit: boolean;
  /** With `commit`: write the rows without problems, skip the others. */
  skipInvalid?: boolean;
}

export function importThreads({ teamId, csv, commit, skipInvalid = false }: ImportRequest & { teamId: string }) {
  return api<ImportResult>(teamPath(teamId, 'threads/import'), {
    method: 'POST',
    body: { csv, commit, skip_invalid: skipInvalid },
  });
}

export function useImportThreads(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: ImportRequest) => importThreads({ teamId, ...request }),
    onSuccess: async (result) => {
      if (result.committed) await queryClient.invalidateQueries({ queryKey: threadsKey(teamId) });
    },
  });
}
