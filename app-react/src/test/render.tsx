import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { RouterProvider, createMemoryRouter } from 'react-router';

/**
 * Renders `element` at `path` in a memory router, with a page per other path that only says
 * where it is (so a test sees where the screen sent the person), and a fresh query cache.
 */
export function renderPage(element: ReactNode, path: string, pattern = new URL(path, 'http://x').pathname) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: pattern, element },
      { path: '*', Component: Elsewhere },
    ],
    { initialEntries: [path] },
  );
  const view = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  const location = () => router.state.location.pathname + router.state.location.search;
  return { ...view, router, queryClient, location };
}

function Elsewhere() {
  return <p>Elsewhere</p>;
}
