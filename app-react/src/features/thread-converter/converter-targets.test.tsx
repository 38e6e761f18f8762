// The converter's target lines: where they start (docs/behaviour.md, "Team settings": the
// preferred line), over a stand-in catalogue, which is why they have a file of their own (the
// real catalogue runs in converter-page.test.tsx, core.test.ts and end2end).
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { renderPage } from '@/test/render';

import { ThreadConverterPage } from './converter-page';

vi.mock('@/lib/core', async () => {
  const { queryOptions } = await import('@tanstack/react-query');
  const line = (id: string, display_name: string, kind = 'thread') => ({ id, display_name, kind, thread_count: 1 });
  const lines = [
    line('gunold-polyester', 'Gunold Polyester'),
    line('isacord-polyester', 'Isacord Polyester'),
    line('madeira-polyneon', 'Madeira Polyneon'),
    line('sulky-rayon', 'Sulky Rayon'),
    line('pantone', 'Pantone', 'reference'),
  ];
  return { converterQueryOptions: queryOptions({ queryKey: ['core', 'converter'], queryFn: async () => ({ lines: () => lines }) }) };
});

/** The lines of the chips, each shown as "<line> ×" and named "Remove <line>". */
const chosenLines = async () =>
  within(await screen.findByRole('list', { name: 'Chosen lines' }))
    .getAllByRole('button', { name: /^Remove / })
    .map((chip) => chip.textContent.replace(/^Remove | ×$/g, ''));

describe("the converter's target lines", () => {
  it("are the team's preferred line until others are chosen", async () => {
    const { location } = renderPage(<ThreadConverterPage preferredLine="gunold-polyester" />, '/tools/thread-converter');
    expect(await chosenLines()).toEqual(['Gunold Polyester']);
    await userEvent.setup().click(screen.getByRole('checkbox', { name: /Sulky Rayon/ }));
    expect(await chosenLines()).toEqual(['Gunold Polyester', 'Sulky Rayon']);
    expect(location()).toBe('/tools/thread-converter?to=gunold-polyester%2Csulky-rayon');
  });

  it('are the usual three without a preferred line', async () => {
    renderPage(<ThreadConverterPage />, '/tools/thread-converter');
    expect(await chosenLines()).toEqual(['Madeira Polyneon', 'Isacord Polyester', 'Sulky Rayon']);
  });

  it('are those of a shared link, whatever the team prefers', async () => {
    renderPage(<ThreadConverterPage preferredLine="gunold-polyester" />, '/tools/thread-converter?to=sulky-rayon');
    expect(await chosenLines()).toEqual(['Sulky Rayon']);
  });
});
