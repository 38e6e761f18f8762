import { readFileSync } from 'node:fs';
import path from 'node:path';

import { render, screen } from '@testing-library/react';

import { LOADING_TEXT, LOADING_TITLE, LoadingOverlay } from './LoadingOverlay';

describe('LoadingOverlay', () => {
  it('shows its two texts', () => {
    render(<LoadingOverlay />);
    expect(LOADING_TITLE).toBe('Loading...');
    expect(LOADING_TEXT).toBe("This may take a few seconds, please don't close this page.");
    const overlay = screen.getByRole('status');
    expect(overlay.textContent).toContain('Loading...');
    expect(overlay.textContent).toContain("This may take a few seconds, please don't close this page.");
  });

  it('has the same markup as the static overlay in index.html, shown before the app starts', () => {
    const html = readFileSync(path.resolve(import.meta.dirname, '../../index.html'), 'utf8');
    const { container } = render(<LoadingOverlay />);
    const normalise = (markup: string) => markup.replace(/\s+/g, ' ').replace(/> </g, '><').replace(/ \/>/g, '>');
    const staticOverlay = /<div class="loading-overlay"[\s\S]*?<\/p>\s*<\/div>/.exec(html)?.[0] ?? '';
    expect(staticOverlay).not.toBe('');
    expect(normalise(staticOverlay)).toBe(normalise(container.innerHTML));
  });
});
