import { waitFor } from '@testing-library/react';

import { fakeAuth, fakeSession, resetFakeAuth, setAuthCookie, signIn } from '@/test/fake-auth';

import {
  AUTH_COOKIE,
  type AuthEvent,
  authErrorMessage,
  currentSession,
  getAuthState,
  hasAuthCookie,
  onAuthEvent,
  passwordErrorMessage,
  safeRedirect,
  signOutOnThisDevice,
  startAuth,
  syncFromOtherTab,
} from './auth';

vi.mock('@supabase/ssr', async () => (await import('@/test/fake-auth')).fakeSsrModule);

beforeEach(resetFakeAuth);

describe('hasAuthCookie', () => {
  it('sees the whole cookie or its first chunk', () => {
    expect(hasAuthCookie(`theme=dark; ${AUTH_COOKIE}=base64-eyJ`)).toBe(true);
    expect(hasAuthCookie(`${AUTH_COOKIE}.0=base64-eyJ; ${AUTH_COOKIE}.1=abc`)).toBe(true);
  });

  it('is not fooled by other cookies', () => {
    expect(hasAuthCookie('')).toBe(false);
    expect(hasAuthCookie(`x${AUTH_COOKIE}=1; ${AUTH_COOKIE}-code-verifier=abc`)).toBe(false);
  });
});

describe('authErrorMessage', () => {
  it("shows the auth service's message", () => {
    expect(authErrorMessage({ message: 'Invalid login credentials' }, 'Login failed')).toBe('Invalid login credentials');
  });

  it('falls back when there is no usable message', () => {
    for (const error of [undefined, null, 'boom', {}, { message: '' }, { message: '{}' }, { message: 42 }]) {
      expect(authErrorMessage(error, 'Registration failed')).toBe('Registration failed');
    }
  });

  it.each(['Login failed', 'Registration failed', 'OAuth failed', 'Reset failed', 'Password update failed', 'Sign out failed'])(
    "falls back to '%s'",
    (fallback) => {
      expect(authErrorMessage(new Error(''), fallback)).toBe(fallback);
    },
  );
});

describe('passwordErrorMessage', () => {
  it('says what to change about a weak password', () => {
    const error = { message: 'Password is known to be weak and easy to guess.', reasons: ['length', 'pwned'] };
    expect(passwordErrorMessage(error, 'Registration failed')).toBe(
      'Password is known to be weak and easy to guess: use at least 8 characters; ' +
        'choose a password that is not on lists of common passwords.',
    );
  });

  it('is the plain message, or the fallback, otherwise', () => {
    expect(passwordErrorMessage({ message: 'Signups not allowed' }, 'Registration failed')).toBe('Signups not allowed');
    expect(passwordErrorMessage(null, 'Password update failed')).toBe('Password update failed');
  });
});

describe('safeRedirect', () => {
  it('keeps paths on this site, with their query', () => {
    expect(safeRedirect('/profile?tab=security')).toBe('/profile?tab=security');
  });

  it('refuses other hosts and odd values', () => {
    for (const target of [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      'javascript:alert(1)',
      'profile',
      '',
      null,
      undefined,
    ]) {
      expect(safeRedirect(target)).toBe('/');
    }
    expect(safeRedirect('//evil.example', '/dashboard')).toBe('/dashboard');
  });
});

describe('the session store', () => {
  it('knows a visitor without the cookie is logged out, without loading the client', async () => {
    startAuth();
    expect(getAuthState()).toEqual({ status: 'signed-out' });
    expect(await currentSession()).toBeNull();
    expect(fakeAuth.created).toBe(0);
  });

  it("follows the client's events once the cookie is there", async () => {
    signIn(fakeSession({ id: 'u1', email: 'ada@example.com' }));
    const events: AuthEvent[] = [];
    onAuthEvent((event) => events.push(event));
    startAuth();
    expect(getAuthState()).toEqual({ status: 'unknown' });
    await waitFor(() => expect(events).toEqual(['INITIAL_SESSION']));
    expect(getAuthState()).toEqual({ status: 'signed-in', user: { id: 'u1', email: 'ada@example.com' } });

    fakeAuth.emit('SIGNED_OUT', null);
    expect(getAuthState()).toEqual({ status: 'signed-out' });
    expect(events).toEqual(['INITIAL_SESSION', 'SIGNED_OUT']);
    expect(fakeAuth.created).toBe(1);
  });

  it("logs out when another tab removed the cookie, and follows another tab's sign-in", async () => {
    signIn();
    startAuth();
    await waitFor(() => expect(getAuthState().status).toBe('signed-in'));
    const events: AuthEvent[] = [];
    onAuthEvent((event) => events.push(event));

    setAuthCookie(false);
    await syncFromOtherTab();
    expect(getAuthState()).toEqual({ status: 'signed-out' });
    expect(events).toEqual(['SIGNED_OUT']);

    signIn(fakeSession({ id: 'u2' }));
    await syncFromOtherTab();
    expect(getAuthState()).toMatchObject({ status: 'signed-in', user: { id: 'u2' } });
    expect(events).toEqual(['SIGNED_OUT', 'SYNCED']);
  });

  it('says nothing when another tab changed nothing for a logged-out tab', async () => {
    const events: AuthEvent[] = [];
    onAuthEvent((event) => events.push(event));
    await syncFromOtherTab();
    expect(events).toEqual([]);
    expect(fakeAuth.created).toBe(0);
  });
});

// The issue: "Sessions survive a dropped connection. A failed token refresh while offline does not
// sign the person out; it retries when the connection returns."
describe('a session offline', () => {
  const offline = (value: boolean) => vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(!value);
  afterEach(() => {
    vi.restoreAllMocks();
    localStorage.clear();
  });

  it('keeps the last person signed in when the refresh of an expired token cannot reach the server', async () => {
    signIn(fakeSession({ id: 'user-7', email: 'ada@example.com' }));
    await currentSession();
    expect(getAuthState()).toEqual({ status: 'signed-in', user: { id: 'user-7', email: 'ada@example.com' } });

    // The access token expired while the connection was down: auth-js answers no session, with
    // its retryable error, and keeps the session in the cookie.
    const unreachable = Object.assign(new Error('Failed to fetch'), { name: 'AuthRetryableFetchError' });
    fakeAuth.auth.getSession.mockResolvedValueOnce({ data: { session: null }, error: unreachable } as never);
    await currentSession();
    expect(getAuthState()).toEqual({ status: 'signed-in', user: { id: 'user-7', email: 'ada@example.com' } });

    // A refresh the server refused (the session was revoked) signs out, as before.
    fakeAuth.auth.getSession.mockResolvedValueOnce({ data: { session: null }, error: new Error('Invalid Refresh Token') } as never);
    await currentSession();
    expect(getAuthState()).toEqual({ status: 'signed-out' });
  });

  it('offline, answers from the last person without waiting for the client, and asks it again when back online', async () => {
    signIn(fakeSession({ id: 'user-8', email: 'bea@example.com' }));
    await currentSession();
    fakeAuth.auth.getSession.mockClear();

    const connection = offline(true);
    fakeAuth.session = null;
    await currentSession();
    expect(fakeAuth.auth.getSession).not.toHaveBeenCalled();
    expect(getAuthState()).toEqual({ status: 'signed-in', user: { id: 'user-8', email: 'bea@example.com' } });

    connection.mockReturnValue(true);
    await currentSession();
    expect(fakeAuth.auth.getSession).toHaveBeenCalledTimes(1);
    expect(getAuthState()).toEqual({ status: 'signed-out' });
  });
});

describe('signing out offline', () => {
  it('forgets the session on this device, and logs the app out as any sign-out does', async () => {
    signIn(fakeSession({ id: 'user-9' }));
    document.cookie = `${AUTH_COOKIE}.1=more; path=/`;
    await currentSession();
    const events: AuthEvent[] = [];
    const stop = onAuthEvent((event) => events.push(event));
    signOutOnThisDevice();
    stop();
    expect(hasAuthCookie()).toBe(false);
    expect(document.cookie).not.toContain(AUTH_COOKIE);
    expect(getAuthState()).toEqual({ status: 'signed-out' });
    expect(events).toEqual(['SIGNED_OUT']);
    // The server was not asked: it cannot be reached.
    expect(fakeAuth.auth.signOut).not.toHaveBeenCalled();
  });
});
