import { Link } from 'react-router';

import { paths } from '@/config/paths';

export function Brand() {
  return (
    <Link to={paths.home} className="brand" aria-label="Bobbin home">
      <svg className="brand__mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect x="8" y="3" width="16" height="4" rx="1" />
        <rect x="8" y="25" width="16" height="4" rx="1" />
        <rect className="brand__thread" x="10" y="7" width="12" height="18" />
      </svg>
      <span className="brand__name">Bobbin</span>
    </Link>
  );
}
