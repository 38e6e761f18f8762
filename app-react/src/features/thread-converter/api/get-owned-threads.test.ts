import { fakeApi } from '@/test/fake-api';

import { fetchOwnedThreads, ownedCounts, ownedKey } from './get-owned-threads';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the threads a team owns', () => {
  it('are read in one call and counted by thread', async () => {
    const threads = [
      { line: 'isacord-polyester', code: '1800', quantity: 2 },
      { line: 'madeira-polyneon', code: '1800', quantity: 0.5 },
    ];
    const server = fakeApi({ 'GET /teams/tm_shop/threads/owned': () => Response.json({ threads }) });
    const owned = await fetchOwnedThreads('tm_shop');
    expect(owned).toEqual(threads);
    expect(server.calls).toHaveLength(1);
    expect(ownedCounts(owned).get(ownedKey('madeira-polyneon', '1800'))).toBe(0.5);
    expect(ownedCounts(owned).has(ownedKey('isacord-polyester', '1801'))).toBe(false);
  });
});
