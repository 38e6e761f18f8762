import { onlineManager } from '@tanstack/react-query';

import { beforeGoingOnline, followConnection } from './online';

// The issue: "Sessions survive a dropped connection ... it retries when the connection returns",
// and kept writes are "sent in order when the connection returns": the session's refresh comes
// first, so no write goes out with an access token that expired offline.
describe('the connection', () => {
  it('follows the browser from the start, and counts as back only once the session is refreshed', async () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    let refreshed: () => void = () => {};
    const refresh = vi.fn(() => new Promise<void>((resolve) => (refreshed = resolve)));
    beforeGoingOnline(refresh);
    followConnection();
    // A page opened without a connection starts offline: its writes wait rather than fail.
    expect(onlineManager.isOnline()).toBe(false);

    onLine.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(onlineManager.isOnline()).toBe(false);
    refreshed();
    await vi.waitFor(() => expect(onlineManager.isOnline()).toBe(true));

    onLine.mockReturnValue(false);
    window.dispatchEvent(new Event('offline'));
    expect(onlineManager.isOnline()).toBe(false);
    vi.restoreAllMocks();
  });
});
