// The API's speed as a share of the framework's: run through scripts/bench-http.sh, which builds
// the reference server and installs wrk first.
//
// In one run, on loopback only: the reference (examples/bare_axum, one JSON handler), then the
// release server on SQLite, then on PostgreSQL (when BOBBIN_TEST_POSTGRES_URL names a server, as
// scripts/with-postgres.sh sets it; a database of its own is made and dropped), then the
// reference again. Each endpoint gets SECONDS_EACH seconds (5) of wrk at 64 connections and 2
// threads. Before loading Bobbin it signs up one account, makes a team and imports THREADS
// (1,000) catalogue threads, so the list's first page reads a real inventory. Every answer must be
// a 2xx: wrk's count of others is printed and fails the run, so a figure never hides errors.
//
// Printed per endpoint: requests/s, that as a percentage of the reference's (the mean of its two
// runs), p50 and p99 latency, and the server's CPU time per request (user and system, from
// /proc): on a shared machine the rates move with what else runs, the CPU time much less.
// docs/benchmarks.md ("API speed") records the results.
//
// COMPARE=/path/to/another/bobbin instead compares two builds by interleaving their loads
// (compareBuilds), on SQLite: for a change worth a few per cent, which separate runs cannot show.

import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import { freePort, inventoryRows, startServer } from './lib/bobbin-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SECONDS_EACH = Number(process.env.SECONDS_EACH ?? 5);
const THREADS = Number(process.env.THREADS ?? 1_000);
const CONNECTIONS = 64;
const STARTS = 7;
// Another build of the server to measure (an older one, to compare); target/dist/bobbin by default.
const binary = process.env.BOBBIN_BINARY ?? join(root, 'target/dist/bobbin');
// Only the endpoints whose name holds one of these words (`ENDPOINTS=adjust,threads`), to compare
// two builds on a few; all of them by default.
const only = process.env.ENDPOINTS?.split(',').filter(Boolean);
// A second build to compare with the first by interleaving (`COMPARE=/tmp/bobbin-before`), and how
// many rounds (ROUNDS, 8): see compareBuilds.
const compare = process.env.COMPARE;
const ROUNDS = Number(process.env.ROUNDS ?? 8);
const scratch = mkdtempSync(join(tmpdir(), 'bobbin-bench-http-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

/** wrk's duration ("812.00us", "1.20ms", "1.01s") in milliseconds. */
function milliseconds(text) {
  const [, number, unit] = /^([\d.]+)(us|ms|s|m)$/.exec(text) ?? [];
  if (!number) throw new Error(`wrk printed a latency I cannot read: ${text}`);
  return Number(number) * { us: 0.001, ms: 1, s: 1000, m: 60_000 }[unit];
}

/** The CPU time process `pid` has used, user and system, in microseconds (Linux's /proc). */
function cpuMicroseconds(pid) {
  // After the command's name, in parentheses: the state is field 3, utime and stime 14 and 15.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND;
}
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/**
 * Loads `url`, served by process `pid`, with wrk; `request` (method, body, headers) is sent by a
 * Lua script. Answers requests/s, p50 and p99 in ms, the server's CPU time per request in
 * microseconds, and the count of answers that were not 2xx or 3xx.
 */
function wrk(url, pid, { method = 'GET', body, headers = {} } = {}) {
  const script = join(scratch, 'request.lua');
  const lines = [`wrk.method = ${JSON.stringify(method)}`];
  if (body) lines.push(`wrk.body = ${JSON.stringify(body)}`);
  for (const [name, value] of Object.entries(headers)) lines.push(`wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`);
  writeFileSync(script, `${lines.join('\n')}\n`);
  const cpuBefore = cpuMicroseconds(pid);
  const output = execFileSync('wrk', ['-t2', `-c${CONNECTIONS}`, `-d${SECONDS_EACH}s`, '--latency', '-s', script, url], {
    encoding: 'utf8',
  });
  const cpu = cpuMicroseconds(pid) - cpuBefore;
  const requests = Number(/(\d+) requests in/.exec(output)?.[1]);
  const perSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1]);
  const p50 = /\n\s+50%\s+(\S+)/.exec(output)?.[1];
  const p99 = /\n\s+99%\s+(\S+)/.exec(output)?.[1];
  const errors = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0);
  const socketErrors = /Socket errors:.*/.exec(output)?.[0];
  if (!perSecond || !p50 || !p99 || !requests) throw new Error(`wrk printed what I cannot read:\n${output}`);
  return { perSecond, p50: milliseconds(p50), p99: milliseconds(p99), cpuEach: cpu / requests, errors, socketErrors };
}

/** Runs the reference server for the time `measure` takes. */
async function withReference(measure) {
  const port = await freePort();
  const child = spawn(join(root, 'target/dist/examples/bare_axum'), [`127.0.0.1:${port}`], { stdio: 'inherit' });
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await fetch(`http://127.0.0.1:${port}/`);
        break;
      } catch (error) {
        if (attempt > 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    return measure(`http://127.0.0.1:${port}/`, child.pid);
  } finally {
    child.kill();
  }
}

/** Signs up, makes a team with THREADS threads, and answers the endpoints to load. */
async function prepare(server) {
  const token = await server.signIn();
  const auth = { authorization: `Bearer ${token}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const post = async (path, body) => (await server.call(path, { method: 'POST', headers: json, body: JSON.stringify(body) })).json();
  const { team } = await post('/api/v2/teams', { name: 'Benchmark shop' });
  const teamPath = `/api/v2/teams/${team.public_id}`;
  const { header, rows } = await inventoryRows(server, THREADS);
  const imported = await post(`${teamPath}/threads/import`, { csv: [header, ...rows].join('\n'), commit: true });
  if (imported.added !== THREADS) throw new Error(`the import added ${imported.added} threads`);
  const page = await (await server.call(`${teamPath}/threads`, { headers: auth })).json();
  const thread = page.threads[0].id;
  return [
    ['GET /healthz', '/healthz', {}],
    ['GET /api/v2/teams', '/api/v2/teams', { headers: auth }],
    ['GET /api/v2/users/me', '/api/v2/users/me', { headers: auth }],
    [`GET threads, page 1 of ${THREADS}`, `${teamPath}/threads`, { headers: auth }],
    ['POST threads/{id}/adjust +1', `${teamPath}/threads/${thread}/adjust`, { method: 'POST', headers: json, body: '{"delta":1}' }],
    ['PATCH team settings', `${teamPath}/settings`, { method: 'PATCH', headers: json, body: '{"currency":"EUR"}' }],
  ];
}

/**
 * The server's resident memory now and at its peak, in MB (Linux's /proc), and what it holds now:
 * anonymous (the heap, the stacks: the process's own) and file-backed (the binary's pages mapped
 * from the file, which the kernel can drop and read again).
 */
function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)[1]) / 1024;
  return { rss: mb('VmRSS'), peak: mb('VmHWM'), anon: mb('RssAnon'), file: mb('RssFile') };
}

/** Starts Bobbin on `databaseUrl` and loads each endpoint; answers the results and its memory. */
async function measureBobbin(databaseUrl) {
  const server = await startServer({ name: 'bench-http', quiet: true, env: serverEnv(databaseUrl), binary });
  try {
    const results = [];
    for (const [name, path, request] of await prepare(server)) {
      if (only && !only.some((word) => name.includes(word))) continue;
      results.push({ name, ...wrk(server.base + path, server.pid, request) });
    }
    return { results, afterLoad: memory(server.pid) };
  } finally {
    server.stop();
  }
}

function serverEnv(databaseUrl) {
  return { BOBBIN_LOG: process.env.BOBBIN_LOG ?? 'info', DATABASE_URL: databaseUrl };
}

/**
 * Start-up on an existing database: the time from starting the process to its first 200 from
 * /healthz (asked again as soon as the port refuses), the median of STARTS, and the memory of
 * the last one once started and idle for a second.
 */
async function measureStartUp(databaseUrl) {
  const times = [];
  let idle;
  for (let run = 0; run < STARTS; run += 1) {
    const started = performance.now();
    const server = await startServer({ name: 'bench-start', quiet: true, env: serverEnv(databaseUrl), poll: 0, binary });
    times.push(performance.now() - started);
    if (run === STARTS - 1) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      idle = memory(server.pid);
    }
    server.stop();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { median: median(times), fastest: Math.min(...times), idle };
}

/** The median of `values`. */
function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

/**
 * Two builds compared by interleaving, on SQLite: each started once on a database of its own and
 * prepared alike, then each endpoint loaded on one build and the other in turn, ROUNDS times, the
 * order swapped every round. The machine's slow and fast spells move a whole run's rates more
 * than a change of a few per cent does; loads a few seconds apart share them. Prints each
 * build's median CPU time per request and requests/s, and every round's CPU time.
 */
async function compareBuilds() {
  const builds = [];
  try {
    for (const build of [binary, compare]) {
      const databaseUrl = `sqlite://${join(scratch, `compare-${builds.length}.db`)}`;
      const server = await startServer({ name: 'bench-compare', quiet: true, env: serverEnv(databaseUrl), binary: build });
      builds.push({ build, server, endpoints: await prepare(server), runs: [] });
    }
    console.log(`wrk: ${CONNECTIONS} connections, 2 threads, ${SECONDS_EACH} s each, loopback; ${ROUNDS} rounds, SQLite`);
    for (const [index, [name]] of builds[0].endpoints.entries()) {
      if (only && !only.some((word) => name.includes(word))) continue;
      for (const build of builds) build.runs = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        for (const build of round % 2 ? [...builds].reverse() : builds) {
          const [, path, request] = build.endpoints[index];
          const run = wrk(build.server.base + path, build.server.pid, request);
          if (run.errors > 0) throw new Error(`${name} on ${build.build}: ${run.errors} answers other than 2xx`);
          build.runs.push(run);
        }
      }
      console.log(`\n${name}`);
      for (const { build, runs } of builds) {
        const cpu = runs.map((run) => run.cpuEach);
        const rate = Math.round(median(runs.map((run) => run.perSecond))).toLocaleString('en');
        const each = cpu.map((value) => value.toFixed(0)).join(' ');
        console.log(`  ${build}: ${median(cpu).toFixed(1)} µs of CPU a request (median; ${each}), ${rate} requests/s`);
      }
    }
  } finally {
    for (const { server } of builds) server.stop();
  }
}

function printTable(title, results, reference) {
  console.log(`\n${title}`);
  console.log('| Endpoint | Requests/s | Share of bare axum | p50 | p99 | CPU per request | Not 2xx |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const { name, perSecond, p50, p99, cpuEach, errors } of results) {
    const share = ((100 * perSecond) / reference).toFixed(1);
    console.log(
      `| ${name} | ${Math.round(perSecond).toLocaleString('en')} | ${share}% | ${p50.toFixed(2)} ms | ${p99.toFixed(2)} ms | ${cpuEach.toFixed(0)} µs | ${errors} |`,
    );
  }
}

if (compare) {
  await compareBuilds();
  process.exit();
}

const postgres = process.env.BOBBIN_TEST_POSTGRES_URL;
const database = `bobbin_bench_${process.pid}`;
const psql = (sql) => execFileSync('psql', [postgres, '-Atqc', sql], { stdio: ['ignore', 'ignore', 'inherit'] });

const before = await withReference((url, pid) => wrk(url, pid));
const sqliteUrl = `sqlite://${join(scratch, 'bobbin.db')}`;
const sqlite = await measureBobbin(sqliteUrl);
const startUp = await measureStartUp(sqliteUrl);
let onPostgres = null;
if (postgres) {
  psql(`CREATE DATABASE ${database}`);
  try {
    onPostgres = await measureBobbin(postgres.replace(/\/[^/]*$/, `/${database}`));
  } finally {
    psql(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  }
}
const after = await withReference((url, pid) => wrk(url, pid));
const reference = (before.perSecond + after.perSecond) / 2;

console.log(
  `\nbare axum (examples/bare_axum): ${Math.round(before.perSecond).toLocaleString('en')} requests/s before, ${Math.round(after.perSecond).toLocaleString('en')} after; p50 ${before.p50.toFixed(2)} ms, p99 ${before.p99.toFixed(2)} ms; CPU per request ${before.cpuEach.toFixed(1)} and ${after.cpuEach.toFixed(1)} µs`,
);
console.log(`wrk: ${CONNECTIONS} connections, 2 threads, ${SECONDS_EACH} s each, loopback`);
printTable('SQLite', sqlite.results, reference);
if (onPostgres) printTable('PostgreSQL', onPostgres.results, reference);
const mb = ({ rss, peak, anon, file }) =>
  `${rss.toFixed(1)} MB (anonymous ${anon.toFixed(1)}, file ${file.toFixed(1)}; peak ${peak.toFixed(1)} MB)`;
console.log(
  `\nStart-up on the SQLite database above, to the first 200 of /healthz: median ${startUp.median.toFixed(1)} ms, fastest ${startUp.fastest.toFixed(1)} ms of ${STARTS}`,
);
console.log(`Memory, SQLite: idle after start ${mb(startUp.idle)}; after the load above ${mb(sqlite.afterLoad)}`);
if (onPostgres) console.log(`Memory, PostgreSQL: after the load above ${mb(onPostgres.afterLoad)}`);
const failed = [...sqlite.results, ...(onPostgres?.results ?? [])].filter((result) => result.errors > 0);
if (failed.length) {
  console.error(`\nAnswers other than 2xx: ${failed.map((result) => `${result.name} (${result.errors})`).join(', ')}`);
  process.exitCode = 1;
}
