import path from 'node:path';
import { defineConfig } from 'vitest/config';

const wasmPackage = path.resolve(import.meta.dirname, '../crates/wasm/pkg');

// Mirrors the `paths` of tsconfig.json, which esbuild (build.mjs) reads by itself.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\//, replacement: `${path.resolve(import.meta.dirname, 'src')}/` },
      { find: /^@bobbin\/core-wasm$/, replacement: `${wasmPackage}/bobbin_wasm.js` },
      { find: /^@bobbin\/core-wasm\//, replacement: `${wasmPackage}/` },
    ],
  },
  plugins: [
    {
      // As with esbuild's `file` loader, importing a .wasm or .bin file yields its URL (Vite 8
      // would otherwise instantiate a .wasm file as an ES module). In tests the URL is the file's
      // path, which the tests' fetch reads from disk.
      name: 'files-as-url',
      enforce: 'pre',
      load: (id) => (/\.(wasm|bin)$/.test(id) ? `export default ${JSON.stringify(id)};` : null),
    },
  ],
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    // A file's first test compiles the WebAssembly core (about 1 s alone, over 5 s on a shared
    // 2-core machine under load), which vitest's default of 5 s failed as a timeout.
    testTimeout: 20_000,
  },
});
