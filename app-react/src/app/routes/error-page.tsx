import { isRouteErrorResponse, useRouteError } from 'react-router';

import { ErrorView } from '@/components/ErrorView';

/** A fatal error: a route's validation failed (404) or something threw (500). */
export function RouteErrorPage() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    const message = typeof error.data === 'string' ? error.data : undefined;
    return <ErrorView status={404} title="Page Not Found" message={message} />;
  }
  console.error(error);
  return <ErrorView status={500} title="Internal Server Error" />;
}
