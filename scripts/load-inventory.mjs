// Overload of the thread inventory through the real server: many people reading one team's list
// while someone keeps tapping `+1`. `node scripts/load-inventory.mjs` after `make build`.
//
// It starts the release binary (target/release/bobbin, or SERVER_BINARY) in development mode on
// a free loopback port with a fresh SQLite database in a temporary folder, signs up one account
// (confirmed through the development outbox), imports ENTRIES (2,000) catalogue threads by CSV,
// then for LOAD_SECONDS (20) runs READERS (1,000) readers, each asking for the first page of the
// list again as soon as it has its answer (after the `Retry-After` it was given, on a 503), and
// one writer adding 1 to one entry every 100 ms (at once when the previous `+1` took longer).
// Every request gives up after 60 s, nothing leaves 127.0.0.1, and the server is stopped at the
// end.
//
// It prints the answers by status, the read and write times, the server's peak memory (VmHWM of
// /proc/<pid>/status) and whether the entry's quantity went up by exactly the acknowledged `+1`s.
// With CHECK=1 it exits with 1 when an answer is neither 200 nor 503, a request failed outright,
// a write was refused, or an acknowledged `+1` is missing (what `make test-load` checks). Other
// BOBBIN_* variables are passed on to the server, e.g. BOBBIN_MAX_REQUESTS_IN_FLIGHT=32.
// docs/benchmarks.md ("Overload") records the figures.

import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

import { inventoryRows, startServer } from './lib/bobbin-server.mjs';

const ENTRIES = Number(process.env.ENTRIES ?? 2_000);
const READERS = Number(process.env.READERS ?? 1_000);
const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 20);
const WRITE_EVERY_MS = 100;
const REQUEST_TIMEOUT_MS = 60_000;
const CHECK = process.env.CHECK === '1';

const passedOn = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('BOBBIN_')));
const server = await startServer({ name: 'load', binary: process.env.SERVER_BINARY, env: { BOBBIN_LOG: 'error', ...passedOn } });
const { base, call } = server;

/** Answers by status ("error" for a request that got none), and the times of the 2xx ones. */
class Tally {
  statuses = new Map();
  times = [];

  count(status, ms) {
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    if (typeof status === 'number' && status < 300) this.times.push(ms);
  }

  /** The time at quantile `q`, in ms. */
  at(q) {
    const sorted = [...this.times].sort((a, b) => a - b);
    if (sorted.length === 0) return 'n/a';
    return `${sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(0)} ms`;
  }

  toString() {
    return [...this.statuses].map(([status, n]) => `${status}: ${n}`).join(', ');
  }
}

/** One timed request: its status (or "error") and the seconds a 503 asks to wait. */
async function timed(path, init, tally) {
  const start = performance.now();
  try {
    const response = await fetch(base + path, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    await response.arrayBuffer();
    tally.count(response.status, performance.now() - start);
    if (response.status !== 200 && response.status !== 503) {
      tally.lastProblem = `${response.status} ${response.headers.get('content-type')}`;
    }
    return { status: response.status, retryAfter: Number(response.headers.get('retry-after') ?? 1) };
  } catch (error) {
    tally.count('error', performance.now() - start);
    tally.lastProblem = String(error.cause ?? error);
    return { status: 'error', retryAfter: 1 };
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The server's peak and current resident memory, from /proc (Linux). */
function memory() {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  const field = (name) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN) / 1024;
  return { peak: field('VmHWM'), now: field('VmRSS') };
}

let failed = false;
try {
  const token = await server.signIn();
  const auth = { authorization: `Bearer ${token}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const { team } = await (
    await call('/api/v2/teams', { method: 'POST', headers: json, body: JSON.stringify({ name: 'Load shop' }) })
  ).json();
  const threads = `/api/v2/teams/${team.public_id}/threads`;
  const { header, rows } = await inventoryRows(server, ENTRIES);
  const body = JSON.stringify({ csv: [header, ...rows].join('\n'), commit: true });
  const imported = await (await call(`${threads}/import`, { method: 'POST', headers: json, body })).json();
  if (imported.added !== ENTRIES) throw new Error(`the import added ${imported.added}`);
  const [first] = (await (await call(`${threads}?per_page=1`, { headers: auth })).json()).threads;
  const quantityBefore = first.quantity;
  const memoryBefore = memory();

  const deadline = performance.now() + LOAD_SECONDS * 1000;
  const reads = new Tally();
  const writes = new Tally();
  const reader = async () => {
    while (performance.now() < deadline) {
      const { status, retryAfter } = await timed(`${threads}?per_page=50`, { headers: auth }, reads);
      if (status !== 200) await sleep(retryAfter * 1000);
    }
  };
  let acknowledged = 0;
  const writer = async () => {
    const adjust = { method: 'POST', headers: json, body: JSON.stringify({ delta: 1 }) };
    for (let next = performance.now(); next < deadline; next += WRITE_EVERY_MS) {
      await sleep(next - performance.now());
      const { status } = await timed(`${threads}/${first.id}/adjust`, adjust, writes);
      if (status === 200) acknowledged += 1;
      next = Math.max(next, performance.now() - WRITE_EVERY_MS);
    }
  };
  console.log(`${ENTRIES} entries; ${READERS} readers of the list and one +1 every ${WRITE_EVERY_MS} ms for ${LOAD_SECONDS} s.`);
  await Promise.all([writer(), ...Array.from({ length: READERS }, reader)]);

  const after = await (await call(`${threads}/${first.id}`, { headers: auth })).json();
  const added = after.thread.quantity - quantityBefore;
  const { peak, now } = memory();
  console.log(`reads: ${reads}; p50 ${reads.at(0.5)}, p99 ${reads.at(0.99)}, max ${reads.at(1)} (200s only)`);
  console.log(`writes: ${writes}; p50 ${writes.at(0.5)}, p99 ${writes.at(0.99)}, max ${writes.at(1)}`);
  console.log(
    `server memory: peak ${peak.toFixed(0)} MB (${memoryBefore.peak.toFixed(0)} MB before the load), ${now.toFixed(0)} MB at the end`,
  );
  console.log(`quantity: +${added.toFixed(2)} for ${acknowledged} acknowledged +1s`);
  const problems = [];
  for (const [kind, tally] of [
    ['read', reads],
    ['write', writes],
  ]) {
    const bad = [...tally.statuses].filter(([status]) => status !== 200 && status !== 503);
    if (bad.length > 0) problems.push(`${kind} answers other than 200 or 503 (last: ${tally.lastProblem})`);
  }
  if (writes.statuses.has(503)) problems.push('writes were refused');
  if (Math.abs(added - acknowledged) > 1e-9) problems.push('acknowledged +1s are missing');
  if (problems.length > 0) {
    console.log(`PROBLEMS: ${problems.join('; ')}`);
    failed = CHECK;
  }
} finally {
  server.stop();
}
process.exit(failed ? 1 : 0);
