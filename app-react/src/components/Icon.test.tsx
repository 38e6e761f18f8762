import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, waitFor } from '@testing-library/react';

import { Icon } from './Icon';

afterEach(() => {
  vi.unstubAllGlobals();
});

// The spec: "Failed fetches are retried up to 3 times" (icons among them), and icons come from
// Bobbin's own icon endpoint.
it('fetches its icon from Bobbin, again up to 3 times when it fails, and draws it as a mask', async () => {
  let tries = 0;
  const fetched: string[] = [];
  vi.stubGlobal('fetch', async (url: string) => {
    fetched.push(url);
    tries += 1;
    if (tries < 4) return new Response('Bad gateway', { status: 502 });
    return new Response('<svg xmlns="http://www.w3.org/2000/svg"><path d="M4 5h16"/></svg>', {
      headers: { 'content-type': 'image/svg+xml' },
    });
  });
  const queryClient = new QueryClient();
  const { container } = render(
    <QueryClientProvider client={queryClient}>
      <Icon name="menu" size={24} />
    </QueryClientProvider>,
  );
  const icon = container.querySelector<HTMLElement>('.icon');
  expect(icon?.style.getPropertyValue('--icon-size')).toBe('1.5rem');
  expect(icon?.getAttribute('aria-hidden')).toBe('true');
  // Until it arrives, an empty box rather than a square of the text's colour.
  expect(icon?.classList.contains('icon--pending')).toBe(true);
  // After the retries' waits: 250, 500 and 1,000 ms.
  await waitFor(() => expect(icon?.style.getPropertyValue('--icon')).toMatch(/^url\("data:image\/svg\+xml,%3Csvg/), { timeout: 5000 });
  expect(icon?.classList.contains('icon--pending')).toBe(false);
  expect(fetched).toEqual(Array(4).fill('/icons/lucide/menu.svg'));
});
