// The guards that run on every navigation (docs/behaviour.md, "Navigation guards"), in the spec's
// order: route validation (guard 1, each route's rule in its `handle`), the login guard (2), the
// pending-invites guard (3) and the route rules of the build manifest (4). One function, run by
// ./navigation.tsx before a navigation shows its page, so a redirect never wins over a refusal.
import type { QueryClient } from '@tanstack/react-query';
import { type Params, type RouteObject, matchPath, matchRoutes } from 'react-router';

import { paths, profileTabPath, publicPaths } from '@/config/paths';
import { myInvitesQueryOptions } from '@/features/teams/api/get-my-invites';
import { teamStore } from '@/features/teams/store';
import type { RouteRule } from '@/config/route-rules';
import { currentSession, getAuthState, hasAuthCookie, needsSecondFactor } from '@/lib/auth';
import { buildState, routeRules } from '@/lib/builds';
import { queryOrStale } from '@/lib/query-client';

import type { Guard } from './navigation';
import { PageNotFound } from './page-not-found';

/**
 * Guard 2, as a pure rule: where a visitor must go instead of `url`, or null to let them
 * through. Not logged in, only the public pages are open; any other page sends them to the
 * login page with the full original path (and query) to come back to.
 */
export function loginRedirect(url: URL, loggedIn: boolean): string | null {
  if (loggedIn || isPublic(url.pathname)) return null;
  const search = new URLSearchParams({ redirect: url.pathname + url.search });
  return `${paths.login}?${search}`;
}

/** `/login/` is `/login`: the router matches both, so the guard must too. */
function normalise(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

/**
 * A quote's customer page (`/q/{token}`): the shop's page for someone without an account, open to
 * everyone, and without the app's own prompts (the pending invites).
 */
function isQuoteLink(pathname: string): boolean {
  return matchPath(paths.quoteLink, pathname) !== null;
}

function isPublic(pathname: string): boolean {
  return publicPaths.has(normalise(pathname)) || isQuoteLink(pathname);
}

/**
 * The login guard: where `url` sends the visitor instead, or null. A visitor without the auth
 * cookie is out without loading the auth client. A session still waiting for its second-factor
 * code does not count as logged in: the login page asks for the code and then comes back.
 */
export async function loginGuard(url: URL): Promise<string | null> {
  if (isPublic(url.pathname)) return null;
  return loginRedirect(url, await isLoggedIn());
}

// ---- Guard 3: pending invites -------------------------------------------------------------

/**
 * Whose invites this tab has checked: once per session (docs/behaviour.md, "Navigation guards").
 * Kept in sessionStorage, so a reload does not send someone who put an invite off back to it each
 * time; a logout forgets it with the rest of the person's data (./forget-person.ts): the next
 * sign-in is a new session.
 */
const CHECKED_KEY = 'bobbin:invites-checked';
const invitesChecked = {
  read(): string[] {
    try {
      return JSON.parse(sessionStorage.getItem(CHECKED_KEY) ?? '[]') as string[];
    } catch {
      return [];
    }
  },
  has(userId: string): boolean {
    return this.read().includes(userId);
  },
  add(userId: string): void {
    try {
      sessionStorage.setItem(CHECKED_KEY, JSON.stringify([...this.read(), userId]));
    } catch {
      // Storage disabled: the guard then checks on every page load, which is harmless.
    }
  },
};

/**
 * Guard 3, for the signed-in `userId` (null: no session): once per session, and never under
 * /profile/invites (the accept link lives there), fetches the person's invites; with any, stores
 * them and answers where to go instead: /profile?tab=invites. Errors are ignored.
 */
export async function pendingInvitesRedirect(queryClient: QueryClient, url: URL, userId: string | null): Promise<string | null> {
  if (!userId || invitesChecked.has(userId) || url.pathname.startsWith(paths.profileInvites) || isQuoteLink(url.pathname)) return null;
  invitesChecked.add(userId);
  try {
    // A failed read uses the invites cached earlier, or the team store's (docs/behaviour.md, "Cache
    // lifetimes").
    const { myInvites } = teamStore.getState();
    const invites = await queryOrStale(queryClient, myInvitesQueryOptions(), myInvites.length > 0 ? myInvites : undefined);
    if (invites.length === 0) return null;
    teamStore.getState().setMyInvites(invites);
    return profileTabPath('invites');
  } catch {
    return null;
  }
}

/** For tests: the next session is checked again. */
export function resetPendingInvitesGuard(): void {
  try {
    sessionStorage.removeItem(CHECKED_KEY);
  } catch {
    // Nothing was kept either.
  }
}

/** The signed-in person's id, without loading the auth client for a visitor with no cookie. */
async function signedInUserId(): Promise<string | null> {
  const known = getAuthState();
  // Checked already: no need to ask the client (which a public page may not have loaded).
  if (known.status === 'signed-in' && invitesChecked.has(known.user.id)) return known.user.id;
  if (!hasAuthCookie() || !(await isLoggedIn())) return null;
  const state = getAuthState();
  return state.status === 'signed-in' ? state.user.id : null;
}

// ---- Guard 1: route validation ------------------------------------------------------------

/**
 * What a route may carry in its `handle`: whether its parameters are valid, and, for a route that
 * only leads elsewhere, where to (once the guards have let the address through).
 */
export interface RouteRules {
  validate?: (params: Params, search: URLSearchParams) => boolean;
  redirect?: () => Promise<string>;
}

/** The public id of a record (a thread, a machine, a quote): 16 letters and digits, as the server makes them. */
const PUBLIC_ID = /^[A-Za-z0-9]{16}$/;

/** A rule: the route's parameter `name` is a record's public id. */
export function publicIdParam(name: string): RouteRules {
  return { validate: (params) => PUBLIC_ID.test(params[name] ?? '') };
}

/** A rule: the query's `name`, where given, is a record's public id. */
export function publicIdQuery(name: string): RouteRules {
  return { validate: (_params, search) => !search.has(name) || PUBLIC_ID.test(search.get(name) ?? '') };
}

/** A file's id in the team's library (the storage service area's ids are UUIDs). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A rule: the route's parameter `name` is a library file's id. */
export function uuidParam(name: string): RouteRules {
  return { validate: (params) => UUID.test(params[name] ?? '') };
}

/** Rules that must all hold. */
export function allOf(...rules: RouteRules[]): RouteRules {
  return { validate: (params, search) => rules.every((rule) => !rule.validate || rule.validate(params, search)) };
}

/** A rule: the query's `name`, where given, is a library file's id. */
export function uuidQuery(name: string): RouteRules {
  return { validate: (_params, search) => !search.has(name) || UUID.test(search.get(name) ?? '') };
}

/**
 * Guard 1: the rules of the routes `url` matches in `routes`; a refusal is the fatal error
 * page's 404 with the message `Page Not Found: {fullPath}`.
 */
export function validateRoute(routes: RouteObject[], url: URL): void {
  for (const match of matchRoutes(routes, url.pathname) ?? []) {
    const rules = match.route.handle as RouteRules | undefined;
    if (rules?.validate && !rules.validate(match.params, url.searchParams)) {
      throw new PageNotFound(`Page Not Found: ${url.pathname}${url.search}`);
    }
  }
}

// ---- Guard 4: route rules from the build manifest ----------------------------------------

/**
 * Guard 4, as a pure rule: where `url` leads by the route `rules` (a path on this site with the
 * query kept, or an address elsewhere), or null.
 */
export function ruleRedirect(rules: Readonly<Record<string, RouteRule>>, url: URL): string | null {
  const rule = rules[normalise(url.pathname)];
  if (!rule) return null;
  const target = new URL(rule.redirect, url.origin);
  if (target.origin !== url.origin) return target.href;
  if (!target.search) target.search = url.search;
  return target.pathname + target.search;
}

// ---- All of them ------------------------------------------------------------------------------

/**
 * How the guards load a page in full (an object, so tests can watch it: jsdom cannot navigate): in
 * place of the address waiting for them, which the router has already put in the history, so Back
 * returns to the page before.
 */
export const pageLoad = {
  replace: (href: string): void => {
    window.location.replace(href);
  },
};

/** A full page load of `href`; the navigation is kept waiting meanwhile. */
function leaveFor(href: string): Promise<never> {
  pageLoad.replace(href);
  return new Promise<never>(() => {});
}

/** The guards 1 to 4, in order, over the app's routes; `queryClient` is the data cache they read through. */
export function navigationGuards(queryClient: QueryClient): Guard {
  return async (url, routes) => {
    // A new build is out (lib/builds.ts): this navigation is a full page load, which fetches it
    // (and runs the new build's guards).
    if (buildState.getState().newBuild) return leaveFor(url.href);
    // Its manifest is fetched at once, beside the other guards' work.
    const rules = routeRules(queryClient);
    validateRoute(routes, url);
    const login = await loginGuard(url);
    if (login) return { redirect: login };
    const invites = await pendingInvitesRedirect(queryClient, url, await signedInUserId());
    if (invites) return { redirect: invites };
    const target = ruleRedirect(await rules, url);
    if (target?.startsWith('/')) return { redirect: target };
    if (target) return leaveFor(target);
    // A route that only leads elsewhere (`/reset`).
    for (const match of matchRoutes(routes, url.pathname) ?? []) {
      const leads = (match.route.handle as RouteRules | undefined)?.redirect;
      if (leads) return { redirect: await leads() };
    }
    return null;
  };
}

/** Logged in: a session, at `aal2` if the account has an authenticator app. */
export async function isLoggedIn(): Promise<boolean> {
  // The state, not the session: offline, a session whose access token expired is still the
  // person's until the connection returns (lib/auth.ts, `stateOrKept`).
  await currentSession();
  return getAuthState().status === 'signed-in' && !(await needsSecondFactor());
}

/**
 * `/reset`, a public path: the new-password page for someone signed in (by a recovery link), else
 * the page that e-mails such a link.
 */
export async function resetRedirect(): Promise<string> {
  return (await isLoggedIn()) ? paths.authReset : paths.forgotPassword;
}
