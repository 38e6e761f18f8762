import { render, screen } from '@testing-library/react';

import { EnvironmentBanner } from './EnvironmentBanner';

describe('EnvironmentBanner', () => {
  it("says 'Development' in development, in a landmark of its own", () => {
    render(<EnvironmentBanner environment="development" />);
    const banner = screen.getByRole('complementary', { name: 'Environment' });
    expect(banner.textContent).toBe('Development');
    expect(banner.className).toBe('env-banner env-banner--development');
  });

  it("says 'Staging' in staging", () => {
    render(<EnvironmentBanner environment="staging" />);
    expect(screen.getByRole('complementary', { name: 'Environment' }).textContent).toBe('Staging');
  });

  it('is hidden in production', () => {
    const { container } = render(<EnvironmentBanner environment="production" />);
    expect(container.innerHTML).toBe('');
  });
});
