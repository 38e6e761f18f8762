import { Outlet } from 'react-router';

import { Brand } from '@/components/Brand';
import { SiteFooter } from '@/components/SiteFooter';
import { useAuthState } from '@/lib/auth';

import { AccountNav } from './AccountNav';
import { ConnectionIndicator, OfflineBanner, RefusedWrites } from './OfflineStatus';
import { MainNav } from './MainNav';

/**
 * The landing layout (docs/behaviour.md, "Layouts, loading and banners"): a wide, open home page.
 * Someone signed in finds the app's places and their account menu in its header too.
 */
export function LandingLayout() {
  const signedIn = useAuthState().status === 'signed-in';
  return (
    <div className="layout layout--landing">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header site-header--landing">
        <Brand toDashboard={signedIn} />
        <MainNav />
        <AccountNav />
        <ConnectionIndicator />
      </header>
      <OfflineBanner />
      <main id="main" className="layout__main">
        <RefusedWrites />
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
