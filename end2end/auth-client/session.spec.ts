import { AuthApiError, AuthInvalidJwtError, AuthSessionMissingError, AuthWeakPasswordError } from '@supabase/auth-js';

import { expect, signUpConfirmed, sleep, strongPassword, test, uniqueEmail } from './support';

test('signInWithPassword gives a session; a wrong password or an unknown address gives invalid_credentials', async ({
  newClient,
  mailbox,
  site,
}) => {
  const { email, password } = await signUpConfirmed(newClient(), mailbox, site, { fullName: 'Ada Lovelace' });
  const client = newClient();

  const { data, error } = await client.auth.signInWithPassword({ email, password });

  expect(error).toBeNull();
  expect(data.session).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
  expect(data.session?.expires_at).toBeGreaterThan(Date.now() / 1000);
  expect(data.user).toMatchObject({ email, role: 'authenticated', user_metadata: { full_name: 'Ada Lovelace' } });
  expect(data.user?.last_sign_in_at).toBeTruthy();
  expect((await client.auth.getSession()).data.session?.refresh_token).toBe(data.session?.refresh_token);

  for (const attempt of [
    { email, password: `${password}-wrong` },
    { email: uniqueEmail('nobody'), password },
  ]) {
    const refused = await newClient().auth.signInWithPassword(attempt);
    expect(refused.error).toBeInstanceOf(AuthApiError);
    expect(refused.error).toMatchObject({ status: 400, code: 'invalid_credentials', message: 'Invalid login credentials' });
    expect(refused.data).toEqual({ user: null, session: null });
  }
});

test('getUser answers the signed-in user, and getClaims verifies the ES256 access token with the JWKS', async ({
  newClient,
  mailbox,
  site,
}) => {
  const client = newClient();
  const { email, session } = await signUpConfirmed(client, mailbox, site, { fullName: 'Ada Lovelace' });

  const user = await client.auth.getUser();
  expect(user.error).toBeNull();
  expect(user.data.user).toMatchObject({ id: session.user.id, email, user_metadata: { full_name: 'Ada Lovelace' } });

  client.requests.length = 0;
  const { data, error } = await client.auth.getClaims();
  expect(error).toBeNull();
  expect(data?.header).toMatchObject({ alg: 'ES256', typ: 'JWT', kid: expect.any(String) });
  expect(data?.claims).toMatchObject({
    sub: session.user.id,
    aud: 'authenticated',
    role: 'authenticated',
    email,
    iss: `${site}/auth/v1`,
    aal: 'aal1',
    session_id: expect.any(String),
    user_metadata: { full_name: 'Ada Lovelace' },
    app_metadata: { provider: 'email' },
    is_anonymous: false,
  });
  expect(data?.claims.amr).toEqual([{ method: 'email/signup', timestamp: expect.any(Number) }]);
  // Verified locally with the published key (fetched, or cached by an earlier client in this
  // process: auth-js caches key sets per storage key), not by asking the service about the user.
  const asked = client.requests.map((request) => `${request.method} ${request.url.pathname}`);
  expect(asked.filter((request) => request !== 'GET /auth/v1/.well-known/jwks.json')).toEqual([]);
  const jwks = (await (await fetch(`${site}/auth/v1/.well-known/jwks.json`)).json()) as { keys: object[] };
  expect(jwks.keys).toContainEqual(expect.objectContaining({ kid: data?.header.kid, kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' }));
  expect(JSON.stringify(jwks)).not.toMatch(/"d"\s*:/);

  // A token whose signature does not match is refused.
  const [header, payload] = session.access_token.split('.');
  const forged = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  forged.role = 'service_role';
  const tampered = `${header}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${session.access_token.split('.')[2]}`;
  const refused = await client.auth.getClaims(tampered);
  expect(refused.error).toBeInstanceOf(AuthInvalidJwtError);
  expect(refused.data).toBeNull();
  // And the service refuses it as well.
  const refusedByService = await client.auth.getUser(tampered);
  expect(refusedByService.error).toBeInstanceOf(AuthApiError);
  expect(refusedByService.error).toMatchObject({ status: 403, code: 'bad_jwt' });
});

test('refreshSession rotates the refresh token; the old one works a moment for a concurrent tab', async ({ newClient, mailbox, site }) => {
  const { email, password } = await signUpConfirmed(newClient(), mailbox, site);
  const client = newClient();
  const first = (await client.auth.signInWithPassword({ email, password })).data.session;
  expect(first).not.toBeNull();

  const events: string[] = [];
  client.auth.onAuthStateChange((event) => events.push(event));
  const { data, error } = await client.auth.refreshSession();

  expect(error).toBeNull();
  expect(data.session?.refresh_token).toBeTruthy();
  expect(data.session?.refresh_token).not.toBe(first?.refresh_token);
  // (The access token may be the same: same claims in the same second, deterministic ES256.)
  expect(data.user?.email).toBe(email);
  expect(events).toContain('TOKEN_REFRESHED');
  expect((await client.auth.getSession()).data.session?.refresh_token).toBe(data.session?.refresh_token);
  const claims = (await client.auth.getClaims()).data?.claims;
  expect(claims?.session_id).toBeTruthy();
  expect(claims?.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }]);

  // Another tab that refreshes with the same token a moment later is served in the same session
  // (Bobbin mints it a sibling token; Supabase Auth answers the active child: either works).
  const tab = newClient();
  const sibling = await tab.auth.refreshSession({ refresh_token: first?.refresh_token ?? '' });
  expect(sibling.error).toBeNull();
  expect(sibling.data.session?.refresh_token).not.toBe(first?.refresh_token);
  expect((await tab.auth.getClaims()).data?.claims.session_id).toBe(claims?.session_id);

  // The rotated token keeps working for the client that holds it.
  expect((await client.auth.refreshSession()).error).toBeNull();

  // An unknown token is refused.
  const unknown = await newClient().auth.refreshSession({ refresh_token: 'not-a-refresh-token' });
  expect(unknown.error).toBeInstanceOf(AuthApiError);
  expect(unknown.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
});

test('a refresh token used again after the reuse interval ends its whole session', async ({ newClient, mailbox, site }) => {
  // The service lets a rotated token be reused for 10 seconds (REUSE_INTERVAL in
  // crates/server/src/auth/session.rs); the only way to pass it from outside is to wait.
  test.setTimeout(40_000);
  const { email, password } = await signUpConfirmed(newClient(), mailbox, site);
  const client = newClient();
  const first = (await client.auth.signInWithPassword({ email, password })).data.session;
  // Rotated twice: Supabase Auth hands the active token to whoever presents its parent (a
  // client that lost the answer to its refresh), so reuse is detected from the grandparent on.
  expect((await client.auth.refreshSession()).error).toBeNull();
  const rotated = await client.auth.refreshSession();
  expect(rotated.error).toBeNull();

  await sleep(11_000);
  const thief = newClient();
  const stolen = await thief.auth.refreshSession({ refresh_token: first?.refresh_token ?? '' });

  expect(stolen.error).toBeInstanceOf(AuthApiError);
  expect(stolen.error).toMatchObject({ status: 400, code: 'refresh_token_already_used' });
  expect(stolen.data.session).toBeNull();
  // The session is over for its rightful holder too: its access token and its refresh token.
  const user = await client.auth.getUser();
  expect(user.error).toBeInstanceOf(AuthSessionMissingError);
  const raw = await fetch(`${site}/auth/v1/token?grant_type=refresh_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', apikey: 'anything' },
    body: JSON.stringify({ refresh_token: rotated.data.session?.refresh_token }),
  });
  expect(raw.status).toBe(400);
  expect(await raw.json()).toMatchObject({ code: 'refresh_token_not_found' });
});

test('updateUser merges user metadata, and changes the password', async ({ newClient, mailbox, site }) => {
  const { email, password } = await signUpConfirmed(newClient(), mailbox, site, { fullName: 'Ada Lovelace' });
  const client = newClient();
  expect((await client.auth.signInWithPassword({ email, password })).error).toBeNull();
  const elsewhere = newClient();
  expect((await elsewhere.auth.signInWithPassword({ email, password })).error).toBeNull();

  const events: string[] = [];
  client.auth.onAuthStateChange((event) => events.push(event));
  const metadata = await client.auth.updateUser({ data: { full_name: 'Augusta Ada King', shop: 'Loom & Co' } });
  expect(metadata.error).toBeNull();
  expect(metadata.data.user?.user_metadata).toMatchObject({ full_name: 'Augusta Ada King', shop: 'Loom & Co' });
  expect(events).toContain('USER_UPDATED');
  expect((await client.auth.getSession()).data.session?.user.user_metadata.full_name).toBe('Augusta Ada King');
  // Merged, not replaced; a null removes a key.
  const merged = await client.auth.updateUser({ data: { shop: null, machines: 2 } });
  expect(merged.data.user?.user_metadata).toEqual({ full_name: 'Augusta Ada King', machines: 2 });
  expect((await client.auth.getUser()).data.user?.user_metadata).toEqual({ full_name: 'Augusta Ada King', machines: 2 });

  // A session alone cannot change the password: the current one goes with it (auth-js sends
  // `current_password`).
  const newPassword = strongPassword();
  const without = await client.auth.updateUser({ password: newPassword });
  expect(without.error).toBeInstanceOf(AuthApiError);
  expect(without.error).toMatchObject({ status: 400, code: 'current_password_required' });
  const wrong = await client.auth.updateUser({ password: newPassword, current_password: `${password}x` });
  expect(wrong.error).toMatchObject({ status: 400, code: 'current_password_mismatch' });

  const weak = await client.auth.updateUser({ password: 'tH7#q', current_password: password });
  expect(weak.error).toBeInstanceOf(AuthWeakPasswordError);
  expect(weak.error).toMatchObject({ status: 422, reasons: ['length'] });
  const same = await client.auth.updateUser({ password, current_password: password });
  expect(same.error).toBeInstanceOf(AuthApiError);
  expect(same.error).toMatchObject({ status: 422, code: 'same_password' });

  const changed = await client.auth.updateUser({ password: newPassword, current_password: password });
  expect(changed.error).toBeNull();
  expect(changed.data.user?.email).toBe(email);

  // This session goes on; the new password signs in and the old one no longer does.
  expect((await client.auth.getUser()).error).toBeNull();
  expect((await newClient().auth.signInWithPassword({ email, password: newPassword })).error).toBeNull();
  const old = await newClient().auth.signInWithPassword({ email, password });
  expect(old.error).toMatchObject({ status: 400, code: 'invalid_credentials' });
  // Bobbin signs other devices out when the password changes (crates/server/src/auth/handlers/account.rs).
  expect((await elsewhere.auth.getUser()).error).toBeInstanceOf(AuthSessionMissingError);
});
