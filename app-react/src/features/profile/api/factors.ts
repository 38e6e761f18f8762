// The signed-in person's second factors (authenticator apps), from the auth service's
// GET /auth/v1/user through the official client (`mfa.listFactors`).
import type { Factor } from '@supabase/supabase-js';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';

import { getAuthClient, useAuthState } from '@/lib/auth';

export type { Factor };

const factorsRoot = ['auth', 'factors'] as const;

export function factorsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: [...factorsRoot, userId],
    queryFn: async (): Promise<Factor[]> => {
      const { auth } = await getAuthClient();
      const { data, error } = await auth.mfa.listFactors();
      if (error) throw error;
      return data.all;
    },
    retry: false,
  });
}

/** Every factor of the signed-in person, verified or not. */
export function useFactors() {
  const auth = useAuthState();
  const userId = auth.status === 'signed-in' ? auth.user.id : '';
  return useQuery({ ...factorsQueryOptions(userId), enabled: userId !== '' });
}

/** After adding or removing a factor. */
export function invalidateFactors(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: factorsRoot });
}
