// POST /api/v2/teams {name}: a new team, its creator the owner.
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import type { Team } from '../types';
import { refresh } from './cache';
import { teamsQueryOptions } from './get-teams';

export async function createTeam(name: string): Promise<Team> {
  return (await api<{ team: Team }>('/teams', { method: 'POST', body: { name } })).team;
}

export async function afterTeamCreated(queryClient: QueryClient): Promise<void> {
  await refresh(queryClient, teamsQueryOptions().queryKey);
}

export function useCreateTeam() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createTeam, onSuccess: () => afterTeamCreated(queryClient) });
}
