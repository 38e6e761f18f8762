// Times the WebAssembly core the way the browser runs it: `node scripts/bench-wasm.mjs [PKG_DIR]`.
//
// Node's V8 is the JavaScript and WebAssembly engine of Chromium, so these timings stand in for the
// browser's (docs/benchmarks.md, "Converter", records them; the target is one colour against the
// whole catalogue in under one 16 ms frame). Build the package first with scripts/build-wasm.sh;
// PKG_DIR defaults to crates/wasm/pkg. Needs no npm packages.
//
// Measured, each through the module's exports as the app calls them (so the times include moving
// the request and the result across the JavaScript boundary):
//   - loadCatalogue: decoding threads.bin (once per page in the app);
//   - one colour against the whole catalogue: convert() to every line, one match each (the first,
//     cold call on its own, then warmed up);
//   - the converter page's default request: every thread line, five matches each;
//   - one line to every other line: each Madeira Polyneon colour converted to the 75 other lines.

import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = resolve(process.argv[2] ?? join(root, 'crates/wasm/pkg'));
const COLOUR = '#C8102E';
const FROM_LINE = 'madeira-polyneon';

// The package has no package.json, so Node warns that it guessed the module type; it guessed right.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.code !== 'MODULE_TYPELESS_PACKAGE_JSON') console.warn(warning);
});

const wasm = await import(pathToFileURL(join(pkg, 'bobbin_wasm.js')).href);
await wasm.default({ module_or_path: readFileSync(join(pkg, 'bobbin_wasm_bg.wasm')) });
const catalogueBytes = readFileSync(join(pkg, 'threads.bin'));

/** Median and 95th percentile of `runs` timed calls of `fn`, after `warmUp` untimed ones, in ms. */
function time(fn, { warmUp = 20, runs = 200 } = {}) {
  for (let i = 0; i < warmUp; i += 1) fn();
  const times = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { runs, median: at(0.5), p95: at(0.95) };
}

const results = [];
const report = (name, { runs, median, p95 }) => {
  results.push({ name, runs, median, p95 });
  const spread = runs > 1 ? `p95 ${p95.toFixed(3).padStart(9)} ms   (${runs} runs)` : '(once)';
  const what = runs > 1 ? 'median' : 'time  ';
  console.log(`${name.padEnd(44)} ${what} ${median.toFixed(3).padStart(9)} ms   ${spread}`);
};

// The catalogue can be loaded once per module instance (later calls are ignored), so the first
// call is the only one timed.
const loadStart = performance.now();
wasm.loadCatalogue(catalogueBytes);
report('loadCatalogue (decode threads.bin)', { runs: 1, median: performance.now() - loadStart, p95: NaN });

const lines = wasm.catalogueLines();
const threadCount = lines.reduce((sum, line) => sum + line.thread_count, 0);
console.log(
  `catalogue: ${lines.length} lines, ${threadCount} threads; core ${wasm.coreVersion()}; ` +
    `Node ${process.version} (V8 ${process.versions.v8})`,
);

const everyLine = lines.map((line) => line.id);
const whole = { from: { hex: COLOUR }, to: everyLine, matches: 1 };
// The first call runs on V8's baseline compiler, before the optimising one has compiled the
// module's hot functions: what a page's first conversion costs.
const firstStart = performance.now();
const check = wasm.convert(whole);
const firstTime = performance.now() - firstStart;
report('first conversion (cold), whole catalogue', { runs: 1, median: firstTime, p95: NaN });
if (check.lines.length !== lines.length) {
  throw new Error(`expected ${lines.length} lines, got ${check.lines.length}`);
}
report(
  'one colour, whole catalogue (1 match/line)',
  time(() => wasm.convert(whole)),
);
const byDefault = { from: { hex: COLOUR }, to: [], matches: 5 };
report(
  'one colour, thread lines (default, 5 each)',
  time(() => wasm.convert(byDefault)),
);

// Converted by colour rather than by code, so that every colour variant of a conflicting code is
// converted too, as in the native benchmark.
const fromThreads = wasm.catalogueLine(FROM_LINE).threads;
const others = everyLine.filter((id) => id !== FROM_LINE);
const lineToLines = () => {
  for (const thread of fromThreads) wasm.convert({ from: { hex: thread.hex }, to: others, matches: 1 });
};
report(`one line (${fromThreads.length} threads) to the ${others.length} others`, time(lineToLines, { warmUp: 1, runs: 5 }));

const { p95 } = results.find((r) => r.name.startsWith('one colour, whole'));
console.log(
  `target: one colour against the whole catalogue within a 16 ms frame: ` + `${p95 < 16 ? 'met' : 'NOT met'} (p95 ${p95.toFixed(2)} ms)`,
);
