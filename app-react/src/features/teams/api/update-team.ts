// PATCH /api/v2/teams/{publicId} {name}: renames a team (admins and owners).
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';

import type { Team } from '../types';
import { refresh } from './cache';
import { putTeam } from './get-team';
import { teamsQueryOptions } from './get-teams';

export async function renameTeam({ publicId, name }: { publicId: string; name: string }): Promise<Team> {
  return (await api<{ team: Team }>(teamPath(publicId), { method: 'PATCH', body: { name } })).team;
}

export function useRenameTeam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renameTeam,
    onSuccess: async (team) => {
      putTeam(queryClient, team);
      await refresh(queryClient, teamsQueryOptions().queryKey);
    },
  });
}
