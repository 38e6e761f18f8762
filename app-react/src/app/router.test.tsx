import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { type Location, MemoryRouter, type NavigateFunction, type RouteObject, useNavigate } from 'react-router';

import { fakeAuth, fakeSession, resetFakeAuth, signIn } from '@/test/fake-auth';

import { teamStore } from '@/features/teams/store';
import { anInvite } from '@/features/teams/test-data';

import { pageRoutes } from '@/config/paths';
import { buildState } from '@/lib/builds';

import { pageLoad, resetPendingInvitesGuard } from './guards';
import { AppProvider } from './provider';
import { AppRoutes, createRoutes } from './router';

// The WebAssembly core runs in the browser tests (end2end); here it is a stand-in.
vi.mock('@/lib/core', async () => {
  const { queryOptions } = await import('@tanstack/react-query');
  return {
    coreQueryOptions: queryOptions({ queryKey: ['core'], queryFn: async () => ({ version: '0.0.0-test' }) }),
    // The pricing page's core never loads here: the page shows its title and waits.
    pricingQueryOptions: queryOptions({ queryKey: ['core', 'pricing'], queryFn: () => new Promise<never>(() => {}) }),
  };
});
vi.mock('@supabase/ssr', async () => (await import('@/test/fake-auth')).fakeSsrModule);

const profile = {
  id: 'user-1',
  email: 'ada@example.com',
  full_name: 'Ada Lovelace',
  default_team_pid: null,
  created_at: '2026-11-01T10:00:00Z',
};

const team = {
  id: 'team-uuid',
  public_id: 'tm_ada',
  name: "ada@example.com's Team",
  role: 'owner',
  member_count: 1,
  created_at: '2026-11-01T10:00:00Z',
};

/** What the build manifest says in a test (the page names its build only where a test adds it). */
let latestBuild = { id: 'build-1', timestamp: 0 };
const routeRules = {
  '/tools': { redirect: '/calculators' },
  '/help': { redirect: 'https://help.example/bobbin' },
};

/** What GET /api/v2/users/me/invites answers in a test. */
let myInvites: unknown[] = [];
/** Holds GET /api/v2/teams back until it resolves, when a test sets it. */
let teamsAnswer: Promise<void> | undefined;

beforeEach(() => {
  resetFakeAuth();
  resetPendingInvitesGuard();
  teamStore.getState().reset();
  myInvites = [];
  teamsAnswer = undefined;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === '/api/v2/users/me') return Response.json(profile);
      if (url === '/api/v2/users/me/invites') return Response.json({ invites: myInvites });
      if (url === '/api/v2/teams') {
        await teamsAnswer;
        return Response.json({ teams: [team] });
      }
      if (url === `/api/v2/teams/${team.public_id}`) return Response.json({ team });
      if (url.endsWith('/settings')) return Response.json({ settings: {} });
      if (url.endsWith('/members')) return Response.json({ members: [] });
      if (url === '/auth/v1/settings') return Response.json({ external: { email: true, github: false } });
      if (url === '/builds/latest.json') return Response.json(latestBuild);
      if (url === '/builds/meta/build-1.json') return Response.json({ id: 'build-1', timestamp: 0, routes: [], routeRules });
      throw new Error(`unexpected fetch ${url}`);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The app at `path` in a memory router: where its page is (once shown), and a way to navigate. */
interface App {
  shown: Location | undefined;
  navigate: NavigateFunction;
}

function renderAt(path: string, environment: 'development' | 'staging' | 'production' = 'production') {
  const app: App = { shown: undefined, navigate: () => Promise.resolve() };
  function Navigator() {
    app.navigate = useNavigate();
    return null;
  }
  // In StrictMode, as src/main.tsx renders the app: React runs each effect twice on mounting.
  render(
    <StrictMode>
      <AppProvider config={{ environment, version: '9.9.9' }}>
        <MemoryRouter initialEntries={[path]} useTransitions={false}>
          <Navigator />
          <AppRoutes onSettled={(location) => (app.shown = location)} />
        </MemoryRouter>
      </AppProvider>
    </StrictMode>,
  );
  return app;
}

/** Where the page on screen is: its path and query. */
const where = (app: App) => (app.shown ? app.shown.pathname + app.shown.search : undefined);

describe('routes', () => {
  it('are the page routes the build hands the server (which answers other page paths 404)', () => {
    const pathsOf = (routes: RouteObject[]): string[] =>
      routes.flatMap((route) => [
        ...(route.index ? ['/'] : route.path && route.path !== '*' ? [route.path] : []),
        ...pathsOf(route.children ?? []),
      ]);
    const routed = pathsOf(createRoutes());
    expect([...routed].sort()).toEqual([...pageRoutes].sort());
  });

  it("titles the landing page 'Bobbin - Home'", async () => {
    renderAt('/');
    expect(await screen.findByRole('heading', { level: 1 })).toBeTruthy();
    expect(document.title).toBe('Bobbin - Home');
  });

  // Issue 52: "The landing page has a clear call to action."
  it('leads a visitor from the landing page to sign up or log in, and someone signed in to the dashboard', async () => {
    renderAt('/');
    const hero = within(await screen.findByRole('region', { name: 'Every spool, machine and quote in one place' }));
    expect(hero.getByRole('link', { name: 'Start free: create your team' }).getAttribute('href')).toBe('/register');
    expect(hero.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login');
    cleanup();
    signIn();
    renderAt('/');
    const signedIn = within(await screen.findByRole('region', { name: 'Every spool, machine and quote in one place' }));
    expect((await signedIn.findByRole('link', { name: 'Open your dashboard' })).getAttribute('href')).toBe('/dashboard');
    expect(signedIn.queryByRole('link', { name: 'Start free: create your team' })).toBeNull();
  });

  it("answers an unmatched path with 'Page not found: {path}' inside the default layout", async () => {
    signIn();
    renderAt('/no/such/page');
    expect(await screen.findByText('Page not found: /no/such/page')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Page Not Found' })).toBeTruthy();
    // Non-fatal: the layout (header with the brand, footer) is still there.
    expect(screen.getByRole('link', { name: 'Bobbin dashboard' })).toBeTruthy();
    expect(screen.getByRole('contentinfo')).toBeTruthy();
  });

  it('shows the breakpoint helper in development only', async () => {
    renderAt('/', 'development');
    expect(await screen.findByTestId('breakpoint-helper')).toBeTruthy();
  });

  it('hides the breakpoint helper and the banner in production', async () => {
    renderAt('/', 'production');
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByTestId('breakpoint-helper')).toBeNull();
    expect(screen.queryByRole('complementary', { name: 'Environment' })).toBeNull();
  });

  it('shows the server version and the core version in the footer', async () => {
    renderAt('/');
    expect(await screen.findByText('Bobbin 9.9.9')).toBeTruthy();
    expect(await screen.findByText('core 0.0.0-test')).toBeTruthy();
  });
});

// The spec: "A route may carry a validation rule; on failure it gives a fatal error with status 404
// and message 'Page Not Found: {fullPath}'", and route validation is the first guard.
describe('route validation', () => {
  it.each([
    '/inventory/threads/not-an-id',
    '/inventory/machines/x%27%3B--',
    '/inventory/threads/AbCdEfGh1234567?tab=log',
    '/calculators/pricing?quote=1',
  ])("refuses %s with the fatal 'Page Not Found: {fullPath}'", async (path) => {
    signIn();
    renderAt(path);
    expect(await screen.findByText(`Page Not Found: ${path}`, {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Page Not Found' })).toBeTruthy();
    // Fatal: the error page stands in place of the whole page, without the layout.
    expect(screen.queryByRole('contentinfo')).toBeNull();
  });

  it('runs before the login guard: a visitor gets the 404, and the login page for a valid id', async () => {
    const refused = renderAt('/inventory/machines/nope');
    expect(await screen.findByText('Page Not Found: /inventory/machines/nope')).toBeTruthy();
    expect(where(refused)).toBe('/inventory/machines/nope');

    const valid = renderAt('/inventory/machines/AbCdEfGh12345678');
    await waitFor(() => expect(where(valid)).toBe('/login?redirect=%2Finventory%2Fmachines%2FAbCdEfGh12345678'));
  });
});

// The spec: "4. Route-rule redirects from a build manifest; an external target causes a full page
// load", after the other three guards; and "the application polls a latest-build manifest".
describe('the build manifest', () => {
  beforeEach(() => {
    document.head.insertAdjacentHTML('beforeend', '<meta name="bobbin-build" content="build-1">');
    latestBuild = { id: 'build-1', timestamp: 0 };
    vi.spyOn(pageLoad, 'replace').mockImplementation(() => {});
  });

  afterEach(() => {
    document.head.querySelector('meta[name="bobbin-build"]')?.remove();
    buildState.setState({ newBuild: null });
    vi.mocked(pageLoad.replace).mockRestore();
  });

  it("sends an old path to its rule's target, the query kept (guard 4)", async () => {
    signIn();
    const app = renderAt('/tools/?from=bookmark');
    await waitFor(() => expect(where(app)).toBe('/calculators?from=bookmark'));
    expect(await screen.findByRole('heading', { name: 'Calculators' })).toBeTruthy();
  });

  it('applies the rules after the login guard: a visitor logs in first, to come back to the old path', async () => {
    const app = renderAt('/tools');
    await waitFor(() => expect(where(app)).toBe('/login?redirect=%2Ftools'));
  });

  it('applies the rules after the pending-invites guard', async () => {
    signIn();
    myInvites = [anInvite('inv_1')];
    const app = renderAt('/tools');
    await waitFor(() => expect(where(app)).toBe('/profile?tab=invites'));
  });

  it('loads a target on another site as a full page', async () => {
    signIn();
    renderAt('/help');
    await waitFor(() => expect(pageLoad.replace).toHaveBeenCalledWith('https://help.example/bobbin'));
  });

  it('offers a reload once a newer build is out, and makes the next navigation a full page load', async () => {
    signIn();
    latestBuild = { id: 'build-2', timestamp: 1 };
    const app = renderAt('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
    expect(await screen.findByText('A new version of Bobbin is out.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();

    // The navigation waits for the full page load, which jsdom does not do.
    void app.navigate('/team');
    await waitFor(() => expect(pageLoad.replace).toHaveBeenCalledWith(expect.stringMatching(/^http:\/\/[^/]+\/team$/)));
    expect(where(app)).toBe('/dashboard');
    expect(screen.getByRole('heading', { name: 'Dashboard' })).toBeTruthy();
  });
});

describe('the login guard', () => {
  it('shows a logged-out visitor the landing page without loading the auth client', async () => {
    renderAt('/');
    expect(await screen.findByRole('navigation', { name: 'Account' })).toBeTruthy();
    expect(within(screen.getByRole('navigation', { name: 'Account' })).getByRole('link', { name: 'Log in' })).toBeTruthy();
    expect(fakeAuth.created).toBe(0);
  });

  it('sends a logged-out visitor to the login page, keeping the page asked for', async () => {
    const app = renderAt('/profile?tab=security');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeTruthy();
    expect(where(app)).toBe('/login?redirect=%2Fprofile%3Ftab%3Dsecurity');
    expect(document.title).toBe('Bobbin - Login');
  });

  it('lets a signed-in person in, and the header names them', async () => {
    signIn();
    const app = renderAt('/profile');
    expect(await screen.findByRole('button', { name: 'Account: Ada Lovelace' })).toBeTruthy();
    expect(where(app)).toBe('/profile');
  });

  it("leads a signed-in person to the app's places from the header", async () => {
    signIn();
    const app = renderAt('/profile');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Dashboard', 'Inventory', 'Designs', 'Quotes', 'Jobs', 'Tools', 'Team']);
    await userEvent.setup().click(within(nav).getByRole('link', { name: 'Inventory' }));
    await waitFor(() => expect(where(app)).toBe('/inventory'));
    expect(await screen.findByRole('heading', { name: 'Calculators' })).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'Inventory' }).getAttribute('aria-current')).toBe('page');
  });

  it('opens the account menu with its button, counts pending invites, and closes it on Escape', async () => {
    myInvites = [anInvite('inv_1')];
    signIn();
    renderAt('/dashboard');
    const user = userEvent.setup();
    const button = await screen.findByRole('button', { name: 'Account: Ada Lovelace (1 pending invite)' });
    const menu = screen.getByRole('navigation', { name: 'Account' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(within(menu).queryByRole('link', { name: 'Profile' })).toBeNull();

    await user.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(within(menu).getByRole('link', { name: 'Profile' }).getAttribute('href')).toBe('/profile');
    expect(within(menu).getByRole('link', { name: 'My Invites (1 pending)' }).getAttribute('href')).toBe('/profile?tab=invites');
    expect(within(menu).getByRole('button', { name: 'Sign out' })).toBeTruthy();

    await user.tab();
    expect(document.activeElement).toBe(within(menu).getByRole('link', { name: 'Profile' }));
    await user.keyboard('{Escape}');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
  });

  it('does not count a session still waiting for its second-factor code', async () => {
    signIn(fakeSession({ factors: [{ id: 'f1', status: 'verified' }] }));
    fakeAuth.aal = { currentLevel: 'aal1', nextLevel: 'aal2' };
    const app = renderAt('/profile');
    // The login page asks for the code, not the password.
    expect(await screen.findByLabelText('Code')).toBeTruthy();
    expect(where(app)).toBe('/login?redirect=%2Fprofile');
  });

  it('sends /reset to the new-password page when signed in, else to the page that e-mails a link', async () => {
    const app = renderAt('/reset');
    expect(await screen.findByRole('heading', { name: 'Forgot Password' })).toBeTruthy();
    expect(where(app)).toBe('/forgot-password');
  });

  it('sends a signed-in /reset to the new-password page', async () => {
    signIn();
    const app = renderAt('/reset');
    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeTruthy();
    expect(where(app)).toBe('/auth/reset');
  });
});

describe('the profile page', () => {
  beforeEach(() => {
    signIn();
  });

  it("has the breadcrumb 'Profile', with the tab asked for in brackets", async () => {
    renderAt('/profile?tab=invites');
    const crumb = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(crumb.textContent).toBe('Profile (My Invites)');
    expect(document.title).toBe('Bobbin - Profile (My Invites)');
    expect(screen.getByRole('tab', { name: 'My Invites', selected: true })).toBeTruthy();
  });

  it('shows the profile tab, and a plain breadcrumb, for no tab or an unknown one', async () => {
    renderAt('/profile?tab=nope');
    expect((await screen.findByRole('navigation', { name: 'Breadcrumb' })).textContent).toBe('Profile');
    expect(screen.getByRole('tab', { name: 'Profile', selected: true })).toBeTruthy();
    expect(await screen.findByText('Ada Lovelace', { selector: 'dd' })).toBeTruthy();
  });

  it('puts the chosen tab in the address', async () => {
    const app = renderAt('/profile');
    const security = await screen.findByRole('tab', { name: 'Security' });
    // Radix switches tabs on mouse down (and on focus with the keyboard).
    security.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, button: 0 }));
    await waitFor(() => expect(where(app)).toBe('/profile?tab=security'));
    // The address changes when the navigation's loaders are done; the page re-renders after.
    await waitFor(() => expect(screen.getByRole('navigation', { name: 'Breadcrumb' }).textContent).toBe('Profile (Security)'));
    expect(await screen.findByRole('heading', { name: 'Authenticator apps' })).toBeTruthy();
  });
});

describe('the pending-invites guard', () => {
  const invite = anInvite('inv_1');

  it('sends a signed-in person with pending invites to /profile?tab=invites, where they are listed', async () => {
    signIn();
    myInvites = [invite];
    const app = renderAt('/dashboard');
    expect(await screen.findByRole('button', { name: 'Accept the invite to Stitch Shop' })).toBeTruthy();
    expect(where(app)).toBe('/profile?tab=invites');
    expect(teamStore.getState().myInvites).toEqual([invite]);
  });

  it('leaves the invite link alone', async () => {
    signIn();
    myInvites = [invite];
    const app = renderAt('/profile/invites/accept');
    expect(await screen.findByRole('heading', { name: 'Join a team' })).toBeTruthy();
    expect(where(app)).toBe('/profile/invites/accept');
  });

  it('lets a person without invites through', async () => {
    signIn();
    const app = renderAt('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
    expect(where(app)).toBe('/dashboard');
    expect(document.title).toBe('Bobbin - Dashboard');
  });
});

describe('the teams in the default layout', () => {
  it('shows the current team on the dashboard and in the header switcher', async () => {
    signIn();
    renderAt('/dashboard');
    const switcher = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Team' });
    await waitFor(() => expect(switcher.value).toBe('tm_ada'));
    expect(await screen.findByText("ada@example.com's Team", { selector: 'strong' })).toBeTruthy();
  });

  it('leads from the dashboard to the thread inventory and the machines', async () => {
    signIn();
    renderAt('/dashboard');
    const tools = await screen.findByRole('region', { name: 'Tools' });
    expect(
      within(tools)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Thread Inventory', '/inventory/threads'],
      ['Machines', '/inventory/machines'],
      ['Pricing Calculator', '/calculators/pricing'],
      ['Thread converter', '/tools/thread-converter'],
      ['Team', '/team'],
      ['Your account', '/profile'],
    ]);
  });

  it('leads from /calculators to the pricing calculator, its own page', async () => {
    signIn();
    renderAt('/calculators');
    expect(await screen.findByRole('heading', { name: 'Calculators' })).toBeTruthy();
    expect(document.title).toBe('Bobbin - Calculators');
    expect(
      screen
        .getAllByRole('link')
        .filter((link) => link.closest('main'))
        .map((link) => link.textContent),
    ).toEqual(['Pricing Calculator', 'Thread converter', 'Thread Inventory', 'Machines']);
    await userEvent.click(screen.getByRole('link', { name: 'Pricing Calculator' }));
    expect(await screen.findByRole('heading', { name: 'Pricing Calculator' })).toBeTruthy();
    expect(document.title).toBe('Bobbin - Pricing Calculator');
  });

  it('shows the loading bar while an API call runs, and not after', async () => {
    signIn();
    let answer = () => {};
    teamsAnswer = new Promise((resolve) => (answer = resolve));
    renderAt('/dashboard');
    expect(await screen.findByRole('progressbar', { name: 'Loading' })).toBeTruthy();
    answer();
    await waitFor(() => expect(screen.queryByRole('progressbar', { name: 'Loading' })).toBeNull());
  });
});
