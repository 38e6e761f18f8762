import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';

import { BreakpointHelper } from '@/components/BreakpointHelper';
import { EnvironmentBanner } from '@/components/EnvironmentBanner';
import { LoadingBar } from '@/components/LoadingBar';
import { NewBuildNotice } from '@/components/NewBuildNotice';
import { AppConfigContext } from '@/config/app-config-context';
import { type AppConfig, appConfig } from '@/config/env';
import { createQueryClient } from '@/lib/query-client';
import { Toaster } from '@/lib/toast';

import { FatalErrorBoundary } from './fatal-error';

interface AppProviderProps {
  children: ReactNode;
  config?: AppConfig;
}

/**
 * Everything the pages share: the data cache, its loading bar, the new-build notice, toasts and the
 * development aids; around them all, the fatal error page for errors nothing else handled
 * (./fatal-error.tsx).
 */
export function AppProvider({ children, config = appConfig() }: AppProviderProps) {
  const [queryClient] = useState(createQueryClient);
  return (
    <FatalErrorBoundary>
      <AppConfigContext value={config}>
        <QueryClientProvider client={queryClient}>
          <LoadingBar />
          <EnvironmentBanner environment={config.environment} />
          {children}
          <NewBuildNotice />
          <Toaster />
          {config.environment === 'development' ? <BreakpointHelper /> : null}
        </QueryClientProvider>
      </AppConfigContext>
    </FatalErrorBoundary>
  );
}
