import { createContext, useContext } from 'react';

import { type AppConfig, appConfig } from './env';

/** The runtime config, provided once by AppProvider (tests provide their own). */
export const AppConfigContext = createContext<AppConfig | null>(null);

export function useAppConfig(): AppConfig {
  return useContext(AppConfigContext) ?? appConfig();
}
