import { Link, useInRouterContext } from 'react-router';

import { paths, pageTitle } from '@/config/paths';

interface ErrorViewProps {
  status: number;
  title: string;
  message?: string | undefined;
}

/** What a person sees for a missing page or a crash: what happened, and a way out. */
export function ErrorView({ status, title, message }: ErrorViewProps) {
  // The fatal error page also stands in for the whole app, router included (app/fatal-error.tsx):
  // there a plain link, whose full page load starts the app afresh.
  const inRouter = useInRouterContext();
  return (
    <section className="error-view" aria-labelledby="error-title">
      <title>{pageTitle(title)}</title>
      <p className="error-view__status">{status}</p>
      <h1 id="error-title">{title}</h1>
      {message ? <p className="error-view__message">{message}</p> : null}
      {inRouter ? (
        <Link className="button" to={paths.home}>
          Go to the home page
        </Link>
      ) : (
        <a className="button" href={paths.home}>
          Go to the home page
        </a>
      )}
    </section>
  );
}
