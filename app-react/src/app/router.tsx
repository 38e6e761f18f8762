import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { BrowserRouter, type Location, type RouteObject } from 'react-router';

import { paths } from '@/config/paths';
import { lazyRoute } from '@/lib/lazy-route';

import { allOf, navigationGuards, publicIdParam, publicIdQuery, resetRedirect, uuidParam, uuidQuery } from './guards';
import { DefaultLayout } from './layouts/DefaultLayout';
import { LandingLayout } from './layouts/LandingLayout';
import { GuardedRoutes } from './navigation';
import { schedulePrefetch } from './prefetch';
import { AppRoot } from './root';
import { LandingPage } from './routes/landing';

// The landing page ships in the main bundle (it is the first page most people see); every other
// page is its own chunk, loaded through lazyRoute() (./navigation.tsx loads it before the page is
// shown). Every navigation runs the navigation guards first (docs/behaviour.md, "Navigation
// guards", ./guards.ts): route validation reads the rules in the routes' `handle`.
export function createRoutes(): RouteObject[] {
  return [
    {
      Component: AppRoot,
      children: [
        {
          element: <LandingLayout />,
          children: [{ index: true, element: <LandingPage /> }],
        },
        // The sign-in screens have no layout (docs/behaviour.md, "Screens and routes").
        {
          path: paths.login,
          lazy: lazyRoute(async () => ({ Component: (await import('./routes/sign-in')).LoginRoute })),
        },
        {
          path: paths.register,
          lazy: lazyRoute(async () => ({ Component: (await import('./routes/sign-in')).RegisterRoute })),
        },
        {
          path: paths.authCallback,
          lazy: lazyRoute(async () => ({ Component: (await import('@/features/auth/callback-page')).CallbackPage })),
        },
        {
          path: paths.forgotPassword,
          lazy: lazyRoute(async () => ({
            Component: (await import('@/features/auth/forgot-password-page')).ForgotPasswordPage,
          })),
        },
        {
          path: paths.authReset,
          lazy: lazyRoute(async () => ({ Component: (await import('@/features/auth/reset-page')).ResetPage })),
        },
        { path: paths.reset, handle: { redirect: resetRedirect } },
        {
          path: paths.authConfirm,
          lazy: lazyRoute(async () => ({ Component: (await import('@/features/auth/confirm-page')).ConfirmPage })),
        },
        // A quote's customer page, by the shop's link: the shop's page for someone without an
        // account, so no layout and no sign-in (./guards.ts).
        {
          path: paths.quoteLink,
          lazy: lazyRoute(async () => ({ Component: (await import('@/features/quote-link/customer-page')).CustomerQuotePage })),
        },
        {
          element: <DefaultLayout />,
          children: [
            {
              path: paths.dashboard,
              lazy: lazyRoute(async () => ({ Component: (await import('./routes/dashboard')).DashboardPage })),
            },
            {
              path: paths.profile,
              lazy: lazyRoute(async () => ({ Component: (await import('./routes/profile')).ProfileRoute })),
            },
            {
              path: paths.acceptInvite,
              lazy: lazyRoute(async () => ({
                Component: (await import('@/features/teams/accept-invite-page')).AcceptInvitePage,
              })),
            },
            {
              path: paths.team,
              lazy: lazyRoute(async () => ({ Component: (await import('@/features/teams/team-page')).TeamPage })),
            },
            {
              path: paths.testInvites,
              lazy: lazyRoute(async () => ({
                Component: (await import('@/features/teams/test-invites-page')).TestInvitesPage,
              })),
            },
            {
              path: paths.testVector,
              lazy: lazyRoute(async () => ({ Component: (await import('./routes/test-vector')).TestVectorPage })),
            },
            {
              path: paths.contact,
              lazy: lazyRoute(async () => ({ Component: (await import('./routes/contact')).ContactPage })),
            },
            {
              path: paths.threadConverter,
              lazy: lazyRoute(async () => ({ Component: (await import('./routes/thread-converter')).ThreadConverterRoute })),
            },
            {
              path: paths.inventory,
              lazy: lazyRoute(async () => ({
                Component: (await import('@/features/inventory/inventory-hub-page')).InventoryHubPage,
              })),
            },
            {
              path: paths.inventoryThreads,
              lazy: lazyRoute(async () => ({ Component: (await import('./routes/inventory')).ThreadsRoute })),
            },
            {
              path: paths.inventoryThread,
              handle: publicIdParam('threadId'),
              lazy: lazyRoute(async () => ({ Component: (await import('./routes/inventory')).ThreadRoute })),
            },
            {
              path: paths.inventoryShoppingList,
              lazy: lazyRoute(async () => ({ Component: (await import('./routes/inventory')).ShoppingListRoute })),
            },
            {
              path: paths.inventoryHistory,
              lazy: lazyRoute(async () => ({ Component: (await import('./routes/inventory')).StockHistoryRoute })),
            },
            {
              path: paths.inventoryMachines,
              lazy: lazyRoute(async () => ({ Component: (await import('./routes/inventory')).MachinesRoute })),
            },
            {
              path: paths.inventoryMachine,
              handle: publicIdParam('machineId'),
              lazy: lazyRoute(async () => ({ Component: (await import('./routes/inventory')).MachineRoute })),
            },
            {
              path: paths.calculators,
              lazy: lazyRoute(async () => ({ Component: (await import('./routes/calculators')).CalculatorsPage })),
            },
            {
              path: paths.pricingCalculator,
              handle: allOf(publicIdQuery('quote'), uuidQuery('design')),
              lazy: lazyRoute(async () => ({ Component: (await import('./routes/pricing')).PricingRoute })),
            },
            {
              path: paths.designs,
              lazy: lazyRoute(async () => ({ Component: (await import('./routes/designs')).DesignsRoute })),
            },
            {
              path: paths.design,
              handle: uuidParam('designId'),
              lazy: lazyRoute(async () => ({ Component: (await import('./routes/designs')).DesignRoute })),
            },
            {
              path: paths.quotes,
              lazy: lazyRoute(async () => ({ Component: (await import('./routes/quotes')).QuotesRoute })),
            },
            {
              path: paths.quote,
              handle: publicIdParam('quoteId'),
              lazy: lazyRoute(async () => ({ Component: (await import('./routes/quotes')).QuoteRoute })),
            },
            {
              path: paths.jobs,
              handle: uuidQuery('design'),
              lazy: lazyRoute(async () => ({ Component: (await import('./routes/jobs')).JobsRoute })),
            },
            {
              path: paths.job,
              handle: publicIdParam('jobId'),
              lazy: lazyRoute(async () => ({ Component: (await import('./routes/jobs')).JobRoute })),
            },
            {
              path: paths.jobSheet,
              handle: publicIdParam('jobId'),
              lazy: lazyRoute(async () => ({ Component: (await import('./routes/jobs')).JobSheetRoute })),
            },
            {
              path: '*',
              lazy: lazyRoute(async () => ({ Component: (await import('./routes/not-found')).NotFoundPage })),
            },
          ],
        },
      ],
    },
  ];
}

/** The app's router, over the data cache of the AppProvider around it. */
export function AppRouter() {
  return (
    // Without transitions: a navigation's address reaches the guards at once (./navigation.tsx).
    <BrowserRouter useTransitions={false}>
      <AppRoutes />
    </BrowserRouter>
  );
}

/**
 * The app's pages under the router around them (BrowserRouter; in tests a MemoryRouter), made
 * once; `onSettled` hears of each navigation once its page is on screen.
 */
export function AppRoutes({ onSettled }: { onSettled?: (location: Location) => void }) {
  const queryClient = useQueryClient();
  const [routes] = useState(createRoutes);
  // The guards read through the data cache (the build manifest, the person's invites).
  const [guard] = useState(() => navigationGuards(queryClient));
  // The code of the pages each page links to is loaded a second after it settles (./prefetch.ts).
  const settled = useCallback(
    (location: Location) => {
      onSettled?.(location);
      return schedulePrefetch(routes);
    },
    [routes, onSettled],
  );
  return <GuardedRoutes routes={routes} guard={guard} onSettled={settled} />;
}
