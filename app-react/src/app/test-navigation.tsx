// The app's navigation in tests (./navigation.tsx): guarded routes in a memory router.
import { render } from '@testing-library/react';
import { type EffectCallback, useEffect } from 'react';
import { type Location, MemoryRouter, type NavigateFunction, type RouteObject, useNavigate } from 'react-router';

import { type Guard, GuardedRoutes } from './navigation';

/** Where guarded routes' page is (once shown), and a way to navigate. */
export interface GuardedPages {
  shown: Location | undefined;
  navigate: NavigateFunction;
}

/**
 * Renders `routes` at `path` in a memory router, under `guard`, as the app shows its pages
 * (app/navigation.tsx); `onSettled` hears of each page shown, after `pages.shown` is set.
 */
export function renderGuarded(routes: RouteObject[], guard: Guard, path: string, onSettled?: () => ReturnType<EffectCallback>) {
  const pages: GuardedPages = { shown: undefined, navigate: () => Promise.resolve() };
  function Navigator() {
    const navigate = useNavigate();
    useEffect(() => {
      pages.navigate = navigate;
    });
    return null;
  }
  render(
    <MemoryRouter initialEntries={[path]} useTransitions={false}>
      <Navigator />
      <GuardedRoutes
        routes={routes}
        guard={guard}
        onSettled={(location) => {
          pages.shown = location;
          return onSettled?.();
        }}
      />
    </MemoryRouter>,
  );
  return pages;
}
