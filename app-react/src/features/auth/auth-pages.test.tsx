import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { fakeAuth, fakeSession, resetFakeAuth, signIn } from '@/test/fake-auth';
import { renderPage } from '@/test/render';

import { CallbackPage } from './callback-page';
import { ForgotPasswordPage } from './forgot-password-page';
import { LoginPage } from './login-page';
import { RegisterPage } from './register-page';
import { ResetPage } from './reset-page';

vi.mock('@supabase/ssr', async () => (await import('@/test/fake-auth')).fakeSsrModule);

let settings: { external: Record<string, boolean> };

beforeEach(() => {
  resetFakeAuth();
  settings = { external: { email: true, github: false, google: false } };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      if (input === '/auth/v1/settings') return Response.json(settings);
      throw new Error(`unexpected fetch ${input}`);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** An error as auth-js returns it: a message (maybe empty), a code, a status. */
const authError = (message: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), { __isAuthError: true, status: 400, ...extra });

async function fillLogin(email = 'ada@example.com', password = 'Stitch-Count-4812') {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('E-mail'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Log in' }));
  return user;
}

describe('/login', () => {
  it("shows the service's message where the person is looking", async () => {
    fakeAuth.auth.signInWithPassword.mockResolvedValueOnce({
      data: { session: null, user: null },
      error: authError('Invalid login credentials'),
    } as never);
    renderPage(<LoginPage />, '/login');
    await fillLogin();
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid login credentials');
  });

  it("falls back to 'Login failed'", async () => {
    fakeAuth.auth.signInWithPassword.mockRejectedValueOnce(new TypeError(''));
    renderPage(<LoginPage />, '/login');
    await fillLogin();
    expect((await screen.findByRole('alert')).textContent).toBe('Login failed');
  });

  it('says what is missing before asking the service', async () => {
    renderPage(<LoginPage />, '/login');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Enter your e-mail address.')).toBeTruthy();
    expect(screen.getByLabelText('E-mail').getAttribute('aria-invalid')).toBe('true');
    expect(fakeAuth.auth.signInWithPassword).not.toHaveBeenCalled();
  });

  it('goes on to the page in ?redirect= after signing in', async () => {
    fakeAuth.session = fakeSession();
    const page = renderPage(<LoginPage />, '/login?redirect=%2Fprofile%3Ftab%3Dsecurity');
    await fillLogin();
    await waitFor(() => expect(page.location()).toBe('/profile?tab=security'));
    expect(fakeAuth.auth.signInWithPassword).toHaveBeenCalledWith({ email: 'ada@example.com', password: 'Stitch-Count-4812' });
  });

  it('ignores a redirect to another site, and goes to the dashboard instead', async () => {
    fakeAuth.session = fakeSession();
    const page = renderPage(<LoginPage />, '/login?redirect=%2F%2Fevil.example');
    await fillLogin();
    await waitFor(() => expect(page.location()).toBe('/dashboard'));
  });

  it('asks for the authenticator code when the account has one, then goes on', async () => {
    const session = fakeSession({ factors: [{ id: 'f1', status: 'verified' }] });
    fakeAuth.auth.signInWithPassword.mockImplementationOnce(async () => {
      signIn(session);
      fakeAuth.aal = { currentLevel: 'aal1', nextLevel: 'aal2' };
      return { data: { session, user: session.user }, error: null };
    });
    const page = renderPage(<LoginPage />, '/login?redirect=%2Fprofile');
    const user = await fillLogin();

    const code = await screen.findByLabelText('Code');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(page.location()).toBe('/login?redirect=%2Fprofile');
    fakeAuth.auth.mfa.challengeAndVerify.mockResolvedValueOnce({ data: null, error: authError('Invalid TOTP code entered') });
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid TOTP code entered');

    await user.clear(code);
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(page.location()).toBe('/profile'));
    expect(fakeAuth.auth.mfa.challengeAndVerify).toHaveBeenLastCalledWith({ factorId: 'f1', code: '123456' });
  });

  it('offers the OAuth providers the server has enabled, and no others', async () => {
    settings.external.github = true;
    renderPage(<LoginPage />, '/login?redirect=%2Fprofile');
    const github = await screen.findByRole('button', { name: 'Sign in with GitHub' });
    expect(screen.queryByRole('button', { name: 'Sign in with Google' })).toBeNull();
    fakeAuth.auth.signInWithOAuth.mockResolvedValueOnce({ data: { provider: 'github', url: null }, error: authError('') } as never);
    await userEvent.setup().click(github);
    expect(fakeAuth.auth.signInWithOAuth).toHaveBeenCalledWith({
      provider: 'github',
      options: { redirectTo: `${window.location.origin}/auth/callback?next=%2Fprofile` },
    });
    expect((await screen.findByRole('alert')).textContent).toBe('OAuth failed');
  });

  it('is headed Login, and its button says Log in', async () => {
    renderPage(<LoginPage />, '/login');
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Login');
    expect(screen.getByRole('button', { name: 'Log in' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
  });

  it('has no provider buttons when the server offers none', async () => {
    renderPage(<LoginPage />, '/login');
    await screen.findByRole('button', { name: 'Log in' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('button', { name: /Sign in with/ })).toBeNull();
  });
});

describe('/register', () => {
  async function fillRegister(password = 'Stitch-Count-4812') {
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Full name (optional)'), 'Ada Lovelace');
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), password);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
  }

  it('sends the full name and the confirmation link target, then says to check the e-mail', async () => {
    renderPage(<RegisterPage />, '/register');
    await fillRegister();
    expect((await screen.findByRole('status')).textContent).toContain('Check your e-mail');
    expect(fakeAuth.auth.signUp).toHaveBeenCalledWith({
      email: 'ada@example.com',
      password: 'Stitch-Count-4812',
      options: {
        data: { full_name: 'Ada Lovelace' },
        emailRedirectTo: `${window.location.origin}/auth/callback?next=%2Fauth%2Fconfirm`,
      },
    });
  });

  it('takes the six-digit code from the e-mail instead of the link, then goes on to the confirmation', async () => {
    const page = renderPage(<RegisterPage />, '/register');
    await fillRegister();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Code'), '204815');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(page.location()).toBe('/auth/confirm'));
    expect(fakeAuth.auth.verifyOtp).toHaveBeenCalledWith({ email: 'ada@example.com', token: '204815', type: 'signup' });
  });

  it('a wrong code says so, and a code from an invite link goes back to the invite', async () => {
    fakeAuth.auth.verifyOtp.mockResolvedValueOnce({
      data: { user: null, session: null },
      error: authError('Token has expired or is invalid'),
    });
    const page = renderPage(<RegisterPage />, '/register?redirect=%2Fprofile%2Finvites%2Faccept%3Ftoken%3Dabc');
    await fillRegister();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Code'), '111111');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Token has expired or is invalid');
    await user.clear(screen.getByLabelText('Code'));
    await user.type(screen.getByLabelText('Code'), '204815');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(page.location()).toBe('/profile/invites/accept?token=abc'));
  });

  it("shows a weak password's reasons", async () => {
    fakeAuth.auth.signUp.mockResolvedValueOnce({
      data: { user: null, session: null },
      error: authError('Password is known to be weak and easy to guess, please choose a different one.', {
        code: 'weak_password',
        reasons: ['pwned'],
      }),
    });
    renderPage(<RegisterPage />, '/register');
    await fillRegister('password1');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Password is known to be weak and easy to guess, please choose a different one: ' +
        'choose a password that is not on lists of common passwords.',
    );
  });

  it("falls back to 'Registration failed'", async () => {
    fakeAuth.auth.signUp.mockResolvedValueOnce({ data: { user: null, session: null }, error: authError('') });
    renderPage(<RegisterPage />, '/register');
    await fillRegister();
    expect((await screen.findByRole('alert')).textContent).toBe('Registration failed');
  });

  it('checks the password length before asking the service', async () => {
    renderPage(<RegisterPage />, '/register');
    await fillRegister('short');
    expect(await screen.findByText('Use at least 8 characters.')).toBeTruthy();
    expect(fakeAuth.auth.signUp).not.toHaveBeenCalled();
  });
});

describe('/forgot-password', () => {
  it('asks for a link back to the new-password page, and says the same whatever the address', async () => {
    renderPage(<ForgotPasswordPage />, '/forgot-password');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('E-mail'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    expect((await screen.findByRole('status')).textContent).toContain('If an account uses that address');
    expect(fakeAuth.auth.resetPasswordForEmail).toHaveBeenCalledWith('ada@example.com', {
      redirectTo: `${window.location.origin}/auth/callback?next=%2Fauth%2Freset`,
    });
  });

  it("falls back to 'Reset failed'", async () => {
    fakeAuth.auth.resetPasswordForEmail.mockResolvedValueOnce({ data: null, error: authError('') });
    renderPage(<ForgotPasswordPage />, '/forgot-password');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('E-mail'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Reset failed');
  });
});

describe('/auth/reset', () => {
  async function fillReset(password: string, repeat = password) {
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New password'), password);
    await user.type(screen.getByLabelText('Repeat the new password'), repeat);
    await user.click(screen.getByRole('button', { name: 'Save the new password' }));
  }

  it('saves the new password', async () => {
    signIn();
    renderPage(<ResetPage />, '/auth/reset');
    await fillReset('New-Stitch-9931');
    expect((await screen.findByRole('status')).textContent).toContain('Your new password is saved');
    expect(fakeAuth.auth.updateUser).toHaveBeenCalledWith({ password: 'New-Stitch-9931' });
  });

  it('catches a typo in the repeat', async () => {
    renderPage(<ResetPage />, '/auth/reset');
    await fillReset('New-Stitch-9931', 'New-Stitch-9932');
    expect(await screen.findByText('The two passwords differ.')).toBeTruthy();
    expect(fakeAuth.auth.updateUser).not.toHaveBeenCalled();
  });

  it('says when the link is too old to set a password without the current one', async () => {
    fakeAuth.auth.updateUser.mockResolvedValueOnce({
      data: { user: null },
      error: authError('Enter your current password to change your password or e-mail address.', {
        code: 'current_password_required',
      }),
    });
    renderPage(<ResetPage />, '/auth/reset');
    await fillReset('New-Stitch-9931');
    expect((await screen.findByRole('alert')).textContent).toBe('This reset link was opened more than 10 minutes ago: ask for a new link.');
    expect(screen.getByRole('link', { name: 'Ask for a new reset link' }).getAttribute('href')).toBe('/forgot-password');
  });

  it("falls back to 'Password update failed'", async () => {
    fakeAuth.auth.updateUser.mockResolvedValueOnce({ data: { user: null }, error: authError('') });
    renderPage(<ResetPage />, '/auth/reset');
    await fillReset('New-Stitch-9931');
    expect((await screen.findByRole('alert')).textContent).toBe('Password update failed');
  });
});

describe('/auth/callback', () => {
  it('exchanges the code, then goes on to `next`', async () => {
    fakeAuth.auth.exchangeCodeForSession.mockImplementationOnce(async () => {
      signIn();
      return { data: { session: fakeAuth.session }, error: null };
    });
    const page = renderPage(<CallbackPage />, '/auth/callback?next=%2Fauth%2Fconfirm&code=abc');
    await waitFor(() => expect(page.location()).toBe('/auth/confirm'));
    expect(fakeAuth.auth.exchangeCodeForSession).toHaveBeenCalledWith('abc');
    expect(fakeAuth.auth.exchangeCodeForSession).toHaveBeenCalledTimes(1);
  });

  it('never goes on to another site', async () => {
    fakeAuth.auth.exchangeCodeForSession.mockImplementationOnce(async () => {
      signIn();
      return { data: { session: fakeAuth.session }, error: null };
    });
    const page = renderPage(<CallbackPage />, '/auth/callback?next=https%3A%2F%2Fevil.example&code=def');
    await waitFor(() => expect(page.location()).toBe('/dashboard'));
  });

  it("shows the service's error_description", async () => {
    renderPage(
      <CallbackPage />,
      '/auth/callback?error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired',
    );
    expect((await screen.findByRole('alert')).textContent).toBe('Email link is invalid or has expired');
    expect(fakeAuth.auth.exchangeCodeForSession).not.toHaveBeenCalled();
  });

  it("falls back to 'OAuth failed'", async () => {
    fakeAuth.auth.exchangeCodeForSession.mockResolvedValueOnce({ data: { session: null }, error: authError('') });
    renderPage(<CallbackPage />, '/auth/callback?code=ghi');
    expect((await screen.findByRole('alert')).textContent).toBe('OAuth failed');
  });

  it("says 'OAuth failed' for a bare error", async () => {
    renderPage(<CallbackPage />, '/auth/callback?error=server_error');
    expect((await screen.findByRole('alert')).textContent).toBe('OAuth failed');
  });

  it("says 'OAuth failed' with no code and no session", async () => {
    renderPage(<CallbackPage />, '/auth/callback?next=%2Fprofile');
    expect((await screen.findByRole('alert')).textContent).toBe('OAuth failed');
  });
});
