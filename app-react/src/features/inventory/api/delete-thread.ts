// DELETE /api/v2/teams/{id}/threads/{threadId}: removes an entry (members and above).
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';

import { threadsKey } from './cache';
import { threadQueryOptions } from './get-thread';

export async function deleteThread({ teamId, threadId }: { teamId: string; threadId: string }): Promise<void> {
  await api<undefined>(teamPath(teamId, `threads/${encodeURIComponent(threadId)}`), { method: 'DELETE' });
}

export function useDeleteThread(teamId: string, threadId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteThread({ teamId, threadId }),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: threadQueryOptions(teamId, threadId).queryKey });
      await queryClient.invalidateQueries({ queryKey: threadsKey(teamId) });
    },
  });
}
