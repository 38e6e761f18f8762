// The spec: "Failed fetches are retried up to 3 times", the product API's excepted. The core and
// the catalogue are such fetches. A file of its own: the core is loaded once per module instance.
import { readFile } from 'node:fs/promises';

import { QueryClient } from '@tanstack/react-query';

import { converterQueryOptions } from './core';

afterAll(() => {
  vi.unstubAllGlobals();
});

it('fetches the thread catalogue again, up to 3 times, when it fails to load', async () => {
  let catalogueTries = 0;
  vi.stubGlobal('fetch', async (url: string | URL) => {
    const path = String(url);
    if (path.endsWith('.bin')) {
      catalogueTries += 1;
      if (catalogueTries < 4) return new Response('Bad gateway', { status: 502 });
    }
    const type = path.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream';
    return new Response(await readFile(path), { headers: { 'content-type': type } });
  });
  const queryClient = new QueryClient();

  const converter = await queryClient.query(converterQueryOptions);

  expect(catalogueTries).toBe(4);
  expect(converter.lines().length).toBeGreaterThan(0);
});
