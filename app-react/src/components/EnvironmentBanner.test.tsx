import { render, screen } from '@testing-library/react';

import { EnvironmentBanner } from './EnvironmentBanner';

describe('EnvironmentBanner', () => {
  it("says 'Development' in development", () => {
    render(<EnvironmentBanner environment="development" />);
    expect(screen.getByRole('note', { name: 'Environment' }).textContent).toBe('Development');
  });

  it("says 'Staging' in staging", () => {
    render(<EnvironmentBanner environment="staging" />);
    expect(screen.getByRole('note', { name: 'Environment' }).textContent).toBe('Staging');
  });

  it('is hidden in production', () => {
    const { container } = render(<EnvironmentBanner environment="production" />);
    expect(container.innerHTML).toBe('');
  });
});
