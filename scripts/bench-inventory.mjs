// Times the thread inventory list the way the app asks for it, through the real server:
// `node scripts/bench-inventory.mjs [DATABASE_URL]` after `make build`; ENTRIES=20000 for the
// largest inventory a team may hold (MAX_THREADS).
//
// It starts the release binary (target/release/bobbin) in development mode on a free loopback
// port, with a fresh SQLite database in a temporary folder unless DATABASE_URL names an empty
// one (PostgreSQL: `createdb bobbin_bench`, then the URL
// postgres://postgres@127.0.0.1:5432/bobbin_bench), signs up one account
// (confirmed through the development outbox), imports 5,000 catalogue threads (ENTRIES) by CSV, then
// times each kind of list request in turn. The request count is fixed (RUNS each), nothing leaves
// 127.0.0.1, and the server is stopped at the end. The README's "Benchmarks" section records the
// results; the target is a page of the list in under 50 ms with 5,000 entries.
//
// The core's share of each request (search, sort and page, without the database and HTTP) is
// `cargo bench -p bobbin-core --bench inventory`.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRIES = Number(process.env.ENTRIES ?? 5_000);
// One import takes at most 10,000 rows (MAX_ROWS in crates/core/src/inventory/csv.rs).
const IMPORT_ROWS = 10_000;
const RUNS = Number(process.env.RUNS ?? 50);
const PASSWORD = 'Stitch-Count-4812';

/** A port nothing listens on, found by binding port 0 and letting it go. */
async function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const folder = mkdtempSync(join(tmpdir(), 'bobbin-bench-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const databaseUrl = process.argv[2] ?? process.env.DATABASE_URL;
const server = spawn(
  join(root, 'target/release/bobbin'),
  ['serve', '--bind', `127.0.0.1:${port}`, '--env', 'development', '--site-url', base],
  {
    cwd: folder,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      PATH: process.env.PATH,
      BOBBIN_LOG: 'warn',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
  },
);
const stop = () => {
  server.kill();
  rmSync(folder, { recursive: true, force: true });
};
process.on('exit', stop);

/** `fetch` against the server; throws with the body when the answer is not 2xx. */
async function call(path, init = {}) {
  const response = await fetch(base + path, init);
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
  return response;
}

async function waitForServer() {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    try {
      await fetch(`${base}/api/v2/healthz`);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`the server did not start on ${base}`);
}

/** A confirmed account's access token: sign-up, the e-mailed link, then a password sign-in. */
async function signIn() {
  const email = `bench-${Date.now()}@example.com`;
  const json = { 'content-type': 'application/json' };
  await call('/auth/v1/signup', { method: 'POST', headers: json, body: JSON.stringify({ email, password: PASSWORD }) });
  const mails = await (await call('/dev/mailbox.json')).json();
  const link = mails.find((mail) => mail.to === email)?.links.find((url) => url.includes('/auth/v1/verify'));
  if (!link) throw new Error('no confirmation e-mail in the development outbox');
  await fetch(link, { redirect: 'manual' });
  const body = JSON.stringify({ email, password: PASSWORD });
  const session = await (await call('/auth/v1/token?grant_type=password', { method: 'POST', headers: json, body })).json();
  return session.access_token;
}

/** Median and 95th percentile, in ms, of RUNS timed requests after five untimed ones. */
async function time(fn) {
  for (let i = 0; i < 5; i += 1) await fn();
  const times = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
  return `median ${at(0.5)} ms, p95 ${at(0.95)} ms`;
}

try {
  await waitForServer();
  const token = await signIn();
  const auth = { authorization: `Bearer ${token}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const { team } = await (
    await call('/api/v2/teams', { method: 'POST', headers: json, body: JSON.stringify({ name: 'Benchmark shop' }) })
  ).json();
  const teams = `/api/v2/teams/${team.public_id}`;

  // ENTRIES catalogue threads: the codes of the thread lines in catalogue order, leaving out codes
  // a chart lists more than once, with varied stock.
  const { lines } = await (await call('/api/v2/catalog/lines')).json();
  const rows = ['line,code,quantity,location,reorder_point'];
  for (const { id, kind } of lines) {
    if (rows.length > ENTRIES) break;
    if (kind !== 'thread') continue;
    const { line } = await (await call(`/api/v2/catalog/lines/${id}`)).json();
    const listedTwice = new Set(line.issues.map((issue) => issue.code));
    const codes = line.threads.map((thread) => thread.code).filter((code) => !listedTwice.has(code));
    for (const code of codes) {
      if (rows.length > ENTRIES) break;
      const n = rows.length;
      rows.push(`${id},"${code}",${n % 12}.${n % 10},Shelf ${n % 40},2`);
    }
  }
  if (rows.length <= ENTRIES) throw new Error(`the catalogue gave only ${rows.length - 1} threads`);
  const started = performance.now();
  for (let first = 1; first < rows.length; first += IMPORT_ROWS) {
    const csv = [rows[0], ...rows.slice(first, first + IMPORT_ROWS)].join('\n');
    const body = JSON.stringify({ csv, commit: true });
    const imported = await (await call(`${teams}/threads/import`, { method: 'POST', headers: json, body })).json();
    if (imported.added !== Math.min(IMPORT_ROWS, rows.length - first)) throw new Error(`import added ${imported.added}`);
  }
  const imports = Math.ceil(ENTRIES / IMPORT_ROWS);
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  console.log(`Imported ${ENTRIES} threads in ${imports} CSV file${imports > 1 ? 's' : ''} in ${seconds} s.`);

  const list = (query) => () => call(`${teams}/threads?${query}`, { headers: auth }).then((r) => r.arrayBuffer());
  const cases = [
    ['the machines, none: what any signed-in team request costs', 'MACHINES'],
    [`first page by code (50 of ${ENTRIES})`, 'per_page=50'],
    ['page 60 by code', 'per_page=50&page=60'],
    ['text "blue"', 'q=blue&per_page=50'],
    ['below reorder point, by quantity', 'low=true&sort=quantity&per_page=50'],
    ['closest to #C8102E', 'closest=%23C8102E&per_page=50'],
    [`owned list for the converter (all ${ENTRIES})`, null],
  ];
  console.log(`Each: ${RUNS} requests after 5 untimed, one at a time, ${databaseUrl ? 'PostgreSQL' : 'SQLite'}.`);
  for (const [name, query] of cases) {
    const path = { MACHINES: `${teams}/machines`, null: `${teams}/threads/owned` }[query];
    const fn = path ? () => call(path, { headers: auth }).then((r) => r.arrayBuffer()) : list(query);
    console.log(`${name}: ${await time(fn)}`);
  }
} finally {
  stop();
}
