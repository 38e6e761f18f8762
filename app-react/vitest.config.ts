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
      // As with esbuild's `file` loader, importing a .wasm file yields its URL (Vite 8 would
      // otherwise instantiate it as an ES module).
      name: 'wasm-as-url',
      enforce: 'pre',
      load: (id) => (id.endsWith('.wasm') ? `export default ${JSON.stringify(id)};` : null),
    },
  ],
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
  },
});
