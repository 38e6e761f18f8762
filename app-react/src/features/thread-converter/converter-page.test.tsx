// The converter page over the real WebAssembly core and catalogue (crates/wasm/pkg, built by
// `make`) and a fake product API for "only threads we own": what a shared link opens, how each
// match names its thread, and what the page says when nothing the team owns is close.
import { readFile } from 'node:fs/promises';

import { screen, within } from '@testing-library/react';

import { loadConverter } from '@/lib/core';
import { fakeApi } from '@/test/fake-api';
import { renderPage } from '@/test/render';

import { ThreadConverterPage } from './converter-page';

beforeAll(async () => {
  // In tests the imported .wasm and .bin URLs are file paths (vitest.config.ts): serve them from
  // disk once; the loaded converter is then shared by every test.
  vi.stubGlobal('fetch', async (url: string | URL) => {
    const file = String(url);
    const type = file.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream';
    return new Response(await readFile(file), { headers: { 'content-type': type } });
  });
  await loadConverter();
  vi.unstubAllGlobals();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const PAGE = '/tools/thread-converter';

/** The team owns Isacord 1902 Poinsettia (a red) and 0015 White: nothing close to a black. */
function ownedServer(
  threads = [
    { line: 'isacord-polyester', code: '1902', quantity: 2 },
    { line: 'isacord-polyester', code: '0015', quantity: 5 },
  ],
) {
  return fakeApi({ 'GET /teams/tm_shop/threads/owned': () => Response.json({ threads }) });
}

const lineResults = async (name: string) => screen.findByRole('region', { name });

describe('the thread converter page', () => {
  it('fills in the source from a shared link', async () => {
    renderPage(<ThreadConverterPage />, `${PAGE}?thread=madeira-polyneon:1800&to=isacord-polyester`);
    await lineResults('Isacord Polyester');
    expect(screen.getByLabelText<HTMLInputElement>('Code or colour name').value).toBe('1800');
    expect(screen.getByLabelText<HTMLSelectElement>('In line').value).toBe('madeira-polyneon');
    const chosen = screen.getByRole('button', { pressed: true });
    expect(chosen.textContent).toContain('1800');
    expect(chosen.textContent).toContain('Black');
  });

  it('shows each match by its thread name first, in bold, with the code beside it', async () => {
    renderPage(<ThreadConverterPage />, `${PAGE}?thread=madeira-polyneon:1800&to=isacord-polyester`);
    const best = within(await lineResults('Isacord Polyester')).getAllByRole('listitem')[0];
    // docs/behaviour.md: Madeira Polyneon 1800 Black gives Isacord 0020 Black.
    const name = within(best!).getByText('Black');
    expect(name.tagName).toBe('STRONG');
    expect(name.className).toBe('match__name');
    expect(within(best!).getByText('0020').tagName).not.toBe('STRONG');
  });

  it('says nothing close is in stock and names the closest thread to buy', async () => {
    const server = ownedServer();
    renderPage(<ThreadConverterPage teamId="tm_shop" />, `${PAGE}?thread=madeira-polyneon:1800&to=isacord-polyester&owned=1`);
    const isacord = await lineResults('Isacord Polyester');
    expect(await within(isacord).findByText('Nothing close in stock.')).toBeTruthy();
    const buy = within(isacord).getByRole('group', { name: 'Closest to buy' });
    expect(buy.textContent).toMatch(/Black.*0020/);
    // The threads the team owns are still listed, each a poor match.
    const owned = within(isacord).getAllByRole('listitem');
    expect(owned.map((item) => item.textContent)).toEqual([expect.stringContaining('owned ×'), expect.stringContaining('owned ×')]);
    expect(owned.every((item) => item.textContent.includes('Poor match'))).toBe(true);
    expect(server.callsTo('GET /teams/tm_shop/threads/owned')).toHaveLength(1);
  });

  it('says nothing of buying when a thread the team owns is similar or closer', async () => {
    ownedServer([{ line: 'isacord-polyester', code: '0020', quantity: 1 }]);
    renderPage(<ThreadConverterPage teamId="tm_shop" />, `${PAGE}?thread=madeira-polyneon:1800&to=isacord-polyester&owned=1`);
    const isacord = await lineResults('Isacord Polyester');
    expect((await within(isacord).findAllByRole('listitem')).map((item) => item.textContent)).toEqual([
      expect.stringMatching(/Black.*0020.*owned ×1/),
    ]);
    expect(within(isacord).queryByText('Nothing close in stock.')).toBeNull();
    expect(within(isacord).queryByRole('group', { name: 'Closest to buy' })).toBeNull();
  });

  it('says so when the team owns no thread of a line, and names the closest to buy', async () => {
    ownedServer();
    renderPage(<ThreadConverterPage teamId="tm_shop" />, `${PAGE}?thread=madeira-polyneon:1800&to=sulky-rayon&owned=1`);
    const sulky = await lineResults('Sulky Rayon');
    expect(await within(sulky).findByText('Nothing close in stock.')).toBeTruthy();
    expect(within(sulky).getByRole('group', { name: 'Closest to buy' }).textContent).toMatch(/Black.*1005/);
    expect(within(sulky).queryAllByRole('listitem')).toHaveLength(0);
  });
});
