import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type RouteObject, createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';

import { LoadingOverlay } from '@/components/LoadingOverlay';
import { paths } from '@/config/paths';
import { lazyRoute } from '@/lib/lazy-route';

import { alwaysRevalidate, publicIdParam, publicIdQuery, resetRedirect, rootLoader } from './guards';
import { DefaultLayout } from './layouts/DefaultLayout';
import { LandingLayout } from './layouts/LandingLayout';
import { startPrefetch } from './prefetch';
import { AppRoot } from './root';
import { RouteErrorPage } from './routes/error-page';
import { LandingPage } from './routes/landing';

// The landing page ships in the main bundle (it is the first page most people see); every other
// page is its own chunk, loaded through lazyRoute(). The root's loader runs the navigation guards
// (docs/behaviour.md, "Navigation guards") on every navigation before any page loads: route
// validation (the rules in the routes' `handle`), the login guard, then the pending-invites guard,
// which reads through the data cache, hence `queryClient`.
export function createRoutes(queryClient: QueryClient): RouteObject[] {
  const routes: RouteObject[] = [
    {
      id: 'root',
      Component: AppRoot,
      loader: rootLoader(queryClient, () => routes),
      shouldRevalidate: alwaysRevalidate,
      errorElement: <RouteErrorPage />,
      HydrateFallback: LoadingOverlay,
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
        { path: paths.reset, loader: resetRedirect },
        {
          path: paths.authConfirm,
          lazy: lazyRoute(async () => ({ Component: (await import('@/features/auth/confirm-page')).ConfirmPage })),
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
              handle: publicIdQuery('quote'),
              lazy: lazyRoute(async () => ({ Component: (await import('./routes/pricing')).PricingRoute })),
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
  return routes;
}

/** The app's router, made once, over the data cache of the AppProvider around it. */
export function AppRouter() {
  const queryClient = useQueryClient();
  const [router] = useState(() => createBrowserRouter(createRoutes(queryClient)));
  // The code of the pages each page links to is loaded a second after it settles (./prefetch.ts).
  useEffect(() => startPrefetch(router), [router]);
  return <RouterProvider router={router} />;
}
