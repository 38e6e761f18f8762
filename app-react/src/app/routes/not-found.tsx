import { useLocation } from 'react-router';

import { ErrorView } from '@/components/ErrorView';

/** An unmatched path: a non-fatal 404 inside the layout (docs/behaviour.md, "Error pages"). */
export function NotFoundPage() {
  const { pathname } = useLocation();
  return <ErrorView status={404} title="Page Not Found" message={`Page not found: ${pathname}`} />;
}
