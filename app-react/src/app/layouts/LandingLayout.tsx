import { Outlet } from 'react-router';

import { Brand } from '@/components/Brand';
import { SiteFooter } from '@/components/SiteFooter';

import { AccountNav } from './AccountNav';

/** The landing layout (docs/behaviour.md, "Layouts, loading and banners"): a wide, open home page. */
export function LandingLayout() {
  return (
    <div className="layout layout--landing">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header site-header--landing">
        <Brand />
        <AccountNav />
      </header>
      <main id="main" className="layout__main">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
