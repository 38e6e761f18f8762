// The converter page over the real WebAssembly core and catalogue (crates/wasm/pkg, built by
// `make`) and a fake product API for "only threads we own": what a shared link opens, how each
// match names its thread, what the page says when nothing the team owns is close, and the search
// for a thread to convert from, a combobox (WAI-ARIA Authoring Practices, "combobox with listbox
// popup") driven by keyboard and mouse.
import { readFile } from 'node:fs/promises';

import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

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
    // The search shows the code, its list closed until the person types or presses Down.
    const search = screen.getByRole<HTMLInputElement>('combobox', { name: 'Code or colour name' });
    expect(search.value).toBe('1800');
    expect(search.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('listbox', { name: 'Matching threads' })).toBeNull();
    // What it converts from is named beside the results.
    expect(screen.getByText(/Madeira Polyneon 1800/).textContent).toBe('Black Madeira Polyneon 1800');
  });

  it('says which match is the best in words anyone can see', async () => {
    renderPage(<ThreadConverterPage />, `${PAGE}?thread=madeira-polyneon:1800&to=isacord-polyester`);
    const [best, second] = within(await lineResults('Isacord Polyester')).getAllByRole('listitem');
    const label = within(best!).getByText('Best match');
    expect(label.className).toBe('match__best');
    expect(best!.textContent).toMatch(/^Black 0020 Best match/);
    expect(within(second!).queryByText('Best match')).toBeNull();
  });

  // Issue 52: "Where ... a name contradicts its chart colour (Gunold 61449 'Dark Kelly Green'
  // charted near-black ...), the thread is marked as uncertain, and its label is never stronger
  // than 'similar'."
  it('marks a thread whose chart is in doubt, and labels no match from it better than similar', async () => {
    renderPage(<ThreadConverterPage />, `${PAGE}?thread=gunold-polyester:61449&to=madeira-polyneon`);
    const matches = within(await lineResults('Madeira Polyneon')).getAllByRole('listitem');
    expect(screen.getByText(/Gunold Polyester 61449/).textContent).toContain(
      'Colour uncertain: its name says another colour than its chart. No match from it is better than similar.',
    );
    for (const match of matches) expect(match.textContent).toMatch(/(Similar|Poor match) ΔE/);
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

describe("the converter's thread search", () => {
  const search = () => screen.getByRole<HTMLInputElement>('combobox', { name: 'Code or colour name' });
  // Scoped to the list: the selects' options are options too.
  const list = () => screen.getByRole('listbox', { name: 'Matching threads' });
  const noList = () => screen.queryByRole('listbox', { name: 'Matching threads' });
  const options = () => within(list()).getAllByRole('option');
  const highlighted = () => within(list()).getByRole('option', { selected: true });
  const noHighlight = () => within(list()).queryByRole('option', { selected: true });

  it('chooses a thread with the keyboard: type, Down, Enter', async () => {
    const user = userEvent.setup();
    const { location } = renderPage(<ThreadConverterPage />, `${PAGE}?to=madeira-polyneon`);
    await user.selectOptions(await screen.findByLabelText('In line'), 'Isacord Polyester');
    await user.type(search(), '1902');
    expect(search().getAttribute('aria-expanded')).toBe('true');
    expect(search().getAttribute('aria-autocomplete')).toBe('list');
    expect(search().getAttribute('aria-controls')).toBe(list().id);
    expect(options().map((option) => option.textContent)).toEqual(['1902 Poinsettia Isacord Polyester']);
    expect(noHighlight()).toBeNull();

    await user.keyboard('{ArrowDown}');
    expect(highlighted()).toBe(within(list()).getByRole('option', { name: '1902 Poinsettia Isacord Polyester' }));
    expect(search().getAttribute('aria-activedescendant')).toBe(highlighted().id);
    expect(document.activeElement).toBe(search());

    await user.keyboard('{Enter}');
    expect(location()).toBe(`${PAGE}?to=madeira-polyneon&thread=isacord-polyester%3A1902`);
    expect(search().value).toBe('1902');
    expect(search().getAttribute('aria-expanded')).toBe('false');
    expect(search().hasAttribute('aria-activedescendant')).toBe(false);
    expect(noList()).toBeNull();
    expect((await lineResults('Madeira Polyneon')).textContent).toContain('Best match');
  });

  it('moves the highlight with Up and Down, round from either end', async () => {
    const user = userEvent.setup();
    renderPage(<ThreadConverterPage />, PAGE);
    await user.type(await screen.findByRole('combobox', { name: 'Code or colour name' }), 'poinsettia');
    const names = options().map((option) => option.textContent);
    expect(names).toHaveLength(4);

    await user.keyboard('{ArrowUp}');
    expect(highlighted().textContent).toBe(names[3]);
    await user.keyboard('{ArrowDown}');
    expect(highlighted().textContent).toBe(names[0]);
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(highlighted().textContent).toBe(names[2]);
    expect(highlighted().className).toContain('thread-option--active');
    expect(within(list()).getAllByRole('option', { selected: false })).toHaveLength(3);
    await user.keyboard('{ArrowUp}{ArrowUp}{ArrowUp}');
    expect(highlighted().textContent).toBe(names[3]);
    // Typing again starts from the input.
    await user.keyboard('{Backspace}');
    expect(noHighlight()).toBeNull();
  });

  it('closes the list on Escape, empties the search on a second Escape, and opens it again on typing', async () => {
    const user = userEvent.setup();
    const { location } = renderPage(<ThreadConverterPage />, `${PAGE}?to=madeira-polyneon`);
    await user.type(await screen.findByRole('combobox', { name: 'Code or colour name' }), 'navy');
    await user.keyboard('{ArrowDown}');
    expect(options()).toHaveLength(12);

    await user.keyboard('{Escape}');
    expect(noList()).toBeNull();
    expect(search().getAttribute('aria-expanded')).toBe('false');
    expect(search().value).toBe('navy');
    // Enter with the list closed chooses nothing.
    await user.keyboard('{Enter}');
    expect(location()).toBe(`${PAGE}?to=madeira-polyneon`);

    await user.keyboard('{Escape}');
    expect(search().value).toBe('');

    await user.keyboard('1800');
    expect(search().getAttribute('aria-expanded')).toBe('true');
    expect(options().length).toBeGreaterThan(0);
    // Down opens a closed list again, on its first result.
    await user.keyboard('{Escape}{ArrowDown}');
    expect(highlighted()).toBe(options()[0]);
  });

  it('chooses a thread clicked with the mouse, and closes the list', async () => {
    const user = userEvent.setup();
    const { location } = renderPage(<ThreadConverterPage />, `${PAGE}?to=isacord-polyester`);
    await user.type(await screen.findByRole('combobox', { name: 'Code or colour name' }), 'poinsettia');
    await user.click(within(list()).getByRole('option', { name: '1902 Poinsettia Mettler Poly Sheen' }));
    expect(location()).toBe(`${PAGE}?to=isacord-polyester&thread=mettler-poly-sheen%3A1902`);
    expect(search().value).toBe('1902');
    expect(search().getAttribute('aria-expanded')).toBe('false');
    expect(noList()).toBeNull();
  });

  it('says when no thread matches, as a status rather than an option', async () => {
    const user = userEvent.setup();
    renderPage(<ThreadConverterPage />, PAGE);
    await user.type(await screen.findByRole('combobox', { name: 'Code or colour name' }), 'zzzz');
    expect(screen.getByRole('status').textContent).toBe('No thread matches “zzzz”.');
    expect(search().getAttribute('aria-expanded')).toBe('false');
    expect(noList()).toBeNull();
  });
});
