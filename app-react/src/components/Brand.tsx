import { Link } from 'react-router';

import { paths } from '@/config/paths';

/**
 * The logo, a link: to the home page, or (`toDashboard`, for someone signed in) to the dashboard,
 * where the app starts.
 */
export function Brand({ toDashboard = false }: { toDashboard?: boolean }) {
  return (
    <Link to={toDashboard ? paths.dashboard : paths.home} className="brand" aria-label={toDashboard ? 'Bobbin dashboard' : 'Bobbin home'}>
      <BrandMark />
      <span className="brand__name">Bobbin</span>
    </Link>
  );
}

/** The bobbin drawn in the logo (the favicon in index.html is the same drawing). */
export function BrandMark({ className = 'brand__mark' }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect x="8" y="3" width="16" height="4" rx="1" />
      <rect x="8" y="25" width="16" height="4" rx="1" />
      <rect className="brand__thread" x="10" y="7" width="12" height="18" />
    </svg>
  );
}
