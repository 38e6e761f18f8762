import { ErrorView } from '@/components/ErrorView';
import { isCrawler } from '@/lib/crawler';

import { PageNotFound } from '../page-not-found';

/**
 * A fatal error of a navigation: a route's validation failed (404) or something threw (500). A
 * crawler gets the 404, which is true of the address, but not the 500 (docs/behaviour.md, "Error
 * pages"): the page that failed is gone, so it gets an empty page rather than "Internal Server
 * Error" to index.
 */
export function RouteErrorPage({ error }: { error: unknown }) {
  if (error instanceof PageNotFound) return <ErrorView status={404} title="Page Not Found" message={error.message} />;
  // The error was logged where it was caught (app/navigation.tsx; React logs a render error).
  if (isCrawler()) return null;
  return <ErrorView status={500} title="Internal Server Error" />;
}
