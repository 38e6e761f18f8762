import { Outlet } from 'react-router';

import { Brand } from '@/components/Brand';
import { SiteFooter } from '@/components/SiteFooter';

import { AccountNav } from './AccountNav';
import { ConnectionIndicator, OfflineBanner, RefusedWrites } from './OfflineStatus';
import { MainNav } from './MainNav';
import { TeamSwitcher } from './TeamSwitcher';

/**
 * The default layout (docs/behaviour.md, "Layouts, loading and banners"): a header with the
 * brand (to the dashboard), the app's places, the team switcher and the account menu; a
 * readable content column; the footer. Its pages need a login, so the brand leads into the app.
 */
export function DefaultLayout() {
  return (
    <div className="layout layout--default">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <Brand toDashboard />
        <MainNav />
        <TeamSwitcher />
        <AccountNav countInvites />
        <ConnectionIndicator />
      </header>
      <OfflineBanner />
      <main id="main" className="layout__main layout__main--wide">
        <RefusedWrites />
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
