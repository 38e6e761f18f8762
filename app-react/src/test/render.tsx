import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { type ReactNode, useEffect } from 'react';
import {
  type Location,
  MemoryRouter,
  type NavigateFunction,
  NavigationType,
  type RouteObject,
  useLocation,
  useNavigate,
  useNavigationType,
  useRoutes,
} from 'react-router';

/** What a test reads of the memory router it renders in: where it is, how it got there, and a way on. */
export interface TestRouter {
  location: Location | undefined;
  action: NavigationType;
  navigate: NavigateFunction;
}

/** Renders `routes` at `path` in a memory router, over `queryClient`. */
export function renderRoutes(routes: RouteObject[], path: string, queryClient: QueryClient) {
  const router: TestRouter = { location: undefined, action: NavigationType.Pop, navigate: () => Promise.resolve() };
  function Probe() {
    const location = useLocation();
    const action = useNavigationType();
    const navigate = useNavigate();
    useEffect(() => {
      Object.assign(router, { location, action, navigate });
    });
    return useRoutes(routes);
  }
  const view = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]} useTransitions={false}>
        <Probe />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  const location = () => (router.location ? router.location.pathname + router.location.search : undefined);
  return { ...view, router, location };
}

/**
 * Renders `element` at `path` in a memory router, with a page per other path that only says
 * where it is (so a test sees where the screen sent the person), and a fresh query cache.
 */
export function renderPage(element: ReactNode, path: string, pattern = new URL(path, 'http://x').pathname) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const routes = [
    { path: pattern, element },
    { path: '*', Component: Elsewhere },
  ];
  return { ...renderRoutes(routes, path, queryClient), queryClient };
}

function Elsewhere() {
  return <p>Elsewhere</p>;
}
