import { QueryClient } from '@tanstack/react-query';

// One cache for the whole app. Per-endpoint lifetimes (docs/behaviour.md, "Cache lifetimes") are
// set in each endpoint's queryOptions(), next to its fetcher.
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Failed fetches are retried up to 3 times; the product API's own reads set `retry: false`.
        retry: 3,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: 0 },
    },
  });
}
