import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { type ReactNode, useEffect, useState } from 'react';

import { BreakpointHelper } from '@/components/BreakpointHelper';
import { EnvironmentBanner } from '@/components/EnvironmentBanner';
import { LoadingBar } from '@/components/LoadingBar';
import { LoadingOverlay } from '@/components/LoadingOverlay';
import { NewBuildNotice } from '@/components/NewBuildNotice';
import { AppConfigContext } from '@/config/app-config-context';
import { type AppConfig, appConfig } from '@/config/env';
import { followConnection } from '@/lib/offline/online';
import { canPersist, persistOptions } from '@/lib/offline/persist';
import { registerServiceWorker } from '@/lib/offline/service-worker';
import { createQueryClient } from '@/lib/query-client';
import { Toaster } from '@/lib/toast';

import { FatalErrorBoundary } from './fatal-error';
import { registerKeptWrites } from './kept-writes';

interface AppProviderProps {
  children: ReactNode;
  config?: AppConfig;
}

/** The app's data cache: following the connection, with the writes that can wait for it. */
function createAppQueryClient(): QueryClient {
  followConnection();
  const queryClient = createQueryClient();
  registerKeptWrites(queryClient);
  return queryClient;
}

/**
 * Everything the pages share: the data cache, its loading bar, the new-build notice, toasts and the
 * development aids; around them all, the fatal error page for errors nothing else handled
 * (./fatal-error.tsx).
 */
export function AppProvider({ children, config = appConfig() }: AppProviderProps) {
  const [queryClient] = useState(createAppQueryClient);
  useEffect(registerServiceWorker, []);
  return (
    <FatalErrorBoundary>
      <AppConfigContext value={config}>
        <DataCache client={queryClient}>
          {(restored) => (
            <>
              <LoadingBar />
              <EnvironmentBanner environment={config.environment} />
              {restored ? children : <LoadingOverlay />}
              <NewBuildNotice />
              <Toaster />
              {config.environment === 'development' ? <BreakpointHelper /> : null}
            </>
          )}
        </DataCache>
      </AppConfigContext>
    </FatalErrorBoundary>
  );
}

/**
 * The data cache, kept across reloads where the browser can (lib/offline/persist.ts). The pages
 * wait for the kept copy to be restored (a few milliseconds from IndexedDB), so a page opened
 * offline reads it, and no route's loader asks for what is about to arrive; then writes kept from
 * before the reload go out if the connection is there.
 */
function DataCache({ client, children }: { client: QueryClient; children: (restored: boolean) => ReactNode }) {
  const [restored, setRestored] = useState(!canPersist());
  if (!canPersist()) return <QueryClientProvider client={client}>{children(true)}</QueryClientProvider>;
  return (
    <PersistQueryClientProvider
      client={client}
      persistOptions={persistOptions()}
      onSuccess={() => {
        // The copy is for when the server cannot answer: a page reload online still reads afresh,
        // with the copy on screen meanwhile (a restored answer keeps its age, and one younger
        // than its lifetime would otherwise count as fresh).
        void client.invalidateQueries({ refetchType: 'none' });
        setRestored(true);
        return client.resumePausedMutations();
      }}
      onError={() => setRestored(true)}
    >
      {children(restored)}
    </PersistQueryClientProvider>
  );
}
