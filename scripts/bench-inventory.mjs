// Times the thread inventory list the way the app asks for it, through the real server:
// `node scripts/bench-inventory.mjs [DATABASE_URL]` after `make dist`; ENTRIES=20000 for the
// largest inventory a team may hold (MAX_THREADS); BOBBIN_BINARY measures another build.
//
// It starts the shipped binary (target/dist/bobbin) in development mode on a free loopback
// port, with a fresh SQLite database in a temporary folder unless DATABASE_URL names an empty
// one (PostgreSQL: `createdb bobbin_bench`, then the URL
// postgres://postgres@127.0.0.1:5432/bobbin_bench), signs up one account
// (confirmed through the development outbox), imports 5,000 catalogue threads (ENTRIES) by CSV, then
// times each kind of list request in turn. The request count is fixed (RUNS each), nothing leaves
// 127.0.0.1, and the server is stopped at the end. docs/benchmarks.md ("Inventory list") records
// the results; the target is a page of the list in under 50 ms with 5,000 entries.
//
// The core's share of each request (search, sort and page, without the database and HTTP) is
// `cargo bench -p bobbin-core --bench inventory`.

import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import { inventoryRows, startServer } from './lib/bobbin-server.mjs';

const ENTRIES = Number(process.env.ENTRIES ?? 5_000);
// One import takes at most 10,000 rows (MAX_ROWS in crates/core/src/inventory/csv.rs).
const IMPORT_ROWS = 10_000;
const RUNS = Number(process.env.RUNS ?? 50);

const databaseUrl = process.argv[2] ?? process.env.DATABASE_URL;
const server = await startServer({
  name: 'bench',
  // Another build of the server to measure (an older one, to compare).
  binary: process.env.BOBBIN_BINARY ?? join(dirname(fileURLToPath(import.meta.url)), '../target/dist/bobbin'),
  env: { BOBBIN_LOG: 'warn', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
});
const { call } = server;

/**
 * Median and 95th percentile, in ms, of RUNS timed requests after five untimed ones. A `fn` that
 * answers a number has timed itself (the part after its preparation).
 */
async function time(fn) {
  for (let i = 0; i < 5; i += 1) await fn();
  const times = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now();
    const timed = await fn();
    times.push(typeof timed === 'number' ? timed : performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
  return `median ${at(0.5)} ms, p95 ${at(0.95)} ms`;
}

try {
  const token = await server.signIn();
  const auth = { authorization: `Bearer ${token}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const { team } = await (
    await call('/api/v2/teams', { method: 'POST', headers: json, body: JSON.stringify({ name: 'Benchmark shop' }) })
  ).json();
  const teams = `/api/v2/teams/${team.public_id}`;

  const { header, rows } = await inventoryRows(server, ENTRIES);
  const started = performance.now();
  for (let first = 0; first < rows.length; first += IMPORT_ROWS) {
    const csv = [header, ...rows.slice(first, first + IMPORT_ROWS)].join('\n');
    const body = JSON.stringify({ csv, commit: true });
    const imported = await (await call(`${teams}/threads/import`, { method: 'POST', headers: json, body })).json();
    if (imported.added !== Math.min(IMPORT_ROWS, rows.length - first)) throw new Error(`import added ${imported.added}`);
  }
  const imports = Math.ceil(ENTRIES / IMPORT_ROWS);
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  console.log(`Imported ${ENTRIES} threads in ${imports} CSV file${imports > 1 ? 's' : ''} in ${seconds} s.`);

  const get = (path) => () => call(path, { headers: auth }).then((r) => r.arrayBuffer());
  const list = (query) => get(`${teams}/threads?${query}`);
  const [{ id: tapped }] = (await (await call(`${teams}/threads?per_page=1`, { headers: auth })).json()).threads;
  // A +1, then the first page: the server reads the team's entries again before the search.
  const afterChange = async () => {
    const adjust = `${teams}/threads/${tapped}/adjust`;
    const tap = await call(adjust, { method: 'POST', headers: json, body: JSON.stringify({ delta: 1 }) });
    if (!tap.ok) throw new Error(`the +1 answered ${tap.status}`);
    const start = performance.now();
    await list('per_page=50')();
    return performance.now() - start;
  };
  const cases = [
    ['the machines, none: what any signed-in team request costs', get(`${teams}/machines`)],
    [`first page by code (50 of ${ENTRIES})`, list('per_page=50')],
    ['first page right after a +1 (the entries read again)', afterChange],
    ['page 60 by code', list('per_page=50&page=60')],
    ['text "blue"', list('q=blue&per_page=50')],
    ['below reorder point, by quantity', list('low=true&sort=quantity&per_page=50')],
    ['closest to #C8102E', list('closest=%23C8102E&per_page=50')],
    [`owned list for the converter (all ${ENTRIES})`, get(`${teams}/threads/owned`)],
  ];
  console.log(`Each: ${RUNS} requests after 5 untimed, one at a time, ${databaseUrl ? 'PostgreSQL' : 'SQLite'}.`);
  for (const [name, fn] of cases) console.log(`${name}: ${await time(fn)}`);
} finally {
  server.stop();
}
