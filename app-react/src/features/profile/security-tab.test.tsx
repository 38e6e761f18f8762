import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { fakeAuth, fakeSession, resetFakeAuth, signIn } from '@/test/fake-auth';
import { renderPage } from '@/test/render';

import { ProfilePage } from './profile-page';

vi.mock('@supabase/ssr', async () => (await import('@/test/fake-auth')).fakeSsrModule);

const authError = (message: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), { __isAuthError: true, status: 400, ...extra });

beforeEach(async () => {
  resetFakeAuth();
  signIn(fakeSession({ id: 'u1' }));
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json({ id: 'u1', email: 'ada@example.com', full_name: null, default_team_pid: null, created_at: '' })),
  );
  // The app starts the client at load (app/root.tsx); the tab's queries need it signed in.
  const { currentSession } = await import('@/lib/auth');
  await currentSession();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const openSecurity = () => renderPage(<ProfilePage />, '/profile?tab=security', '/profile');

/** Fills in and sends the password form; answers its section. */
async function changePassword(password: string, current = 'Old-Stitch-1204') {
  const user = userEvent.setup();
  const section = await screen.findByRole('region', { name: 'Password' });
  if (current) await user.type(within(section).getByLabelText('Current password'), current);
  await user.type(within(section).getByLabelText('New password'), password);
  await user.type(within(section).getByLabelText('Repeat the new password'), password);
  await user.click(within(section).getByRole('button', { name: 'Change password' }));
  return section;
}

describe('the security tab', () => {
  it('changes the password', async () => {
    openSecurity();
    const section = await changePassword('New-Stitch-9931');
    expect((await within(section).findByRole('status')).textContent).toBe('Your password is changed.');
    expect(fakeAuth.auth.updateUser).toHaveBeenCalledWith({ password: 'New-Stitch-9931', current_password: 'Old-Stitch-1204' });
  });

  it('sends no current password when none is typed (an account that never had one)', async () => {
    openSecurity();
    await changePassword('New-Stitch-9931', '');
    await waitFor(() => expect(fakeAuth.auth.updateUser).toHaveBeenCalledWith({ password: 'New-Stitch-9931' }));
  });

  it.each([
    ['current_password_mismatch', 'Your current password is wrong.', 'That is not your current password.'],
    ['current_password_required', 'Enter your current password to change it.', 'Enter your current password.'],
  ])('shows %s at the current-password field, and keeps what was typed', async (code, message, shown) => {
    fakeAuth.auth.updateUser.mockResolvedValueOnce({ data: { user: null }, error: authError(message, { code }) });
    openSecurity();
    const section = await changePassword('New-Stitch-9931', 'Not-My-Password');
    const current = within(section).getByLabelText<HTMLInputElement>('Current password');
    await waitFor(() => expect(current.getAttribute('aria-invalid')).toBe('true'));
    expect(current.getAttribute('aria-describedby')).toContain('change-current-error');
    expect(document.getElementById('change-current-error')?.textContent).toBe(shown);
    expect(document.activeElement).toBe(current);
    expect(within(section).getByLabelText<HTMLInputElement>('New password').value).toBe('New-Stitch-9931');
    expect(within(section).queryByRole('status')).toBeNull();
  });

  it('asks for a code first when the service wants aal2, then changes the password', async () => {
    fakeAuth.auth.updateUser.mockResolvedValueOnce({
      data: { user: null },
      error: authError('AAL2 required to update password', { code: 'insufficient_aal', status: 401 }),
    });
    fakeAuth.session = fakeSession({ id: 'u1', factors: [{ id: 'f1', status: 'verified' }] });
    openSecurity();
    const section = await changePassword('New-Stitch-9931');

    const user = userEvent.setup();
    await user.type(await within(section).findByLabelText('Code'), '123456');
    await user.click(within(section).getByRole('button', { name: 'Verify' }));
    expect((await within(section).findByRole('status')).textContent).toBe('Your password is changed.');
    expect(fakeAuth.auth.mfa.challengeAndVerify).toHaveBeenCalledWith({ factorId: 'f1', code: '123456' });
    expect(fakeAuth.auth.updateUser).toHaveBeenCalledTimes(2);
  });

  it('sets up an authenticator app: QR code as an image, the key as text, then the first code', async () => {
    openSecurity();
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'Authenticator apps' });
    expect(await within(section).findByText('No authenticator app is set up.')).toBeTruthy();
    await user.click(within(section).getByRole('button', { name: 'Set up an authenticator app' }));

    const qr = await within(section).findByRole('img', { name: 'QR code for your authenticator app' });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;charset=utf-8,%3Csvg/);
    // The markup is never put into the page itself.
    expect(section.querySelector('svg rect')).toBeNull();
    expect(within(section).getByLabelText<HTMLInputElement>('Or type this setup key into the app').value).toBe('JBSWY3DPEHPK3PXP');
    expect(fakeAuth.auth.mfa.enroll).toHaveBeenCalledWith({ factorType: 'totp' });

    await user.type(within(section).getByLabelText('Then enter the six-digit code the app shows'), '654321');
    await user.click(within(section).getByRole('button', { name: 'Verify and turn on' }));
    expect((await within(section).findByRole('status')).textContent).toContain('Authenticator app added');
    expect(fakeAuth.auth.mfa.challengeAndVerify).toHaveBeenCalledWith({ factorId: 'factor-new', code: '654321' });
  });

  it('cancelling a set-up removes the unfinished factor', async () => {
    openSecurity();
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'Authenticator apps' });
    await user.click(await within(section).findByRole('button', { name: 'Set up an authenticator app' }));
    await user.click(await within(section).findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(fakeAuth.auth.mfa.unenroll).toHaveBeenCalledWith({ factorId: 'factor-new' }));
    expect(within(section).queryByRole('img')).toBeNull();
  });

  it('lists verified factors and removes one', async () => {
    fakeAuth.session = fakeSession({
      id: 'u1',
      factors: [
        { id: 'f1', status: 'verified' },
        { id: 'f2', status: 'unverified' },
      ],
    });
    fakeAuth.aal = { currentLevel: 'aal2', nextLevel: 'aal2' };
    openSecurity();
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'Authenticator apps' });
    const remove = await within(section).findAllByRole('button', { name: /^Remove / });
    expect(remove).toHaveLength(1);
    await user.click(remove[0] as HTMLElement);
    await waitFor(() => expect(fakeAuth.auth.mfa.unenroll).toHaveBeenCalledWith({ factorId: 'f1' }));
    expect((await within(section).findByRole('status')).textContent).toContain('removed');
  });

  it.each([
    ['This device', 'local'],
    ['All devices', 'global'],
    ['Other devices', 'others'],
  ])('signs out of %s (scope %s)', async (label, scope) => {
    openSecurity();
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'Sign out' });
    await user.click(within(section).getByRole('radio', { name: new RegExp(`^${label}`) }));
    await user.click(within(section).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(fakeAuth.auth.signOut).toHaveBeenCalledWith({ scope }));
  });

  it("falls back to 'Sign out failed'", async () => {
    fakeAuth.auth.signOut.mockResolvedValueOnce({ error: authError('') });
    openSecurity();
    const section = await screen.findByRole('region', { name: 'Sign out' });
    await userEvent.setup().click(within(section).getByRole('button', { name: 'Sign out' }));
    expect((await within(section).findByRole('alert')).textContent).toBe('Sign out failed');
  });
});
