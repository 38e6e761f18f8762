import { describe, expect, it } from 'vitest';

import { AUTH_COOKIE, authErrorMessage, hasAuthCookie, safeRedirect } from './auth';

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

describe('authErrorMessage (spec, section 8)', () => {
  it("shows the auth service's message", () => {
    expect(authErrorMessage({ message: 'Invalid login credentials' }, 'Login failed')).toBe(
      'Invalid login credentials',
    );
  });

  it('falls back when there is no usable message', () => {
    for (const error of [undefined, null, 'boom', {}, { message: '' }, { message: '{}' }, { message: 42 }]) {
      expect(authErrorMessage(error, 'Registration failed')).toBe('Registration failed');
    }
  });
});

describe('safeRedirect', () => {
  it('keeps paths on this site, with their query', () => {
    expect(safeRedirect('/profile?tab=security')).toBe('/profile?tab=security');
  });

  it('refuses other hosts and odd values', () => {
    for (const target of ['https://evil.example/', '//evil.example', '/\\evil.example', 'profile', '', null, undefined]) {
      expect(safeRedirect(target)).toBe('/');
    }
    expect(safeRedirect('//evil.example', '/dashboard')).toBe('/dashboard');
  });
});
