import { Outlet } from 'react-router';

import { Brand } from '@/components/Brand';
import { SiteFooter } from '@/components/SiteFooter';

import { AccountNav } from './AccountNav';
import { TeamSwitcher } from './TeamSwitcher';

/**
 * The default layout (docs/behaviour.md, "Layouts, loading and banners"): header with the team
 * switcher, a readable content column, footer.
 */
export function DefaultLayout() {
  return (
    <div className="layout layout--default">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <Brand />
        <TeamSwitcher />
        <AccountNav />
      </header>
      <main id="main" className="layout__main layout__main--column">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
