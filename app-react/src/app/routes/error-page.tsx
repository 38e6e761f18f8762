import { isRouteErrorResponse, useRouteError } from 'react-router';

import { ErrorView } from '@/components/ErrorView';
import { isCrawler } from '@/lib/crawler';

/**
 * A fatal error: a route's validation failed (404) or something threw (500). A crawler gets the
 * 404, which is true of the address, but not the 500 (docs/behaviour.md, "Error pages"): the
 * page that failed is gone, so it gets an empty page rather than "Internal Server Error" to index.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    const message = typeof error.data === 'string' ? error.data : undefined;
    return <ErrorView status={404} title="Page Not Found" message={message} />;
  }
  console.error(error);
  if (isCrawler()) return null;
  return <ErrorView status={500} title="Internal Server Error" />;
}
