// The app's door to the auth service (/auth/v1 on this server, Supabase-Auth-compatible). The
// official client (@supabase/ssr's browser client over @supabase/auth-js) keeps the session in
// the chunked `sb-bobbin-auth-token` cookie the server reads and refreshes it; nothing here
// handles tokens. This module only mirrors what the client reports (signed in as whom, or
// signed out) into a small store React reads, and passes the client's events on to the app.
//
// The client is large (with supabase-js; docs/benchmarks.md, "Front-end weight"), so it is its
// own chunk, loaded on first use. A visitor without the auth cookie is known to be logged out
// without loading it: the landing page and the sign-in screens' first paint never fetch it for
// them.
import type { AuthChangeEvent, Session, SupabaseClient } from '@supabase/supabase-js';
import { useSyncExternalStore } from 'react';

import { loadChunk } from './lazy-route';
import { appOffline, beforeGoingOnline, watchedFetch } from './offline/online';

/** The cookie (and its `.0`, `.1`, ... chunks) the server reads the session from. */
export const AUTH_COOKIE = 'sb-bobbin-auth-token';

/** Other tabs of this browser hear of sign-ins and sign-outs here (see `crossTab` below). */
const TAB_CHANNEL = 'bobbin:auth';

export interface SignedInUser {
  id: string;
  email: string | undefined;
}

export type AuthState =
  /** The cookie is there; the client is loading to say whose session it holds, if still valid. */
  { status: 'unknown' } | { status: 'signed-out' } | { status: 'signed-in'; user: SignedInUser };

/**
 * What the app hears: the client's events, plus `SIGNED_OUT` or `SYNCED` when another tab changed
 * the session (refresh the profile if a session exists, else log out: docs/behaviour.md, "The
 * session in the browser").
 */
export type AuthEvent = AuthChangeEvent | 'SYNCED';
export type AuthListener = (event: AuthEvent, state: AuthState) => void;

/** Whether the session cookie is there at all (cheap: no client needed). */
export function hasAuthCookie(cookies: string = document.cookie): boolean {
  return cookies
    .split(';')
    .map((entry) => entry.trim().split('=', 1)[0])
    .some((name) => name === AUTH_COOKIE || name === `${AUTH_COOKIE}.0`);
}

// ---- The store ---------------------------------------------------------------------------

let state: AuthState = initialState();
const stateListeners = new Set<() => void>();
const eventListeners = new Set<AuthListener>();

function initialState(): AuthState {
  return typeof document !== 'undefined' && hasAuthCookie() ? { status: 'unknown' } : { status: 'signed-out' };
}

function stateFrom(session: Session | null): AuthState {
  if (!session) return { status: 'signed-out' };
  return { status: 'signed-in', user: { id: session.user.id, email: session.user.email } };
}

/**
 * Who was signed in last on this browser (removed at sign-out with the app's other keys:
 * app/forget-person.ts). Offline, an expired access token cannot be refreshed and the client then
 * reports no session, though the session is still good: the person stays signed in as this user
 * until the connection returns and the refresh decides (docs/behaviour.md, "Offline").
 */
const LAST_USER_KEY = 'bobbin:signed-in-user';

function rememberUser(user: SignedInUser): void {
  try {
    localStorage.setItem(LAST_USER_KEY, JSON.stringify(user));
  } catch {
    // Storage disabled: offline, the person is then signed out as before.
  }
}

function lastUser(): SignedInUser | null {
  try {
    const kept: unknown = JSON.parse(localStorage.getItem(LAST_USER_KEY) ?? 'null');
    if (kept && typeof kept === 'object' && 'id' in kept && typeof kept.id === 'string') {
      const email = 'email' in kept && typeof kept.email === 'string' ? kept.email : undefined;
      return { id: kept.id, email };
    }
  } catch {
    // Nothing usable kept.
  }
  return null;
}

/**
 * The state for `session`, or, where the client found none only because the refresh could not
 * reach the server (offline), the last user's: the session cookie is still there to be refreshed.
 */
function stateOrKept(session: Session | null, unreachable: boolean): AuthState {
  if (session || !unreachable || !hasAuthCookie()) return stateFrom(session);
  const user = lastUser();
  return user ? { status: 'signed-in', user } : stateFrom(null);
}

/**
 * Offline with a session cookie: the last user's state, without asking the client. Its refresh of
 * an expired access token would first retry for up to 30 seconds (auth-js), and every page would
 * wait for it. Null when online, or with nobody to keep.
 */
function offlineState(): AuthState | null {
  if (!appOffline() || !hasAuthCookie()) return null;
  const user = lastUser();
  return user ? { status: 'signed-in', user } : null;
}

/** Whether the client's error says the server could not be reached (auth-js's retryable kind). */
function isUnreachable(error: unknown): boolean {
  return error instanceof Error && error.name === 'AuthRetryableFetchError';
}

function setState(next: AuthState) {
  if (next.status === 'signed-in') rememberUser(next.user);
  const sameUser = (a: AuthState, b: AuthState) =>
    a.status === 'signed-in' && b.status === 'signed-in' && a.user.id === b.user.id && a.user.email === b.user.email;
  if (next.status === state.status && (next.status !== 'signed-in' || sameUser(next, state))) return;
  state = next;
  for (const listener of stateListeners) listener();
}

function emit(event: AuthEvent) {
  for (const listener of eventListeners) listener(event, state);
}

export function getAuthState(): AuthState {
  return state;
}

function subscribeAuthState(listener: () => void): () => void {
  stateListeners.add(listener);
  return () => stateListeners.delete(listener);
}

/** Signed in as whom, signed out, or not known yet; re-renders when that changes. */
export function useAuthState(): AuthState {
  return useSyncExternalStore(subscribeAuthState, getAuthState);
}

/** Hears every auth event of this tab, and session changes made in other tabs. */
export function onAuthEvent(listener: AuthListener): () => void {
  eventListeners.add(listener);
  return () => eventListeners.delete(listener);
}

// ---- The client --------------------------------------------------------------------------

let client: Promise<SupabaseClient> | undefined;

/** The one auth client of this page, created on first use; its events feed the store. */
export function getAuthClient(): Promise<SupabaseClient> {
  // A chunk that fails is fetched again, then the page reloads once, as for route chunks
  // (docs/behaviour.md, "Page chunks"); a failure that is left is forgotten, so a later call
  // tries again.
  client ??= loadChunk(() => import('@supabase/ssr')).then(createClient, (error: unknown) => {
    client = undefined;
    throw error;
  });
  return client;
}

function createClient(ssr: typeof import('@supabase/ssr')): SupabaseClient {
  // The key is required by the client and holds no secret: the server has no gateway.
  const created = ssr.createBrowserClient(window.location.origin, 'bobbin', {
    // @supabase/ssr's defaults give the cookie docs/behaviour.md describes: 400 days, path /,
    // SameSite lax, chunks of about 3180 characters. Its default is not `Secure`, which would
    // let the browser send the session over plain http to the same host; a page served over
    // https marks it so (docs/deploy.md). Only there: over plain http (`make run`) a browser
    // may refuse a Secure cookie the page sets.
    cookieOptions: { name: AUTH_COOKIE, secure: window.location.protocol === 'https:' },
    // Its calls tell the connection too: a refresh that gets no answer makes the app offline.
    global: { fetch: watchedFetch },
    auth: {
      flowType: 'pkce',
      // /auth/callback exchanges the `?code=` itself, so no other page's query is ever taken
      // for a sign-in.
      detectSessionInUrl: false,
    },
  });
  created.auth.onAuthStateChange((event, session) => {
    // Runs inside the client's lock: no awaiting other client calls here (auth-js warns they
    // would deadlock), only the store and the listeners, which schedule their own work.
    // The initial session is missing also when its refresh could not reach the server: offline,
    // that keeps the last user (the cookie is still there); the reconnection decides.
    setState(event === 'INITIAL_SESSION' ? stateOrKept(session, appOffline()) : stateFrom(session));
    emit(event);
    if (event !== 'INITIAL_SESSION') crossTab.post();
  });
  return created;
}

/**
 * Whether someone is signed in, without loading the client when there is no cookie. With a
 * cookie, the client reads it (refreshing an expired access token) and tells; offline, the last
 * user stays signed in (null is answered, the state says who).
 */
export async function currentSession(): Promise<Session | null> {
  if (!hasAuthCookie()) {
    setState({ status: 'signed-out' });
    return null;
  }
  const offline = offlineState();
  if (offline) {
    setState(offline);
    return null;
  }
  const { auth } = await getAuthClient();
  const { data, error } = await auth.getSession();
  setState(stateOrKept(data.session, isUnreachable(error)));
  return data.session;
}

// Back online: the session is refreshed (if its access token expired meanwhile) before anything
// is sent, and a session ended elsewhere meanwhile signs the person out then (lib/offline/online.ts).
beforeGoingOnline(async () => {
  if (client && hasAuthCookie()) await currentSession();
});

/** Starts the client when a session cookie is there (at page load); else the visitor is out. */
export function startAuth(): void {
  if (hasAuthCookie()) {
    const offline = offlineState();
    if (offline) setState(offline);
    else if (state.status === 'signed-out') setState({ status: 'unknown' });
    void getAuthClient();
  } else {
    setState({ status: 'signed-out' });
  }
}

/**
 * Whether the session still has to reach `aal2` (the account has a verified authenticator app
 * and the session was made with the password alone). Read from the session: no request.
 */
export async function needsSecondFactor(): Promise<boolean> {
  // Offline, the API answers nothing anyway, and the client would wait for its refresh first.
  if (!hasAuthCookie() || offlineState()) return false;
  const { auth } = await getAuthClient();
  const { data } = await auth.mfa.getAuthenticatorAssuranceLevel();
  return data?.nextLevel === 'aal2' && data.currentLevel !== 'aal2';
}

/**
 * Reads the session's user again from the server (a token refresh), so that a factor added on
 * another device since this session began counts in `needsSecondFactor`.
 */
export async function reloadSessionUser(): Promise<void> {
  if (!hasAuthCookie()) return;
  const { auth } = await getAuthClient();
  await auth.refreshSession();
}

/**
 * Signing out without a connection. The auth client would first tell the server, and gives up
 * when it cannot, leaving the person signed in at a shared machine; so the session ends on this
 * device: its cookie goes, and the app logs out as after any sign-out (docs/behaviour.md,
 * "Offline"). The server's session is not revoked: unused, it ends with its lifetime, and nobody at
 * this browser holds its tokens any more.
 */
export function signOutOnThisDevice(): void {
  const secure = window.location.protocol === 'https:' ? '; secure' : '';
  const names = document.cookie.split(';').map((entry) => entry.trim().split('=', 1)[0] ?? '');
  for (const name of names.filter((name) => name.startsWith(AUTH_COOKIE))) {
    document.cookie = `${name}=; max-age=0; path=/${secure}`;
  }
  setState({ status: 'signed-out' });
  emit('SIGNED_OUT');
  crossTab.post();
}

// ---- Other tabs --------------------------------------------------------------------------

/**
 * The session lives in a cookie, so another tab's sign-in or sign-out fires no `storage`
 * event. auth-js tells its own instances in other tabs over a BroadcastChannel, but a tab that
 * never loaded the client (a logged-out visitor) would not hear. So every auth event of a tab
 * (except the initial one, which changes nothing) is announced here too, and a tab hearing it
 * reads the cookie again: signed out if it is gone, else the client re-reads the session.
 * Two tabs with the client may announce each other's events once; re-reading is idempotent.
 */
const crossTab = (() => {
  const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(TAB_CHANNEL);
  channel?.addEventListener('message', () => {
    void syncFromOtherTab();
  });
  return { post: () => channel?.postMessage('changed') };
})();

/** Another tab changed the session: follow it. Exported for tests. */
export async function syncFromOtherTab(): Promise<void> {
  const before = state.status;
  if (hasAuthCookie()) await currentSession();
  else setState({ status: 'signed-out' });
  if (state.status === 'signed-in') emit('SYNCED');
  else if (before !== 'signed-out') emit('SIGNED_OUT');
}

// ---- Helpers for the screens -------------------------------------------------------------

/** The auth service's message, else the screen's fallback (docs/behaviour.md, "Toasts and messages"). */
export function authErrorMessage(error: unknown, fallback: string): string {
  if (error && typeof error === 'object' && 'message' in error) {
    const { message } = error;
    if (typeof message === 'string' && message.trim() !== '' && message !== '{}') return message;
  }
  return fallback;
}

/** The auth service's error code (`insufficient_aal`, `weak_password`, ...), if any. */
export function authErrorCode(error: unknown): string | undefined {
  if (error && typeof error === 'object' && 'code' in error) {
    const { code } = error;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

const WEAK_PASSWORD_ADVICE: Record<string, string> = {
  length: 'use at least 8 characters',
  characters: 'mix lower-case and upper-case letters, digits and symbols',
  pwned: 'choose a password that is not on lists of common passwords',
};

/**
 * The message for a failed sign-up or password change: the service's, with what to change
 * when it refused a weak password (its `reasons`: length, characters, pwned).
 */
export function passwordErrorMessage(error: unknown, fallback: string): string {
  const message = authErrorMessage(error, fallback);
  const reasons = error && typeof error === 'object' && 'reasons' in error && Array.isArray(error.reasons) ? error.reasons : [];
  if (reasons.length === 0) return message;
  const advice = reasons.map((reason) => WEAK_PASSWORD_ADVICE[String(reason)] ?? String(reason)).join('; ');
  return `${message.replace(/\.$/, '')}: ${advice}.`;
}

/**
 * A path to go to after signing in, from a query value: only a path on this site (one leading
 * `/`, not `//` or `/\`, which browsers treat as another host), else `fallback`.
 */
export function safeRedirect(target: string | null | undefined, fallback = '/'): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback;
  // Control characters (a tab or newline inside `/\t/evil.example`) are dropped by URL parsers,
  // which would turn the path into `//evil.example`.
  if (hasControlCharacter(target)) return fallback;
  return target;
}

/** Whether `text` holds an ASCII control character (U+0000 to U+001F, or U+007F). */
function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** Where e-mailed links and OAuth come back to: the callback page, then on to `next`. */
export function callbackUrl(next: string): string {
  return `${window.location.origin}/auth/callback?next=${encodeURIComponent(safeRedirect(next))}`;
}

/** For tests: forget the client and return the store to its first state. */
export function resetAuthForTests(): void {
  client = undefined;
  state = initialState();
  stateListeners.clear();
  eventListeners.clear();
}
