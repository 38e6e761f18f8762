// per-package gzip contribution estimate in the landing set
import * as esbuild from 'esbuild';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
const root = path.resolve('app-react');
const result = await esbuild.build({
  absWorkingDir: root, entryPoints: { main: 'src/main.tsx' }, outdir: '/tmp/zzout', bundle: true, splitting: true, format: 'esm',
  target: ['es2022'], jsx: 'automatic', loader: { '.wasm': 'file', '.bin': 'file' }, define: { 'process.env.NODE_ENV': '"production"' },
  minify: true, legalComments: 'none', metafile: true, write: true, logLevel: 'error',
});
const outs = result.metafile.outputs;
const mainJs = Object.keys(outs).find((f) => outs[f].entryPoint === 'src/main.tsx');
const landing = new Set(); const pending = [mainJs];
while (pending.length) { const f = pending.pop(); if (landing.has(f)) continue; landing.add(f); for (const i of outs[f].imports) if (i.kind === 'import-statement' && i.path.endsWith('.js')) pending.push(i.path); }
const glue = Object.keys(outs).find((f) => Object.keys(outs[f].inputs).some((i) => i.endsWith('crates/wasm/pkg/bobbin_wasm.js')));
landing.add(glue);
const byPkg = new Map();
let total = 0;
for (const f of landing) {
  for (const [input, { bytesInOutput }] of Object.entries(outs[f].inputs)) {
    const m = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(input);
    const key = m ? m[1] : input.replace(/^src\//, 'src/').split('/').slice(0, 3).join('/');
    byPkg.set(key, (byPkg.get(key) ?? 0) + bytesInOutput); total += bytesInOutput;
  }
}
console.log('files', landing.size, 'minified bytes', total);
for (const [k, v] of [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log(String(v).padStart(8), k);
for (const f of landing) for (const [input, { bytesInOutput }] of Object.entries(outs[f].inputs)) if (/react-dom|react-router|scheduler|node_modules\/react\//.test(input)) console.log(bytesInOutput, input);
