import { AuthApiError, AuthSessionMissingError } from '@supabase/auth-js';

import { type Client, expect, signUpConfirmed, test } from './support';

/** Whether the service still honours a client's session (its access token). */
async function signedIn(client: Client): Promise<boolean> {
  const { data, error } = await client.auth.getUser();
  if (error && !(error instanceof AuthSessionMissingError)) throw error;
  return data.user !== null;
}

/** Refreshing with a refresh token from before the sign-out. */
async function refreshWith(client: Client, refreshToken: string) {
  return (await client.auth.refreshSession({ refresh_token: refreshToken })).error;
}

test.describe('signOut', () => {
  let devices: Client[];
  let refreshTokens: string[];

  test.beforeEach(async ({ newClient, mailbox, site }) => {
    const { email, password } = await signUpConfirmed(newClient(), mailbox, site);
    devices = [newClient(), newClient(), newClient()];
    refreshTokens = [];
    for (const device of devices) {
      const { data, error } = await device.auth.signInWithPassword({ email, password });
      expect(error).toBeNull();
      refreshTokens.push(data.session?.refresh_token ?? '');
    }
  });

  test("scope 'others' ends the other devices' sessions and keeps this one", async ({ newClient }) => {
    const [here, ...others] = devices;

    const { error } = await here.auth.signOut({ scope: 'others' });

    expect(error).toBeNull();
    expect((await here.auth.getSession()).data.session).not.toBeNull();
    expect(await signedIn(here)).toBe(true);
    expect((await here.auth.refreshSession()).error).toBeNull();
    for (const [index, other] of others.entries()) {
      expect(await signedIn(other)).toBe(false);
      // The client forgets a session the service no longer knows.
      expect((await other.auth.getSession()).data.session).toBeNull();
      const refused = await refreshWith(newClient(), refreshTokens[index + 1]);
      expect(refused).toBeInstanceOf(AuthApiError);
      expect(refused).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
    }
  });

  test("scope 'local' ends this device's session only", async ({ newClient }) => {
    const [here, ...others] = devices;
    const accessToken = (await here.auth.getSession()).data.session?.access_token ?? '';
    const events: string[] = [];
    here.auth.onAuthStateChange((event) => events.push(event));

    const { error } = await here.auth.signOut({ scope: 'local' });

    expect(error).toBeNull();
    expect(events).toContain('SIGNED_OUT');
    expect((await here.auth.getSession()).data.session).toBeNull();
    expect(here.storage.items.size).toBe(0);
    // Ended at the service too, not only forgotten by the client.
    const stale = await newClient().auth.getUser(accessToken);
    expect(stale.error).toBeInstanceOf(AuthSessionMissingError);
    expect(await refreshWith(newClient(), refreshTokens[0])).toMatchObject({ code: 'refresh_token_not_found' });
    for (const other of others) expect(await signedIn(other)).toBe(true);
  });

  test("scope 'global' (the default) ends every session of the account", async ({ newClient }) => {
    const [here, ...others] = devices;
    const accessToken = (await here.auth.getSession()).data.session?.access_token ?? '';

    const { error } = await here.auth.signOut();

    expect(error).toBeNull();
    expect((await here.auth.getSession()).data.session).toBeNull();
    expect((await newClient().auth.getUser(accessToken)).error).toBeInstanceOf(AuthSessionMissingError);
    // A device signing out of a session that already ended is simply signed out: the client
    // takes the service's 403 session_not_found as "already signed out".
    const [late] = others;
    expect((await late.auth.signOut({ scope: 'local' })).error).toBeNull();
    expect((await late.auth.getSession()).data.session).toBeNull();
    expect(late.requests.at(-1)).toMatchObject({ method: 'POST', status: 403 });
    for (const other of others) expect(await signedIn(other)).toBe(false);
    for (const token of refreshTokens) {
      expect(await refreshWith(newClient(), token)).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
    }
  });
});

test('signing out with an unknown scope is refused by the service', async ({ newClient, mailbox, site }) => {
  const client = newClient();
  const { session } = await signUpConfirmed(client, mailbox, site);

  const response = await fetch(`${site}/auth/v1/logout?scope=everyone`, {
    method: 'POST',
    headers: { apikey: 'anything', authorization: `Bearer ${session.access_token}` },
  });

  expect(response.status).toBe(400);
  expect(await response.json()).toMatchObject({ code: 'validation_failed' });
  expect((await client.auth.getUser()).error).toBeNull();
});
