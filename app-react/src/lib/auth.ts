// The app's door to the auth service (/auth/v1 on this server, Supabase-Auth-compatible). The
// official client (@supabase/ssr's browser client over @supabase/auth-js) keeps the session in
// the chunked `sb-bobbin-auth-token` cookie the server reads; nothing here handles tokens.
//
// The client is large (about 66 KB gzipped with supabase-js), so it is its own chunk, loaded on
// first use. A visitor without the auth cookie is known to be logged out without loading it.
import type { SupabaseClient } from '@supabase/supabase-js';

/** The cookie (and its `.0`, `.1`, ... chunks) the server reads the session from. */
export const AUTH_COOKIE = 'sb-bobbin-auth-token';

let client: Promise<SupabaseClient> | undefined;

/** The one auth client of this page, created on first use. */
export function getAuthClient(): Promise<SupabaseClient> {
  client ??= import('@supabase/ssr').then(({ createBrowserClient }) =>
    // The key is required by the client and holds no secret: the server has no gateway.
    createBrowserClient(window.location.origin, 'bobbin', {
      cookieOptions: { name: AUTH_COOKIE },
      auth: { flowType: 'pkce' },
    }),
  );
  return client;
}

/** Whether the session cookie is there at all (cheap: no client needed). */
export function hasAuthCookie(cookies: string = document.cookie): boolean {
  return cookies
    .split(';')
    .map((entry) => entry.trim().split('=', 1)[0])
    .some((name) => name === AUTH_COOKIE || name === `${AUTH_COOKIE}.0`);
}

/** Spec, section 8: the auth service's message, else the screen's fallback. */
export function authErrorMessage(error: unknown, fallback: string): string {
  if (error && typeof error === 'object' && 'message' in error) {
    const message = (error as { message: unknown }).message;
    if (typeof message === 'string' && message.trim() !== '' && message !== '{}') return message;
  }
  return fallback;
}

/**
 * A path to go to after signing in, from a query value: only a path on this site (one leading
 * `/`, not `//` or `/\`, which browsers treat as another host), else `fallback`.
 */
export function safeRedirect(target: string | null | undefined, fallback = '/'): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback;
  return target;
}

/** Where e-mailed links and OAuth come back to: the callback page, then on to `next`. */
export function callbackUrl(next: string): string {
  return `${window.location.origin}/auth/callback?next=${encodeURIComponent(safeRedirect(next))}`;
}
