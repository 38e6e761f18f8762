import { Link } from 'react-router';

import { paths, pageTitle } from '@/config/paths';

interface ErrorViewProps {
  status: number;
  title: string;
  message?: string | undefined;
}

/** What a person sees for a missing page or a crash: what happened, and a way out. */
export function ErrorView({ status, title, message }: ErrorViewProps) {
  return (
    <section className="error-view" aria-labelledby="error-title">
      <title>{pageTitle(title)}</title>
      <p className="error-view__status">{status}</p>
      <h1 id="error-title">{title}</h1>
      {message ? <p className="error-view__message">{message}</p> : null}
      <Link className="button" to={paths.home}>
        Go to the home page
      </Link>
    </section>
  );
}
