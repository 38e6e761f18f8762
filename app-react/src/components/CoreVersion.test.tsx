import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';

import { CoreVersion } from './CoreVersion';

const loadCore = vi.hoisted(() => vi.fn(async () => ({ version: '1.2.3' })));
vi.mock('@/lib/core', async () => {
  const { queryOptions } = await import('@tanstack/react-query');
  return { coreQueryOptions: queryOptions({ queryKey: ['core'], queryFn: loadCore }) };
});

describe('CoreVersion', () => {
  let idleCallbacks: IdleRequestCallback[];

  beforeEach(() => {
    idleCallbacks = [];
    loadCore.mockClear();
    vi.stubGlobal('requestIdleCallback', (callback: IdleRequestCallback) => idleCallbacks.push(callback));
    vi.stubGlobal('cancelIdleCallback', () => {});
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('fetches the WebAssembly core only once the page is idle, then shows its version', async () => {
    const { unmount } = render(
      <QueryClientProvider client={new QueryClient()}>
        <CoreVersion />
      </QueryClientProvider>,
    );
    expect(idleCallbacks).toHaveLength(1);
    expect(loadCore).not.toHaveBeenCalled();
    expect(screen.getByTestId('core-version').textContent).toBe('\u00a0');

    act(() => {
      for (const callback of idleCallbacks) callback({ didTimeout: false, timeRemaining: () => 50 });
    });

    expect(await screen.findByText('core 1.2.3')).toBeTruthy();
    expect(loadCore).toHaveBeenCalledTimes(1);
    unmount();
  });
});
