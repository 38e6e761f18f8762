import { Link, useLocation } from 'react-router';

import { Icon } from '@/components/Icon';
import { useDisclosure } from '@/components/use-disclosure';
import { paths } from '@/config/paths';
import { useAuthState } from '@/lib/auth';

/** The app's places, each with the paths it covers (itself and what lies under it). */
const PLACES = [
  { label: 'Dashboard', to: paths.dashboard, covers: [paths.dashboard] },
  { label: 'Inventory', to: paths.inventory, covers: [paths.inventory] },
  { label: 'Designs', to: paths.designs, covers: [paths.designs] },
  { label: 'Quotes', to: paths.quotes, covers: [paths.quotes] },
  { label: 'Jobs', to: paths.jobs, covers: [paths.jobs] },
  { label: 'Tools', to: paths.calculators, covers: [paths.calculators, paths.threadConverter] },
  { label: 'Team', to: paths.team, covers: [paths.team] },
] as const;

function isIn(pathname: string, covers: readonly string[]): boolean {
  return covers.some((path) => pathname === path || pathname.startsWith(`${path}/`));
}

/**
 * The header's places (docs/behaviour.md, "Layouts, loading and banners"), for someone signed in:
 * a row of links, the current one marked; on a phone they fold behind a Menu button.
 */
export function MainNav() {
  const auth = useAuthState();
  const { pathname } = useLocation();
  const { open, container, buttonProps, panelId } = useDisclosure<HTMLElement>();

  if (auth.status !== 'signed-in') return null;
  return (
    <nav ref={container} className="main-nav" aria-label="Main">
      <button className="main-nav__toggle" {...buttonProps}>
        <Icon name="menu" />
        Menu
      </button>
      <ul id={panelId} className={open ? 'main-nav__list main-nav__list--open' : 'main-nav__list'}>
        {PLACES.map(({ label, to, covers }) => (
          <li key={to}>
            <Link to={to} aria-current={isIn(pathname, covers) ? 'page' : undefined}>
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
