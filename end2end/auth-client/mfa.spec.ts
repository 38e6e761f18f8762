import { AuthApiError } from '@supabase/auth-js';
import { TOTP, URI } from 'otpauth';

import { type Client, expect, signUpConfirmed, strongPassword, test } from './support';

/** The authenticator app: the TOTP generator the enrolment's `otpauth://` URI describes. */
function authenticator(uri: string): TOTP {
  const otp = URI.parse(uri);
  if (!(otp instanceof TOTP)) throw new Error(`not a TOTP URI: ${uri}`);
  return otp;
}

/** A six-digit code other than `code`. */
function wrong(code: string): string {
  return String((Number(code) + 500_000) % 1_000_000).padStart(6, '0');
}

/** Enrols a TOTP factor and verifies it with a fresh code; answers the factor id and the app. */
async function enrolVerified(client: Client): Promise<{ factorId: string; app: TOTP; usedCode: string }> {
  const enrolled = await client.auth.mfa.enroll({ factorType: 'totp' });
  expect(enrolled.error).toBeNull();
  const app = authenticator(enrolled.data?.totp.uri ?? '');
  const factorId = enrolled.data?.id ?? '';
  const usedCode = app.generate();
  const verified = await client.auth.mfa.challengeAndVerify({ factorId, code: usedCode });
  expect(verified.error).toBeNull();
  return { factorId, app, usedCode };
}

test('enrolling TOTP and verifying a code from the authenticator raises the session to aal2', async ({ newClient, mailbox, site }) => {
  const client = newClient();
  const { email } = await signUpConfirmed(client, mailbox, site);
  expect((await client.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
    currentLevel: 'aal1',
    nextLevel: 'aal1',
  });

  const enrolled = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Workshop phone' });

  expect(enrolled.error).toBeNull();
  const factor = enrolled.data;
  expect(factor).toMatchObject({ type: 'totp', friendly_name: 'Workshop phone', id: expect.any(String) });
  // The client turns the SVG the service sends into a data URL for an <img>.
  expect(factor?.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg[\s>][\s\S]*<\/svg>\s*$/);
  expect(factor?.totp.secret).toMatch(/^[A-Z2-7]{16,}=*$/);
  const app = authenticator(factor?.totp.uri ?? '');
  expect(app.secret.base32.replace(/=+$/, '')).toBe(factor?.totp.secret.replace(/=+$/, ''));
  expect(app).toMatchObject({ digits: 6, period: 30, algorithm: 'SHA1' });
  expect(app.label).toBe(email);
  expect(app.issuer).toBeTruthy();

  // Enrolled but not yet verified: listed, but not among the factors that count.
  const pending = await client.auth.mfa.listFactors();
  expect(pending.error).toBeNull();
  expect(pending.data?.all).toEqual([expect.objectContaining({ id: factor?.id, status: 'unverified' })]);
  expect(pending.data?.totp).toEqual([]);

  const challenge = await client.auth.mfa.challenge({ factorId: factor?.id ?? '' });
  expect(challenge.error).toBeNull();
  expect(challenge.data).toMatchObject({ id: expect.any(String), type: 'totp' });
  expect(challenge.data?.expires_at).toBeGreaterThan(Date.now() / 1000);
  const challengeId = challenge.data?.id ?? '';

  const code = app.generate();
  const refused = await client.auth.mfa.verify({ factorId: factor?.id ?? '', challengeId, code: wrong(code) });
  expect(refused.error).toBeInstanceOf(AuthApiError);
  expect(refused.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });

  const events: string[] = [];
  client.auth.onAuthStateChange((event) => events.push(event));
  const verified = await client.auth.mfa.verify({ factorId: factor?.id ?? '', challengeId, code });

  expect(verified.error).toBeNull();
  expect(verified.data).toMatchObject({ token_type: 'bearer', access_token: expect.any(String) });
  expect(events).toContain('MFA_CHALLENGE_VERIFIED');
  const level = await client.auth.mfa.getAuthenticatorAssuranceLevel();
  expect(level.error).toBeNull();
  expect(level.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
  expect(level.data?.currentAuthenticationMethods).toEqual([
    { method: 'totp', timestamp: expect.any(Number) },
    { method: 'email/signup', timestamp: expect.any(Number) },
  ]);
  expect((await client.auth.getClaims()).data?.claims.aal).toBe('aal2');
  // The new access token's level is the service's too, not only the client's reading of it.
  const fromService = await client.auth.mfa.getAuthenticatorAssuranceLevel(verified.data?.access_token);
  expect(fromService.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });

  const factors = await client.auth.mfa.listFactors();
  expect(factors.data?.totp).toEqual([
    expect.objectContaining({ id: factor?.id, factor_type: 'totp', status: 'verified', friendly_name: 'Workshop phone' }),
  ]);

  // No code is accepted twice.
  const replay = await client.auth.mfa.challengeAndVerify({ factorId: factor?.id ?? '', code });
  expect(replay.error).toBeInstanceOf(AuthApiError);
  expect(replay.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
});

test('with a verified factor, an aal1 session must verify a code before changing the password or removing the factor', async ({
  newClient,
  mailbox,
  site,
}) => {
  const { email, password } = await signUpConfirmed(newClient(), mailbox, site);
  const first = newClient();
  expect((await first.auth.signInWithPassword({ email, password })).error).toBeNull();
  const { factorId, app } = await enrolVerified(first);

  const client = newClient();
  expect((await client.auth.signInWithPassword({ email, password })).error).toBeNull();
  expect((await client.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
    currentLevel: 'aal1',
    nextLevel: 'aal2',
  });

  const newPassword = strongPassword();
  const change = await client.auth.updateUser({ password: newPassword });
  expect(change.error).toBeInstanceOf(AuthApiError);
  expect(change.error).toMatchObject({ status: 401, code: 'insufficient_aal' });
  const removal = await client.auth.mfa.unenroll({ factorId });
  expect(removal.error).toBeInstanceOf(AuthApiError);
  expect(removal.error).toMatchObject({ status: 401, code: 'insufficient_aal' });
  const another = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Second phone' });
  expect(another.error).toMatchObject({ status: 401, code: 'insufficient_aal' });

  // The next time step's code: the current one was used by the enrolment, and the service
  // accepts one step either side.
  const stepUp = await client.auth.mfa.challengeAndVerify({
    factorId,
    code: app.generate({ timestamp: Date.now() + 30_000 }),
  });
  expect(stepUp.error).toBeNull();
  expect((await client.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal2');

  expect((await client.auth.updateUser({ password: newPassword, current_password: password })).error).toBeNull();
  const removed = await client.auth.mfa.unenroll({ factorId });
  expect(removed.error).toBeNull();
  expect(removed.data).toEqual({ id: factorId });
  const left = await client.auth.mfa.listFactors();
  expect(left.data?.all).toEqual([]);
  expect((await newClient().auth.signInWithPassword({ email, password: newPassword })).error).toBeNull();
});
