import { AuthApiError, AuthWeakPasswordError } from '@supabase/auth-js';

import { codeIn, expect, follow, fragmentOf, strongPassword, test, uniqueEmail, verifyLinkIn } from './support';

test('signing up answers the unconfirmed user and no session, and e-mails a confirmation link and code', async ({
  newClient,
  mailbox,
  site,
}) => {
  const client = newClient();
  const email = uniqueEmail('sign-up');

  const { data, error } = await client.auth.signUp({
    email,
    password: strongPassword(),
    options: { data: { full_name: 'Ada Lovelace' } },
  });

  expect(error).toBeNull();
  expect(data.session).toBeNull();
  expect(data.user).toMatchObject({
    email,
    aud: 'authenticated',
    user_metadata: { full_name: 'Ada Lovelace' },
    app_metadata: { provider: 'email', providers: ['email'] },
  });
  expect(data.user?.email_confirmed_at).toBeUndefined();
  expect(data.user?.confirmation_sent_at).toBeTruthy();
  // A real new account has its e-mail identity (a repeated sign-up answers none).
  expect(data.user?.identities).toHaveLength(1);
  expect(await client.auth.getSession()).toMatchObject({ data: { session: null }, error: null });

  const mail = await mailbox.receive(email);
  expect(mail.subject).toBe('Confirm your e-mail address for Bobbin');
  const link = verifyLinkIn(mail, site);
  expect(link.searchParams.get('type')).toBe('signup');
  expect(link.searchParams.get('redirect_to')).toBe(`${site}/`);
  expect(codeIn(mail)).toMatch(/^\d{6}$/);
  expect(mail.html).toContain(link.searchParams.get('token'));
});

test('signing in before the address is confirmed is refused with email_not_confirmed', async ({ newClient }) => {
  const client = newClient();
  const email = uniqueEmail('unconfirmed');
  const password = strongPassword();
  expect((await client.auth.signUp({ email, password })).error).toBeNull();

  const { data, error } = await client.auth.signInWithPassword({ email, password });

  expect(error).toBeInstanceOf(AuthApiError);
  expect(error).toMatchObject({ status: 400, code: 'email_not_confirmed' });
  expect(data.session).toBeNull();
});

test('the confirmation link of a PKCE sign-up leads to the site with a code that exchanges for a session', async ({
  newClient,
  mailbox,
  site,
}) => {
  const client = newClient('pkce');
  const email = uniqueEmail('pkce');
  const signUp = await client.auth.signUp({
    email,
    password: strongPassword(),
    options: { data: { full_name: 'Ada Lovelace' } },
  });
  expect(signUp.error).toBeNull();
  // The client sent a challenge and kept its verifier for the exchange.
  const sent = client.requests.find((request) => request.url.pathname.endsWith('/signup'));
  expect(sent?.body).toMatchObject({ code_challenge: expect.stringMatching(/^[\w-]{43}$/), code_challenge_method: 's256' });
  const link = verifyLinkIn(await mailbox.receive(email), site);

  const landing = await follow(link);

  expect(landing.origin + landing.pathname).toBe(`${site}/`);
  const code = landing.searchParams.get('code');
  expect(code).toBeTruthy();
  expect(landing.hash).toBe('');
  const events: string[] = [];
  client.auth.onAuthStateChange((event) => events.push(event));
  const { data, error } = await client.auth.exchangeCodeForSession(code as string);
  expect(error).toBeNull();
  expect(data.session?.access_token).toBeTruthy();
  expect(data.session?.refresh_token).toBeTruthy();
  expect(data.user?.email).toBe(email);
  expect(data.user?.email_confirmed_at).toBeTruthy();
  expect(data.user?.user_metadata).toMatchObject({ full_name: 'Ada Lovelace' });
  expect(events).toContain('SIGNED_IN');
  // The session is the client's now, and the service knows it.
  expect((await client.auth.getSession()).data.session?.access_token).toBe(data.session?.access_token);
  const user = await client.auth.getUser();
  expect(user.error).toBeNull();
  expect(user.data.user?.email_confirmed_at).toBeTruthy();

  // The link and the code are single-use.
  const again = await follow(link);
  expect(again.searchParams.get('error')).toBe('access_denied');
  expect(again.searchParams.get('error_code')).toBe('otp_expired');
  const reuse = await fetch(`${site}/auth/v1/token?grant_type=pkce`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', apikey: 'anything' },
    body: JSON.stringify({ auth_code: code, code_verifier: 'v'.repeat(43) }),
  });
  expect(reuse.status).toBe(404);
  expect(await reuse.json()).toMatchObject({ code: 'flow_state_not_found' });
});

test('the confirmation link of an implicit-flow sign-up puts the session in the fragment', async ({ newClient, mailbox, site }) => {
  const client = newClient('implicit');
  const email = uniqueEmail('implicit');
  const signUp = await client.auth.signUp({
    email,
    password: strongPassword(),
    options: { data: { full_name: 'Grace Hopper' } },
  });
  expect(signUp.error).toBeNull();

  const landing = await follow(verifyLinkIn(await mailbox.receive(email), site));

  expect(landing.origin + landing.pathname).toBe(`${site}/`);
  expect(landing.searchParams.get('code')).toBeNull();
  const fragment = fragmentOf(landing);
  expect(fragment.get('type')).toBe('signup');
  expect(fragment.get('token_type')).toBe('bearer');
  expect(Number(fragment.get('expires_in'))).toBeGreaterThan(0);
  expect(Number(fragment.get('expires_at'))).toBeGreaterThan(Date.now() / 1000);
  // What the browser client does with such a URL: take the tokens, and ask who they belong to.
  const { data, error } = await client.auth.setSession({
    access_token: fragment.get('access_token') ?? '',
    refresh_token: fragment.get('refresh_token') ?? '',
  });
  expect(error).toBeNull();
  expect(data.user?.email).toBe(email);
  expect(data.user?.email_confirmed_at).toBeTruthy();
  expect(data.user?.user_metadata).toMatchObject({ full_name: 'Grace Hopper' });
});

test('a weak password is refused with AuthWeakPasswordError and its reasons, and no account or e-mail', async ({ newClient, mailbox }) => {
  const client = newClient();
  const email = uniqueEmail('weak');

  const short = await client.auth.signUp({ email, password: 'tH7#' });
  expect(short.error).toBeInstanceOf(AuthWeakPasswordError);
  expect(short.error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['length'] });
  expect(short.error?.message).toContain('at least 8 characters');

  const common = await client.auth.signUp({ email, password: 'password' });
  expect(common.error).toBeInstanceOf(AuthWeakPasswordError);
  expect(common.error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['pwned'] });

  expect(short.data).toEqual({ user: null, session: null });
  expect(await mailbox.all(email)).toEqual([]);
});

test("the link's token also verifies through verifyOtp({ token_hash }), as a server-side confirm route does", async ({
  newClient,
  mailbox,
  site,
}) => {
  const email = uniqueEmail('token-hash');
  expect((await newClient('implicit').auth.signUp({ email, password: strongPassword() })).error).toBeNull();
  const link = verifyLinkIn(await mailbox.receive(email), site);
  const client = newClient();

  const { data, error } = await client.auth.verifyOtp({
    token_hash: link.searchParams.get('token') ?? '',
    type: 'signup',
  });

  expect(error).toBeNull();
  expect(data.session?.access_token).toBeTruthy();
  expect(data.user?.email).toBe(email);
  expect(data.user?.email_confirmed_at).toBeTruthy();
  const again = await newClient().auth.verifyOtp({ token_hash: link.searchParams.get('token') ?? '', type: 'signup' });
  expect(again.error).toMatchObject({ status: 403, code: 'otp_expired' });
});

test('a magic-link request for a new address signs up by the code typed from the e-mail', async ({ newClient, mailbox }) => {
  const client = newClient();
  const email = uniqueEmail('otp-new');

  const request = await client.auth.signInWithOtp({ email, options: { data: { full_name: 'Mary Somerville' } } });
  expect(request.error).toBeNull();
  expect(request.data).toEqual({ user: null, session: null });

  const mail = await mailbox.receive(email);
  const { data, error } = await client.auth.verifyOtp({ email, token: codeIn(mail), type: 'email' });
  expect(error).toBeNull();
  expect(data.session?.access_token).toBeTruthy();
  expect(data.user?.email).toBe(email);
  expect(data.user?.email_confirmed_at).toBeTruthy();
  expect(data.user?.user_metadata).toMatchObject({ full_name: 'Mary Somerville' });
  expect((await client.auth.getSession()).data.session?.user.email).toBe(email);

  // The code is single-use.
  const again = await newClient().auth.verifyOtp({ email, token: codeIn(mail), type: 'email' });
  expect(again.error).toBeInstanceOf(AuthApiError);
  expect(again.error).toMatchObject({ status: 403, code: 'otp_expired' });
});

test('asking for a second e-mail within the minute is refused with over_email_send_rate_limit', async ({ newClient, mailbox }) => {
  const client = newClient();
  const email = uniqueEmail('resend-soon');
  expect((await client.auth.signUp({ email, password: strongPassword() })).error).toBeNull();
  await mailbox.receive(email);

  const { error } = await client.auth.resend({ type: 'signup', email });

  expect(error).toBeInstanceOf(AuthApiError);
  expect(error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
  expect(await mailbox.all(email)).toHaveLength(1);
});
