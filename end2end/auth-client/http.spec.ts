import { AuthApiError } from '@supabase/auth-js';

import { expect, signUpConfirmed, test, uniqueEmail } from './support';

// What the client reads from the wire beyond the JSON: the API version header (auth-js takes
// the error code from `code` only when the answer declares 2024-01-01 or later), and CORS, which
// a browser client on another origin needs before it may send a single request.

const OTHER_ORIGIN = 'https://shop.elsewhere.example';

test('answers, successful or not, declare API version 2024-01-01, and errors carry code, error_code, message and msg', async ({ site }) => {
  const settings = await fetch(`${site}/auth/v1/settings`, { headers: { apikey: 'anything' } });
  expect(settings.status).toBe(200);
  expect(settings.headers.get('x-supabase-api-version')).toBe('2024-01-01');
  expect(await settings.json()).toMatchObject({ external: { email: true }, mailer_autoconfirm: false });

  const refused = await fetch(`${site}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: 'anything', 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' },
    body: JSON.stringify({ email: uniqueEmail('nobody'), password: 'not-the-password' }),
  });
  expect(refused.status).toBe(400);
  expect(refused.headers.get('x-supabase-api-version')).toBe('2024-01-01');
  expect(refused.headers.get('content-type')).toContain('application/json');
  expect(await refused.json()).toEqual({
    code: 'invalid_credentials',
    error_code: 'invalid_credentials',
    message: 'Invalid login credentials',
    msg: 'Invalid login credentials',
  });

  const unauthenticated = await fetch(`${site}/auth/v1/user`, { headers: { apikey: 'anything' } });
  expect(unauthenticated.status).toBe(401);
  expect(unauthenticated.headers.get('x-supabase-api-version')).toBe('2024-01-01');
  expect(await unauthenticated.json()).toMatchObject({ code: 'no_authorization' });
});

test('a browser on another origin may send every header the client sends, and read the version header', async ({
  newClient,
  mailbox,
  site,
}) => {
  // Record what the client really sends over a whole session's worth of calls.
  const client = newClient();
  await signUpConfirmed(client, mailbox, site);
  expect((await client.auth.getUser()).error).toBeNull();
  expect((await client.auth.updateUser({ data: { shop: 'Loom & Co' } })).error).toBeNull();
  const enrolled = await client.auth.mfa.enroll({ factorType: 'totp' });
  expect((await client.auth.mfa.unenroll({ factorId: enrolled.data?.id ?? '' })).error).toBeNull();
  expect((await client.auth.signOut()).error).toBeNull();
  const sent = new Map<string, Set<string>>();
  for (const request of client.requests) {
    const names = sent.get(request.method) ?? new Set<string>();
    request.headers.forEach((_, name) => names.add(name.toLowerCase()));
    sent.set(request.method, names);
  }
  expect([...sent.keys()].sort()).toEqual(['DELETE', 'GET', 'POST', 'PUT']);
  expect([...(sent.get('PUT') ?? [])]).toEqual(expect.arrayContaining(['apikey', 'authorization', 'content-type']));

  for (const [method, names] of sent) {
    // supabase-js and @supabase/ssr's browser client add X-Client-Info to what auth-js sends.
    const requested = [...names, 'x-client-info'].join(', ');
    const preflight = await fetch(`${site}/auth/v1/user`, {
      method: 'OPTIONS',
      headers: {
        origin: OTHER_ORIGIN,
        'access-control-request-method': method,
        'access-control-request-headers': requested,
      },
    });
    expect(preflight.status, `preflight of ${method} with ${requested}`).toBeLessThan(300);
    expect(['*', OTHER_ORIGIN]).toContain(preflight.headers.get('access-control-allow-origin'));
    const methods = (preflight.headers.get('access-control-allow-methods') ?? '').toUpperCase();
    expect(methods === '*' || methods.split(/\s*,\s*/).includes(method), `${method} in ${methods}`).toBe(true);
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
    for (const name of requested.split(', ')) {
      expect(allowed.includes('*') || allowed.includes(name), `${name} in ${allowed.join(',')}`).toBe(true);
    }
  }

  const answer = await fetch(`${site}/auth/v1/settings`, { headers: { origin: OTHER_ORIGIN, apikey: 'anything' } });
  expect(['*', OTHER_ORIGIN]).toContain(answer.headers.get('access-control-allow-origin'));
  const exposed = (answer.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/\s*,\s*/);
  expect(exposed).toContain('x-supabase-api-version');
});

test('sign-in methods the service does not offer answer clear errors through the client', async ({ newClient }) => {
  const client = newClient();

  const idToken = await client.auth.signInWithIdToken({ provider: 'google', token: 'header.payload.signature' });
  expect(idToken.error).toBeInstanceOf(AuthApiError);
  expect(idToken.error).toMatchObject({ status: 400, code: 'provider_disabled' });

  const sso = await client.auth.signInWithSSO({ domain: 'example.com' });
  expect(sso.error).toBeInstanceOf(AuthApiError);
  // Supabase Auth's own answer when SAML is off.
  expect(sso.error).toMatchObject({ status: 404, code: 'saml_provider_disabled' });

  const phone = await client.auth.signUp({ phone: '+15555550100', password: 'a-long-enough-passphrase' });
  expect(phone.error).toBeInstanceOf(AuthApiError);
  expect(phone.error).toMatchObject({ status: 400, code: 'phone_provider_disabled' });
});
