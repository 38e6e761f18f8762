// A stand-in for the official auth client in unit tests, which have no server. Tests mock
// @supabase/ssr with it:
//
//   vi.mock('@supabase/ssr', async () => (await import('@/test/fake-auth')).fakeSsrModule);
//
// and steer it through `fakeAuth` (the session it holds, the answers of its calls, its events).
// The browser tests (end2end/) drive the real client against the real server.
import type { AuthChangeEvent, Session } from '@supabase/supabase-js';
import { vi } from 'vitest';

import { AUTH_COOKIE, resetAuthForTests } from '@/lib/auth';

type Listener = (event: AuthChangeEvent, session: Session | null) => void;

export function fakeSession({
  id = 'user-1',
  email = 'ada@example.com',
  factors = [] as { id: string; status: 'verified' | 'unverified' }[],
} = {}): Session {
  return {
    access_token: 'access',
    refresh_token: 'refresh',
    expires_in: 3600,
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    token_type: 'bearer',
    user: {
      id,
      email,
      aud: 'authenticated',
      app_metadata: {},
      user_metadata: {},
      created_at: '2026-11-01T10:00:00Z',
      factors: factors.map((factor) => ({
        ...factor,
        factor_type: 'totp' as const,
        friendly_name: '',
        created_at: '2026-11-01T10:00:00Z',
        updated_at: '2026-11-01T10:00:00Z',
      })),
    },
  };
}

const ok = <T>(data: T) => ({ data, error: null });

/** What most calls answer; tests make them fail with `{ data: null, error }`. */
type Answer = { data: unknown; error: unknown };

interface FakeState {
  session: Session | null;
  aal: { currentLevel: string | null; nextLevel: string | null };
  listeners: Set<Listener>;
}

function createAuth(state: FakeState) {
  return {
    onAuthStateChange: vi.fn((listener: Listener) => {
      state.listeners.add(listener);
      // auth-js announces the session it starts with, once it has read it.
      queueMicrotask(() => listener('INITIAL_SESSION', state.session));
      const unsubscribe = () => state.listeners.delete(listener);
      return { data: { subscription: { id: 'x', callback: listener, unsubscribe } } };
    }),
    getSession: vi.fn(async () => ok({ session: state.session })),
    refreshSession: vi.fn(async () => ok({ session: state.session, user: state.session?.user ?? null })),
    signInWithPassword: vi.fn(async (_credentials: { email: string; password: string }) =>
      ok({ session: state.session, user: state.session?.user ?? null }),
    ),
    signInWithOAuth: vi.fn(async (_request: unknown) => ok({ provider: 'github', url: 'https://example.com' })),
    signUp: vi.fn(async (_request: unknown): Promise<Answer> => ok({ session: null, user: null })),
    signOut: vi.fn(async (_options?: { scope?: string }): Promise<{ error: unknown }> => ({ error: null })),
    updateUser: vi.fn(async (_attributes: unknown): Promise<Answer> => ok({ user: state.session?.user ?? null })),
    resetPasswordForEmail: vi.fn(async (_email: string, _options?: unknown): Promise<Answer> => ok({})),
    exchangeCodeForSession: vi.fn(async (_code: string): Promise<Answer> => ok({ session: state.session })),
    verifyOtp: vi.fn(async (_params: { email: string; token: string; type: string }): Promise<Answer> =>
      ok({ session: state.session, user: state.session?.user ?? null }),
    ),
    mfa: {
      getAuthenticatorAssuranceLevel: vi.fn(async () => ok({ ...state.aal, currentAuthenticationMethods: [] })),
      listFactors: vi.fn(async () => {
        const all = state.session?.user.factors ?? [];
        return ok({ all, totp: all.filter((factor) => factor.status === 'verified'), phone: [] });
      }),
      challengeAndVerify: vi.fn(async (_params: { factorId: string; code: string }): Promise<Answer> => ok({})),
      enroll: vi.fn(async (_params: unknown): Promise<Answer> =>
        ok({
          id: 'factor-new',
          type: 'totp',
          friendly_name: '',
          totp: {
            qr_code: `data:image/svg+xml;utf-8,<svg xmlns="http://www.w3.org/2000/svg"><rect fill="#000"/></svg>`,
            secret: 'JBSWY3DPEHPK3PXP',
            uri: 'otpauth://totp/x',
          },
        }),
      ),
      unenroll: vi.fn(async (_params: { factorId: string }): Promise<Answer> => ok({})),
    },
  };
}

function createFake() {
  const state: FakeState = {
    session: null,
    aal: { currentLevel: 'aal1', nextLevel: 'aal1' },
    listeners: new Set(),
  };
  return Object.assign(state, {
    /** How many clients the app created (it should create at most one, and none when logged out). */
    created: 0,
    /** The client emitting `event`, as auth-js does (with the session it now holds). */
    emit(event: AuthChangeEvent, session: Session | null = state.session) {
      state.session = session;
      for (const listener of state.listeners) listener(event, session);
    },
    auth: createAuth(state),
  });
}

export let fakeAuth = createFake();

/** What `vi.mock('@supabase/ssr', ...)` should answer. */
export const fakeSsrModule = {
  createBrowserClient: () => {
    fakeAuth.created += 1;
    return { auth: fakeAuth.auth };
  },
};

/** The browser holding a session cookie (or not): what the app checks before loading the client. */
export function setAuthCookie(present: boolean): void {
  document.cookie = present ? `${AUTH_COOKIE}=base64-e30; path=/` : `${AUTH_COOKIE}=; max-age=0; path=/`;
}

/** A signed-in visitor: the cookie, and a client holding `session`. */
export function signIn(session: Session = fakeSession()): Session {
  setAuthCookie(true);
  fakeAuth.session = session;
  return session;
}

/** A fresh fake and app auth state; call in beforeEach. */
export function resetFakeAuth(): void {
  fakeAuth = createFake();
  setAuthCookie(false);
  resetAuthForTests();
}
