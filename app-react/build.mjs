// Bundles the React app with esbuild into dist/: dist/index.html (the server injects its runtime
// config at <!--bobbin:config-->) and dist/assets/ with content-hashed names, which the server
// embeds and serves as immutable. Code is split per route (dynamic imports become chunks); the
// WebAssembly core is a hashed asset of its own, fetched and compiled once by src/lib/core.ts.
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { copyFile, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import zlib, { brotliCompressSync, gzipSync } from 'node:zlib';
import { minify } from 'terser';

const root = import.meta.dirname;
const dist = path.join(root, 'dist');
const assets = path.join(dist, 'assets');

await rm(dist, { recursive: true, force: true });
await mkdir(assets, { recursive: true });

// The app's modules src/main.tsx imports: the roots of the code every page loads first.
const shellRoots = [...(await readFile(path.join(root, 'src/main.tsx'), 'utf8')).matchAll(/^import .* from '(@\/[^']+)';$/gm)].map(
  (match) => match[1],
);
if (shellRoots.length === 0) throw new Error("src/main.tsx imports none of the app's modules ('@/...')");

// Browsers that run WebAssembly and ES modules natively (2023 onwards).
const browsers = ['es2022', 'chrome111', 'edge111', 'firefox111', 'safari16.4'];

// A Web Worker's script: `import url from './x.ts?worker&url'` (Vite's spelling, which vitest
// understands) bundles x.ts and what it imports into one script of its own, written beside the
// other assets under a hashed name, and gives its URL; esbuild has no notion of workers. A
// classic script rather than a module, since Firefox runs module workers only from version 114;
// `import.meta.url` (which the WebAssembly glue names, for a module URL it is always given) is the
// worker's own address.
const workerScripts = {
  name: 'worker-scripts',
  setup(build) {
    build.onResolve({ filter: /\?worker&url$/ }, (args) => {
      const source = path.join(args.resolveDir, args.path.replace(/\?worker&url$/, ''));
      // Named .js, which the `file` loader keeps as the written file's extension.
      return { path: source.replace(/\.ts$/, '.js'), namespace: 'worker', pluginData: { source } };
    });
    build.onLoad({ filter: /.*/, namespace: 'worker' }, async (args) => {
      const worker = await esbuild.build({
        absWorkingDir: root,
        entryPoints: [args.pluginData.source],
        bundle: true,
        write: false,
        format: 'iife',
        target: browsers,
        define: { 'process.env.NODE_ENV': '"production"', 'import.meta.url': 'self.location.href' },
        minify: true,
        legalComments: 'none',
        metafile: true,
        logLevel: 'warning',
      });
      return {
        contents: worker.outputFiles[0].contents,
        loader: 'file',
        watchFiles: Object.keys(worker.metafile.inputs).map((input) => path.join(root, input)),
      };
    });
  },
};

// How the app is bundled: code split per route (each dynamic import a chunk of its own).
const appBuild = {
  absWorkingDir: root,
  entryPoints: { main: 'src/main.tsx' },
  outdir: assets,
  publicPath: '/assets',
  entryNames: '[name]-[hash]',
  chunkNames: 'chunk-[hash]',
  assetNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  target: browsers,
  jsx: 'automatic',
  loader: { '.wasm': 'file', '.bin': 'file' },
  define: { 'process.env.NODE_ENV': '"production"' },
  minify: true,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  plugins: [workerScripts],
};

// esbuild splits the code main.tsx loads into one chunk per set of lazily loaded modules (pages,
// dialogs) that import each piece of it: many small files for the landing page, each compressed
// on its own. Every lazily loaded module runs after main.tsx's code, so making each import the
// shell's roots changes nothing at run time (those modules have already run) but lets esbuild see
// that they all share it: the landing page's code is then one chunk beside main.tsx's, smaller
// with gzip. Written by hand: esbuild has no setting for how it groups shared code. The modules
// imported lazily come from a first pass over the same graph, written nowhere: esbuild loads each
// module once, as it first meets it, so the plugin must know them all before it loads any.
const firstPass = await esbuild.build({ ...appBuild, write: false, logLevel: 'silent' });
const lazilyLoaded = new Set(
  Object.values(firstPass.metafile.inputs).flatMap((input) =>
    input.imports
      .filter((imported) => imported.kind === 'dynamic-import' && imported.path.startsWith('src/'))
      .map((imported) => path.join(root, imported.path)),
  ),
);
if (lazilyLoaded.size === 0) throw new Error('the app imports no module of src/ lazily: is the code still split per route?');
const oneShell = {
  name: 'one-shell',
  setup(build) {
    build.onLoad({ filter: /\.tsx?$/ }, async (args) => {
      if (!lazilyLoaded.has(args.path)) return undefined;
      const source = await readFile(args.path, 'utf8');
      const imports = shellRoots.map((module) => `import '${module}';`).join(' ');
      // One line, so the module's own lines keep their numbers in esbuild's messages.
      return { contents: `${imports} ${source}`, loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts' };
    });
  },
};

const result = await esbuild.build({ ...appBuild, plugins: [workerScripts, oneShell] });

// Each script minified again by terser, whose compressor does better than esbuild's on code that
// was not minified before (React Router, TanStack Query, the app's own): the landing page's
// JavaScript and all the app's scripts are smaller with gzip, for a slower build. esbuild stays
// the bundler (the splitting, the plugin above); terser only rewrites each file it made, imports
// and exports as they are (`module`).
for (const file of Object.keys(result.metafile.outputs).filter((output) => output.endsWith('.js'))) {
  const target = path.join(root, file);
  const minified = await minify(await readFile(target, 'utf8'), {
    module: true,
    compress: true,
    mangle: true,
    format: { comments: false },
  });
  if (minified.code === undefined) throw new Error(`terser returned nothing for ${file}`);
  await writeFile(target, minified.code);
  result.metafile.outputs[file].bytes = Buffer.byteLength(minified.code);
}

// Find the entry's script and stylesheet, and the chunks it imports statically, which the page
// preloads so the browser fetches them in parallel rather than one after another.
const outputs = Object.entries(result.metafile.outputs);
const [mainJs, main] = outputs.find(([, output]) => output.entryPoint === 'src/main.tsx') ?? [];
if (!mainJs || !main) throw new Error('esbuild produced no output for src/main.tsx');
const url = (file) => '/' + path.relative(dist, path.join(root, file)).split(path.sep).join('/');
const preloads = main.imports
  .filter((imported) => imported.kind === 'import-statement')
  .map((imported) => `<link rel="modulepreload" href="${url(imported.path)}" />`);
// The build manifest (docs/behaviour.md, "New deployments"): `builds/latest.json` names the
// newest build, `builds/meta/{id}.json` holds its page routes (the server answers other page
// paths 404) and route rules (old paths and where they lead). The id is a hash of the output
// names (each holds its content's hash) and of that metadata, so a build that changes nothing
// keeps its id. Served by the server (routes/web.rs); the page carries its own id.
async function importTs(file) {
  const bundled = await esbuild.build({ absWorkingDir: root, entryPoints: [file], bundle: true, write: false, format: 'esm' });
  return import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`);
}
const { pageRoutes } = await importTs('src/config/paths.ts');
const { routeRules } = await importTs('src/config/route-rules.ts');
const { iconNames } = await importTs('src/config/icons.ts');

// The installable app (docs/behaviour.md, "Offline"): the icons, under hashed names beside the
// other assets, and the web app manifest, which opens Bobbin in its own window at the dashboard.
// The icons are drawn from icons/app-icon.svg (`rsvg-convert -w N -h N`): a full-bleed square
// whose drawing stays inside the centre 80%, so it serves as a maskable icon too.
const appIcons = [];
for (const size of [192, 512]) {
  const bytes = await readFile(path.join(root, `icons/app-icon-${size}.png`));
  const name = `app-icon-${size}-${createHash('sha256').update(bytes).digest('hex').slice(0, 8).toUpperCase()}.png`;
  await writeFile(path.join(assets, name), bytes);
  for (const purpose of ['any', 'maskable'])
    appIcons.push({ src: `/assets/${name}`, sizes: `${size}x${size}`, type: 'image/png', purpose });
}
const webManifest = {
  id: '/',
  name: 'Bobbin',
  short_name: 'Bobbin',
  description: 'Thread and machine inventory, pricing and thread conversion for embroidery teams.',
  start_url: '/dashboard',
  scope: '/',
  display: 'standalone',
  background_color: '#ffffff',
  theme_color: '#6d28d9',
  icons: appIcons,
};

const buildHash = createHash('sha256');
for (const file of Object.keys(result.metafile.outputs).sort()) buildHash.update(`${file}\n`);
for (const icon of appIcons) buildHash.update(`${icon.src}\n`);
buildHash.update(JSON.stringify({ pageRoutes, routeRules }));
const buildId = buildHash.digest('hex').slice(0, 16);
const timestamp = Date.now();
await mkdir(path.join(dist, 'builds/meta'), { recursive: true });
await writeFile(path.join(dist, 'builds/latest.json'), JSON.stringify({ id: buildId, timestamp }));
await writeFile(
  path.join(dist, 'builds/meta', `${buildId}.json`),
  JSON.stringify({ id: buildId, timestamp, routes: pageRoutes, routeRules }, null, 2),
);

await writeFile(path.join(dist, 'manifest.webmanifest'), JSON.stringify(webManifest, null, 2));

// The service worker (service-worker/sw.ts), served at /sw.js: it precaches this build's page
// shell, every file of dist/assets/ (their names hold their content's hash) and the build's
// manifest, so every page opens offline. Its text names the build, so each build is a new worker.
const precache = [
  { url: '/', revision: buildId },
  { url: '/manifest.webmanifest', revision: buildId },
  { url: `/builds/meta/${buildId}.json`, revision: null },
  ...Object.keys(result.metafile.outputs).map((file) => ({ url: url(file), revision: null })),
  ...[...new Set(appIcons.map((icon) => icon.src))].map((src) => ({ url: src, revision: null })),
  // The app's icons, from the icon set embedded with this build.
  ...iconNames.map((name) => ({ url: `/icons/lucide/${name}.svg`, revision: buildId })),
];
await esbuild.build({
  absWorkingDir: root,
  entryPoints: { sw: 'service-worker/sw.ts' },
  outdir: dist,
  bundle: true,
  format: 'iife',
  target: ['es2022', 'chrome111', 'edge111', 'firefox111', 'safari16.4'],
  define: {
    'process.env.NODE_ENV': '"production"',
    'self.__WB_MANIFEST': JSON.stringify(precache),
    BOBBIN_BUILD: JSON.stringify(buildId),
    BOBBIN_PAGES: JSON.stringify([...pageRoutes, ...Object.keys(routeRules)]),
  },
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});

// The icon set the server serves at /icons/lucide/{name}.svg (routes/icons.rs), in Iconify's
// JSON format, from its npm package: embedded in the binary beside the app.
await mkdir(path.join(dist, 'icons'), { recursive: true });
await copyFile(createRequire(import.meta.url).resolve('@iconify-json/lucide/icons.json'), path.join(dist, 'icons/lucide.json'));

const tags = [
  `<meta name="bobbin-build" content="${buildId}" />`,
  `<link rel="apple-touch-icon" href="${appIcons.find((icon) => icon.sizes === '192x192')?.src}" />`,
  main.cssBundle ? `<link rel="stylesheet" href="${url(main.cssBundle)}" />` : '',
  `<script type="module" src="${url(mainJs)}"></script>`,
  ...preloads,
].filter(Boolean);

const template = await readFile(path.join(root, 'index.html'), 'utf8');
if (!template.includes('<!--bobbin:assets-->')) throw new Error('index.html lacks <!--bobbin:assets-->');
await writeFile(path.join(dist, 'index.html'), template.replace('<!--bobbin:assets-->', tags.join('\n    ')));

// The embeddable widget: one script with the thread catalogue inlined, and the WebAssembly module
// beside it, under stable names (pages elsewhere link to them), plus its demo page.
const widget = path.join(dist, 'widget');
const wasmPackage = path.join(root, '../crates/wasm/pkg');
const widgetResult = await esbuild.build({
  absWorkingDir: root,
  entryPoints: { 'bobbin-thread-converter': 'src/widget/bobbin-thread-converter.ts' },
  outdir: widget,
  bundle: true,
  format: 'esm',
  target: ['es2022', 'chrome111', 'edge111', 'firefox111', 'safari16.4'],
  minify: true,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'catalogue-bytes',
      setup(build) {
        build.onResolve({ filter: /^bobbin:catalogue-bytes$/ }, () => ({ path: path.join(wasmPackage, 'threads.bin') }));
        build.onLoad({ filter: /threads\.bin$/ }, async (args) => ({ contents: await readFile(args.path), loader: 'binary' }));
      },
    },
  ],
});
await copyFile(path.join(wasmPackage, 'bobbin_wasm_bg.wasm'), path.join(widget, 'bobbin-thread-converter.wasm'));
await copyFile(path.join(root, 'widget/demo.html'), path.join(widget, 'demo.html'));
outputs.push(...Object.entries(widgetResult.metafile.outputs));
outputs.push([
  path.relative(root, path.join(widget, 'bobbin-thread-converter.wasm')),
  { bytes: (await stat(path.join(widget, 'bobbin-thread-converter.wasm'))).size },
]);

// What each file costs a visitor: its size, and its size as the server sends it, with brotli and
// with gzip (both at the quality the server's build compresses them with, crates/server/build.rs).
// docs/benchmarks.md ("Front-end weight") records these.
const totals = { bytes: 0, brotli: 0, gzip: 0 };
const sent = new Map();
console.log('    bytes   brotli     gzip  file');
for (const [file, output] of outputs) {
  const content = await readFile(path.join(root, file));
  const size = {
    brotli: brotliCompressSync(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    gzip: gzipSync(content, { level: 9 }).length,
  };
  totals.bytes += output.bytes;
  totals.brotli += size.brotli;
  totals.gzip += size.gzip;
  sent.set(file, size);
  console.log(`${[output.bytes, size.brotli, size.gzip].map((n) => String(n).padStart(9)).join('')}  ${path.relative(root, file)}`);
}
console.log(`${[totals.bytes, totals.brotli, totals.gzip].map((n) => String(n).padStart(9)).join('')}  total`);

// The landing page's JavaScript: the main script, the chunks it imports (and theirs), which the
// page preloads, and the WebAssembly core's glue, which every page's footer loads once idle
// (components/CoreVersion.tsx). Chunks loaded on demand (a page, the toasts, a dialog) are not in
// it, nor the code the prefetch loads ahead for the pages a page links to.
const landing = new Set();
const pending = [mainJs];
while (pending.length > 0) {
  const file = pending.pop();
  if (landing.has(file)) continue;
  landing.add(file);
  for (const imported of result.metafile.outputs[file].imports) {
    if (imported.kind === 'import-statement' && imported.path.endsWith('.js')) pending.push(imported.path);
  }
}
const glue = Object.entries(result.metafile.outputs).find(([, output]) =>
  Object.keys(output.inputs).some((input) => input.endsWith('crates/wasm/pkg/bobbin_wasm.js')),
)?.[0];
if (!glue) throw new Error('the build produced no chunk with the WebAssembly glue');
landing.add(glue);
const landingSum = (size) => [...landing].reduce((sum, file) => sum + size(file), 0);
const landingGzip = landingSum((file) => sent.get(file).gzip);
console.log(
  `landing page JavaScript (${landing.size} files): ${landingSum((file) => result.metafile.outputs[file].bytes)} bytes, ` +
    `${landingSum((file) => sent.get(file).brotli)} sent with brotli, ${landingGzip} with gzip`,
);

// Budgets, in bytes sent with gzip (issue 22 states them so; brotli sends less), for what every
// page loads. A build over budget fails, so a change that bloats the first load (a stable sort
// once made the WebAssembly module far larger) is seen when it is made. Raise a budget only on
// purpose, with the "Front-end weight" table of docs/benchmarks.md.
const wasm = (name) => {
  const file = outputs.find(([output]) => new RegExp(`assets/${name}_bg-[^/]*\\.wasm$`).test(output))?.[0];
  if (!file) throw new Error(`the build produced no ${name}_bg.wasm`);
  return sent.get(file).gzip;
};
const budgets = [
  // Issue 22's 120 KB, met once the toasts and the dialog left the first load, with React Router
  // in declarative mode, the first load's code in one chunk and terser's second pass
  // (docs/benchmarks.md, "Front-end weight").
  ['landing page JavaScript', landingGzip, 120_000],
  // The converter's module (every page's footer, the converter, the widget) and the pricing
  // calculator's: as one module they were over the budget, so they are two (docs/benchmarks.md,
  // "Front-end weight").
  ['WebAssembly core', wasm('bobbin_wasm'), 120_000],
  ['WebAssembly pricing module', wasm('bobbin_pricing'), 120_000],
];
const over = budgets.filter(([, gzip, budget]) => gzip > budget);
for (const [name, gzip, budget] of over) {
  console.error(`Over budget: the ${name} is sent as ${gzip} bytes with gzip; its budget is ${budget}.`);
}
if (over.length > 0) process.exit(1);
