// PATCH /api/v2/users/me/default-team {teamPublicId}: the team the app opens first. Answers the
// updated profile, which replaces the cached one (team initialisation reads the default from
// it, so a stale copy would switch the person back).
import type { QueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { type Profile, profileQueryOptions } from './get-profile';

export async function setDefaultTeam(queryClient: QueryClient, teamPublicId: string): Promise<Profile> {
  const profile = await api<Profile>('/users/me/default-team', { method: 'PATCH', body: { teamPublicId } });
  queryClient.setQueryData(profileQueryOptions(profile.id).queryKey, profile);
  return profile;
}
