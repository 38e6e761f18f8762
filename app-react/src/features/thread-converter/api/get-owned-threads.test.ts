import { fakeApi } from '@/test/fake-api';

import { fetchOwnedThreads, ownedCounts, ownedKey } from './get-owned-threads';

afterEach(() => {
  vi.unstubAllGlobals();
});

const entry = (line: string | null, code: string | null, quantity: number) => ({ line, code, quantity });

describe('the threads a team owns', () => {
  it('reads every page, leaving out custom threads, and counts spools by thread', async () => {
    const server = fakeApi({
      'GET /teams/tm_shop/threads?per_page=200&page=1': () =>
        Response.json({ threads: [entry('isacord-polyester', '1800', 2), entry(null, null, 1)], total: 3, page: 1, per_page: 2 }),
      'GET /teams/tm_shop/threads?per_page=200&page=2': () =>
        Response.json({ threads: [entry('madeira-polyneon', '1800', 0.5)], total: 3, page: 2, per_page: 2 }),
    });
    const owned = await fetchOwnedThreads('tm_shop');
    expect(owned).toEqual([entry('isacord-polyester', '1800', 2), entry('madeira-polyneon', '1800', 0.5)]);
    expect(server.calls).toHaveLength(2);
    expect(ownedCounts(owned).get(ownedKey('madeira-polyneon', '1800'))).toBe(0.5);
  });

  it('stops at an empty page', async () => {
    fakeApi({ 'GET /teams/tm_shop/threads?per_page=200&page=1': () => Response.json({ threads: [], total: 0, page: 1, per_page: 200 }) });
    expect(await fetchOwnedThreads('tm_shop')).toEqual([]);
  });
});
