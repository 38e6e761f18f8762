// The converter in WebAssembly against the npm `delta-e` package (0.0.8, Unlicense), in one Node
// run: `node scripts/bench-convert-node.mjs [PKG_DIR]`.
//
// Both do the same work: one colour (#C8102E) against the whole catalogue (every line, 21,898
// threads), CIEDE2000 to each thread's colour, the best match in each line. Ours is the
// WebAssembly core in PKG_DIR (crates/wasm/pkg unless given; build it with scripts/build-wasm.sh)
// called through its JavaScript export `convert`, as the app calls it, so its time includes moving
// the request and the result across the JavaScript boundary. delta-e's is a plain loop calling
// `getDeltaE00` for every thread, keeping the first of the nearest in each line. Five rounds in
// turn, each the median of many calls after warm-up calls; the script prints each one's median
// over the rounds and the ratio, and checks that both found the same thread in every line. The
// target (docs/benchmarks.md, "Converter against `delta-e`") is ours at least 5 times as fast.

import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

import DeltaE from 'delta-e';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = resolve(process.argv[2] ?? join(root, 'crates/wasm/pkg'));
const COLOUR = '#C8102E';
const ROUNDS = 5;

// The package has no package.json, so Node warns that it guessed the module type; it guessed right.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.code !== 'MODULE_TYPELESS_PACKAGE_JSON') console.warn(warning);
});

const wasm = await import(pathToFileURL(join(pkg, 'bobbin_wasm.js')).href);
await wasm.default({ module_or_path: readFileSync(join(pkg, 'bobbin_wasm_bg.wasm')) });
wasm.loadCatalogue(readFileSync(join(pkg, 'threads.bin')));

/**
 * CIELAB (D65) of an sRGB hex colour, for delta-e, which takes Lab values: IEC 61966-2-1's transfer
 * curve and matrix, then CIE 15's Lab, as the core computes them (through the `palette` crate). A
 * colour library would add a dependency to the benchmark for these few lines of published formula;
 * the check below that both sides find the same threads shows the colours agree.
 */
function labOfHex(hex) {
  const linear = [1, 3, 5].map((at) => {
    const c = parseInt(hex.slice(at, at + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const [r, g, b] = linear;
  const x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047;
  const y = 0.2126729 * r + 0.7151522 * g + 0.072175 * b;
  const z = (0.0193339 * r + 0.119192 * g + 0.9503041 * b) / 1.08883;
  const epsilon = 216 / 24389;
  const kappa = 24389 / 27;
  const f = (t) => (t > epsilon ? Math.cbrt(t) : (kappa * t + 16) / 116);
  return { L: 116 * f(y) - 16, A: 500 * (f(x) - f(y)), B: 200 * (f(y) - f(z)) };
}

const lines = wasm.catalogueLines().map((line) => {
  const threads = wasm.catalogueLine(line.id).threads;
  return { id: line.id, threads, labs: threads.map((thread) => labOfHex(thread.hex)) };
});
const threadCount = lines.reduce((sum, line) => sum + line.threads.length, 0);
const request = { from: { hex: COLOUR }, to: lines.map((line) => line.id), matches: 1 };
const reference = labOfHex(COLOUR);

const ours = () => wasm.convert(request);
const theirs = () =>
  lines.map(({ labs }) => {
    let best = -1;
    let bestDistance = Infinity;
    for (let i = 0; i < labs.length; i += 1) {
      const distance = DeltaE.getDeltaE00(reference, labs[i]);
      if (distance < bestDistance) {
        best = i;
        bestDistance = distance;
      }
    }
    return best;
  });

// Both find the same thread in each line (a thread is its code and colour: codes with conflicting
// colours have one entry per colour).
const found = ours().lines;
const theirBest = theirs();
let agree = 0;
lines.forEach((line, i) => {
  const match = found[i].matches[0]?.thread;
  const their = line.threads[theirBest[i]];
  if (match && their && match.code === their.code && match.hex === their.hex) agree += 1;
  else console.log(`${line.id}: ours ${match?.code} ${match?.hex}, delta-e's ${their?.code} ${their?.hex}`);
});

/** The median of `runs` timed calls of `fn`, after `warmUp` untimed ones, in ms. */
function median(fn, { warmUp, runs }) {
  for (let i = 0; i < warmUp; i += 1) fn();
  const times = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const ourTimes = [];
const theirTimes = [];
for (let round = 1; round <= ROUNDS; round += 1) {
  ourTimes.push(median(ours, { warmUp: 20, runs: 200 }));
  theirTimes.push(median(theirs, { warmUp: 5, runs: 40 }));
  console.log(`round ${round}: Bobbin (WebAssembly) ${ourTimes.at(-1).toFixed(3)} ms   delta-e ${theirTimes.at(-1).toFixed(3)} ms`);
}
const middle = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const [ourMedian, theirMedian] = [middle(ourTimes), middle(theirTimes)];
console.log(
  `${COLOUR} against ${lines.length} lines, ${threadCount} threads, the best in each; ` +
    `Node ${process.version}, core ${wasm.coreVersion()}`,
);
console.log(`same best thread in ${agree} of ${lines.length} lines`);
console.log(`Bobbin (WebAssembly)   median ${ourMedian.toFixed(3)} ms`);
console.log(`delta-e                median ${theirMedian.toFixed(3)} ms`);
console.log(`ratio: Bobbin is ${(theirMedian / ourMedian).toFixed(1)}x as fast as delta-e (target: at least 5x)`);
if (agree !== lines.length) process.exitCode = 1;
