import { act, render, screen } from '@testing-library/react';

import { Toaster, notify } from './toast';
import { TOAST_AUTO_CLOSE_MS } from './toaster';

describe('Toaster', () => {
  it('times a toast to close after 1000 ms, not the library default of 5000 ms', async () => {
    render(<Toaster />);

    act(() => {
      notify.success('Invite sent successfully!');
    });

    expect(await screen.findByText('Invite sent successfully!')).toBeTruthy();
    expect(TOAST_AUTO_CLOSE_MS).toBe(1000);
    // react-toastify closes the toast when its progress bar's CSS animation ends.
    const progress = await screen.findByRole('progressbar', { hidden: true });
    expect(progress.style.animationDuration).toBe('1000ms');
  });
});
