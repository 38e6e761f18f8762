// The guards that run on every navigation (spec, section 2). Route validation (guard 1) is each
// route's own loader; the pending-invites guard (3) and build-manifest redirects (4) come with
// the features they need.
import { type LoaderFunctionArgs, redirect } from 'react-router';

import { paths, publicPaths } from '@/config/paths';
import { currentSession, needsSecondFactor } from '@/lib/auth';

/**
 * Guard 2, as a pure rule: where a visitor must go instead of `url`, or null to let them
 * through. Not logged in, only the public pages are open; any other page sends them to the
 * login page with the full original path (and query) to come back to.
 */
export function loginRedirect(url: URL, loggedIn: boolean): string | null {
  if (loggedIn || publicPaths.has(normalise(url.pathname))) return null;
  const search = new URLSearchParams({ redirect: url.pathname + url.search });
  return `${paths.login}?${search}`;
}

/** `/login/` is `/login`: the router matches both, so the guard must too. */
function normalise(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

/**
 * The login guard as the root route's loader. A visitor without the auth cookie is out without
 * loading the auth client. A session still waiting for its second-factor code does not count
 * as logged in: the login page asks for the code and then comes back.
 */
export async function loginGuard({ request }: LoaderFunctionArgs): Promise<null> {
  const url = new URL(request.url);
  if (publicPaths.has(normalise(url.pathname))) return null;
  const target = loginRedirect(url, await isLoggedIn());
  if (target) throw redirect(target);
  return null;
}

/** Logged in: a session, at `aal2` if the account has an authenticator app. */
export async function isLoggedIn(): Promise<boolean> {
  return (await currentSession()) !== null && !(await needsSecondFactor());
}

/**
 * `/reset`, which the spec lists as public: the new-password page for someone signed in (by a
 * recovery link), else the page that e-mails such a link.
 */
export async function resetRedirect(): Promise<Response> {
  return redirect((await isLoggedIn()) ? paths.authReset : paths.forgotPassword);
}

/** The root loader runs on every navigation, not only when its own params change. */
export function alwaysRevalidate(): boolean {
  return true;
}
