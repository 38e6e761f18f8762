// The contact page's calls (docs/behaviour.md, "Contact"): GET /api/v2/contact (whether this
// server takes messages) and POST /api/v2/contact (send one to the people who run it).
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';

import { api, productQuery } from '@/lib/api-client';
import type { components } from '@/lib/api-schema';

export type ContactMessage = components['schemas']['ContactBody'];

export function contactInfoQueryOptions() {
  return queryOptions({
    queryKey: ['contact'],
    queryFn: ({ signal }) => api<components['schemas']['ContactInfo']>('/contact', { signal }),
    ...productQuery,
    // Set by the operator at start: it changes with a restart at most.
    staleTime: 10 * 60_000,
  });
}

export function useContactInfo() {
  return useQuery(contactInfoQueryOptions());
}

export function useSendContact() {
  return useMutation({
    mutationFn: (message: ContactMessage) => api<components['schemas']['ContactSent']>('/contact', { method: 'POST', body: message }),
  });
}
