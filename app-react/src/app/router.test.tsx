import { render, screen } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';

import { AppProvider } from './provider';

// The WebAssembly core runs in the browser tests (end2end); here it is a stand-in.
vi.mock('@/lib/core', async () => {
  const { queryOptions } = await import('@tanstack/react-query');
  return {
    coreQueryOptions: queryOptions({ queryKey: ['core'], queryFn: async () => ({ version: '0.0.0-test' }) }),
  };
});
import { routes } from './router';

function renderAt(path: string, environment: 'development' | 'staging' | 'production' = 'production') {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <AppProvider config={{ environment, version: '9.9.9' }}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return router;
}

describe('routes', () => {
  it("titles the landing page 'Bobbin - Home'", async () => {
    renderAt('/');
    expect(await screen.findByRole('heading', { level: 1 })).toBeTruthy();
    expect(document.title).toBe('Bobbin - Home');
  });

  it("answers an unmatched path with 'Page not found: {path}' inside the default layout", async () => {
    renderAt('/no/such/page');
    expect(await screen.findByText('Page not found: /no/such/page')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Page Not Found' })).toBeTruthy();
    // Non-fatal: the layout (header with the home link, footer) is still there.
    expect(screen.getByRole('link', { name: 'Bobbin home' })).toBeTruthy();
    expect(screen.getByRole('contentinfo')).toBeTruthy();
  });

  it('sends /reset on to the new-password page', async () => {
    const router = renderAt('/reset');
    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/auth/reset');
  });

  it('shows the breakpoint helper in development only', async () => {
    renderAt('/', 'development');
    expect(await screen.findByTestId('breakpoint-helper')).toBeTruthy();
  });

  it('hides the breakpoint helper and the banner in production', async () => {
    renderAt('/', 'production');
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByTestId('breakpoint-helper')).toBeNull();
    expect(screen.queryByRole('note', { name: 'Environment' })).toBeNull();
  });

  it('shows the server version and the core version in the footer', async () => {
    renderAt('/');
    expect(await screen.findByText('Bobbin 9.9.9')).toBeTruthy();
    expect(await screen.findByText('core 0.0.0-test')).toBeTruthy();
  });
});
