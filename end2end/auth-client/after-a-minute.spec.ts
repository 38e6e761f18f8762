import { AuthApiError } from '@supabase/auth-js';

import {
  type Client,
  codeIn,
  expect,
  follow,
  fragmentOf,
  type Mail,
  signUpConfirmed,
  sleep,
  strongPassword,
  test,
  uniqueEmail,
  verifyLinkIn,
} from './support';

// The flows that e-mail an address that already has an account: password recovery, a magic
// link, resending the confirmation, an e-mail change, signing up again. The service sends one e-mail per address
// per minute (BOBBIN_AUTH_EMAIL_INTERVAL, 60 s by default, which the development server keeps),
// and every account got its sign-up e-mail when it was made. So the accounts are all made first,
// the minute is waited once for all of them, and the flows follow.
//
// Kept in one file on one worker: the wait holds this worker, and the other worker runs the
// other files meanwhile. A failed test restarts the worker, and with it the wait, so the test
// most likely to fail comes last.

interface Account {
  client: Client;
  email: string;
  password: string;
}

let recovery: Account;
let magicLink: Account;
let magicCode: Account;
let emailChange: Account;
let registered: Account;
let unconfirmed: Account & { firstMail: Mail };

test.beforeAll(async ({ newClient, mailbox, site }) => {
  test.setTimeout(120_000);
  const confirmed = async (): Promise<Account> => {
    const client = newClient();
    const { email, password } = await signUpConfirmed(client, mailbox, site, { fullName: 'Ada Lovelace' });
    return { client, email, password };
  };
  recovery = await confirmed();
  magicLink = await confirmed();
  magicCode = await confirmed();
  emailChange = await confirmed();
  registered = await confirmed();
  const client = newClient();
  const email = uniqueEmail('resend');
  const password = strongPassword();
  expect((await client.auth.signUp({ email, password })).error).toBeNull();
  unconfirmed = { client, email, password, firstMail: await mailbox.receive(email) };

  await sleep(61_000);
});

test('a password reset: the e-mailed link, the code exchange, a new password, and sign-in with it', async ({
  newClient,
  mailbox,
  site,
}) => {
  // The person is on another device, signed out, and has forgotten the password.
  const device = newClient('pkce');
  const seen = (await mailbox.all(recovery.email)).map((mail) => mail.id);
  const { data, error } = await device.auth.resetPasswordForEmail(recovery.email, {
    redirectTo: `${site}/auth/reset`,
  });
  expect(error).toBeNull();
  expect(data).toEqual({});
  const mail = await mailbox.receive(recovery.email, { seen });
  expect(mail.subject).toBe('Reset your Bobbin password');
  const link = verifyLinkIn(mail, site);
  expect(link.searchParams.get('type')).toBe('recovery');

  const landing = await follow(link);

  expect(landing.origin + landing.pathname).toBe(`${site}/auth/reset`);
  const code = landing.searchParams.get('code');
  expect(code).toBeTruthy();
  const events: string[] = [];
  device.auth.onAuthStateChange((event) => events.push(event));
  const exchange = await device.auth.exchangeCodeForSession(code as string);
  expect(exchange.error).toBeNull();
  expect(exchange.data).toMatchObject({ redirectType: 'recovery' });
  expect(events).toContain('PASSWORD_RECOVERY');
  expect(exchange.data.user?.email).toBe(recovery.email);
  expect((await device.auth.getClaims()).data?.claims.amr).toEqual([{ method: 'recovery', timestamp: expect.any(Number) }]);

  const newPassword = strongPassword();
  const update = await device.auth.updateUser({ password: newPassword });
  expect(update.error).toBeNull();

  const signIn = await newClient().auth.signInWithPassword({ email: recovery.email, password: newPassword });
  expect(signIn.error).toBeNull();
  expect(signIn.data.user?.email).toBe(recovery.email);
  const old = await newClient().auth.signInWithPassword({ email: recovery.email, password: recovery.password });
  expect(old.error).toMatchObject({ status: 400, code: 'invalid_credentials' });
  // The link was spent by the first visit.
  expect((await follow(link)).searchParams.get('error_code')).toBe('otp_expired');
});

test('a reset for an address without an account answers exactly as for one with an account', async ({ newClient, mailbox }) => {
  const email = uniqueEmail('no-account');

  const { data, error } = await newClient().auth.resetPasswordForEmail(email);

  expect(error).toBeNull();
  expect(data).toEqual({});
  expect(await mailbox.all(email)).toEqual([]);
});

test('a magic link for an existing account signs in through the PKCE code exchange', async ({ newClient, mailbox, site }) => {
  const device = newClient('pkce');
  const seen = (await mailbox.all(magicLink.email)).map((mail) => mail.id);

  const request = await device.auth.signInWithOtp({
    email: magicLink.email,
    options: { shouldCreateUser: false, emailRedirectTo: `${site}/auth/callback?next=%2Fthreads` },
  });

  expect(request.error).toBeNull();
  const mail = await mailbox.receive(magicLink.email, { seen });
  expect(mail.subject).toBe('Your Bobbin sign-in link');
  const link = verifyLinkIn(mail, site);
  expect(link.searchParams.get('type')).toBe('magiclink');
  const landing = await follow(link);
  expect(landing.origin + landing.pathname).toBe(`${site}/auth/callback`);
  // The app's own parameters survive the trip.
  expect(landing.searchParams.get('next')).toBe('/threads');
  const { data, error } = await device.auth.exchangeCodeForSession(landing.searchParams.get('code') ?? '');
  expect(error).toBeNull();
  expect(data.user?.email).toBe(magicLink.email);
  expect(data.user?.user_metadata).toMatchObject({ full_name: 'Ada Lovelace' });
  expect((await device.auth.getClaims()).data?.claims.amr).toEqual([{ method: 'magiclink', timestamp: expect.any(Number) }]);
});

test('a magic link for an existing account also signs in by its six-digit code', async ({ newClient, mailbox }) => {
  const device = newClient('pkce');
  const seen = (await mailbox.all(magicCode.email)).map((mail) => mail.id);

  expect((await device.auth.signInWithOtp({ email: magicCode.email })).error).toBeNull();
  const mail = await mailbox.receive(magicCode.email, { seen });
  expect(mail.subject).toBe('Your Bobbin sign-in link');

  const code = codeIn(mail);

  const wrong = await device.auth.verifyOtp({
    email: magicCode.email,
    token: code === '000000' ? '111111' : '000000',
    type: 'email',
  });
  expect(wrong.error).toBeInstanceOf(AuthApiError);
  expect(wrong.error).toMatchObject({ status: 403, code: 'otp_expired' });
  const { data, error } = await device.auth.verifyOtp({ email: magicCode.email, token: code, type: 'email' });
  expect(error).toBeNull();
  expect(data.session?.access_token).toBeTruthy();
  expect(data.user?.email).toBe(magicCode.email);
  expect((await device.auth.getUser()).data.user?.email).toBe(magicCode.email);
});

test('an e-mail change is confirmed by the links sent to both addresses, then the new address signs in', async ({
  newClient,
  mailbox,
  site,
}) => {
  const { client, email, password } = emailChange;
  const newEmail = uniqueEmail('moved');
  const seen = (await mailbox.all(email)).map((mail) => mail.id);

  const { data, error } = await client.auth.updateUser({ email: newEmail, current_password: password });

  expect(error).toBeNull();
  expect(data.user?.email).toBe(email);
  expect(data.user?.new_email).toBe(newEmail);
  expect(data.user?.email_change_sent_at).toBeTruthy();
  const toNew = await mailbox.receive(newEmail);
  const toCurrent = await mailbox.receive(email, { seen });
  for (const mail of [toNew, toCurrent]) {
    expect(mail.subject).toBe('Confirm your new e-mail address for Bobbin');
    expect(mail.text).toContain(newEmail);
    expect(verifyLinkIn(mail, site).searchParams.get('type')).toBe('email_change');
  }

  // The first link accepted: no session yet, a message to open the other one.
  const half = await follow(verifyLinkIn(toCurrent, site));
  expect(half.searchParams.get('error')).toBeNull();
  expect(half.searchParams.get('code')).toBeNull();
  expect(fragmentOf(half).get('message')).toBe('Confirmation link accepted. Please proceed to confirm link sent to the other email');
  expect((await client.auth.getUser()).data.user?.email).toBe(email);

  const landing = await follow(verifyLinkIn(toNew, site));
  const code = landing.searchParams.get('code');
  expect(code, `a code in ${landing}`).toBeTruthy();
  const exchange = await client.auth.exchangeCodeForSession(code as string);
  expect(exchange.error).toBeNull();
  expect(exchange.data.user?.email).toBe(newEmail);
  expect(exchange.data.user?.new_email).toBeUndefined();
  expect((await client.auth.getUser()).data.user?.email).toBe(newEmail);

  expect((await newClient().auth.signInWithPassword({ email: newEmail, password })).error).toBeNull();
  const old = await newClient().auth.signInWithPassword({ email, password });
  expect(old.error).toMatchObject({ code: 'invalid_credentials' });
});

test('signing up again with a registered address answers as for a new one, and signs nobody in', async ({ newClient, mailbox }) => {
  const { email } = registered;
  const before = await mailbox.all(email);

  const { data, error } = await newClient().auth.signUp({ email, password: strongPassword() });

  expect(error).toBeNull();
  expect(data.session).toBeNull();
  expect(data.user?.email).toBe(email);
  // How the client's documentation tells an existing account apart: no identities.
  expect(data.user?.identities).toEqual([]);
  expect(await mailbox.all(email)).toHaveLength(before.length);
});

test('resending the confirmation e-mails a new link that confirms the PKCE sign-up, and retires the old one', async ({ mailbox, site }) => {
  const { client, email, firstMail } = unconfirmed;

  const { data, error } = await client.auth.resend({ type: 'signup', email });

  expect(error).toBeNull();
  expect(data).toEqual({ user: null, session: null });
  const mail = await mailbox.receive(email, { seen: [firstMail.id] });
  expect(mail.subject).toBe('Confirm your e-mail address for Bobbin');
  expect(codeIn(mail)).not.toBe(codeIn(firstMail));
  const oldLanding = await follow(verifyLinkIn(firstMail, site));
  expect(oldLanding.searchParams.get('error_code')).toBe('otp_expired');

  // The client sent a new PKCE challenge with the request, so the link answers a code to
  // exchange, as the sign-up's own link does (Supabase Auth's `/resend` keeps the PKCE flow).
  const resent = client.requests.find((request) => request.url.pathname.endsWith('/resend'));
  expect(resent?.body).toMatchObject({ code_challenge: expect.any(String), code_challenge_method: 's256' });
  const landing = await follow(verifyLinkIn(mail, site));
  expect(landing.hash, 'no session in the fragment of a PKCE flow').toBe('');
  const code = landing.searchParams.get('code');
  expect(code, `a code in ${landing}`).toBeTruthy();
  const exchange = await client.auth.exchangeCodeForSession(code as string);
  expect(exchange.error).toBeNull();
  expect(exchange.data.user?.email).toBe(email);
  expect(exchange.data.user?.email_confirmed_at).toBeTruthy();
});
