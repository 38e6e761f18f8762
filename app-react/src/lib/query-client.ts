import { QueryClient } from '@tanstack/react-query';

// One cache for the whole app. Per-endpoint lifetimes (the spec's section 9) are set in each
// endpoint's queryOptions(), next to its fetcher.
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Failed fetches are retried up to 3 times (spec, section 4).
        retry: 3,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: 0 },
    },
  });
}
