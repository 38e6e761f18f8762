// The API's speed, in two parts, run through scripts/bench-http.sh (which installs wrk and builds
// the reference server first). MODE picks them: `endpoints`, `mix`, or `all` (the default), one
// after the other.
//
// Single endpoints (MODE=endpoints), as a share of the framework's. In one run, on loopback only:
// the reference (examples/bare_axum, one JSON handler), then the server on SQLite, then on
// PostgreSQL (when BOBBIN_TEST_POSTGRES_URL names a server, as scripts/with-postgres.sh sets it; a
// database of its own is made and dropped), then the reference again. Each endpoint gets
// SECONDS_EACH seconds (5) of wrk at 64 connections and 2 threads. Before loading Bobbin it signs
// up one account, makes a team and imports THREADS (1,000) catalogue threads, so the list's first
// page reads a real inventory. Every answer must be a 2xx: wrk's count of others is printed and
// fails the run, so a figure never hides errors. Printed per endpoint: requests/s, that as a
// percentage of the reference's (the mean of its two runs), p50 and p99 latency, and the server's
// CPU time per request (user and system, from /proc): on a shared machine the rates move with what
// else runs, the CPU time much less.
//
// COMPARE=/path/to/another/bobbin instead compares two builds by interleaving their loads
// (compareBuilds), on SQLite: for a change worth a few per cent, which separate runs cannot show.
//
// The shop (MODE=mix; issue 47, point 4): TEAMS (200) teams of PEOPLE (5) people, each team with
// MIN_THREADS to MAX_THREADS (500 to 2,000) catalogue threads, every person signed in and using
// the app's pages in the app's order and proportions (scripts/lib/shop-mix.mjs: the pages, their
// weights and their calls), while their tokens are refreshed at REFRESH_RATE (0.3) a second in all:
// the servers' token lifetime (--jwt-expiry) is set to people / REFRESH_RATE seconds plus the
// app's 90-second margin, so each person refreshes once in that time (1,000 people: every 56
// minutes, close to the default hour). Load comes from this process (scripts/lib/http-load.mjs),
// not wrk: each request carries its own person's token and depends on the answer before it. For
// each engine, SQLite (one server) and PostgreSQL (two servers on one database, requests
// alternating between them as a balancer would), and for each build, this one and BEFORE (a binary
// built from the commit before the data layer's simplification, e69b3a6; docs/benchmarks.md says
// how to build it; without it that comparison is skipped, and said so):
//
// 1. setup, untimed: sign-ups (the servers confirm them at once: --autoconfirm), teams, members,
//    machines and CSV imports; each shop calls from an address of its own (X-Forwarded-For, with
//    --trust-forwarded-for), so the per-address limits stay as shipped;
// 2. every person signs in with their password (timed, apart from the load);
// 3. saturation: a closed loop, CONCURRENCY (32) workers a server each opening the next page as
//    soon as the last is done, MIX_SECONDS (30) seconds, twice, the builds in turn (A B B A), after
//    a warm-up of each (a third of MIX_SECONDS, at most 10 s);
// 4. an open loop at 50% and then 80% of that build's saturation rate (pages opened at random
//    moments), MIX_SECONDS each: p50 and p99 of each kind of call, and CPU time per request.
//
// The load generator is measured the same way against the bare axum handler first: its ceiling on
// this machine, shared with the servers. The targets (printed as met or not): at 80% of saturation
// every call's p99 under 50 ms, on both engines; this build's saturation at least 80% of BEFORE's.
// docs/benchmarks.md ("API speed") records the results of both parts.
//
// Everything runs on 127.0.0.1, is bounded in time, and removes its folders and databases at the end.

import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import { freePort, inventoryRows, startServer } from './lib/bobbin-server.mjs';
import { Server, Tally, closedLoop, cpuMicroseconds } from './lib/http-load.mjs';
import { CALLS, Fleet, PAGES, REFRESH_MARGIN_SECONDS, SIGN_IN, keepSessionsFresh, setUpShops, signInEveryone } from './lib/shop-mix.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SECONDS_EACH = Number(process.env.SECONDS_EACH ?? 5);
const THREADS = Number(process.env.THREADS ?? 1_000);
const CONNECTIONS = 64;
const STARTS = 7;
const MODE = process.env.MODE ?? 'all';
if (!['all', 'endpoints', 'mix'].includes(MODE)) throw new Error(`MODE is endpoints, mix or all, not ${MODE}`);
// Only the endpoints whose name holds one of these words (`ENDPOINTS=adjust,threads`), to compare
// two builds on a few; all of them by default.
const only = process.env.ENDPOINTS?.split(',').filter(Boolean);
// A second build to compare with the first by interleaving (`COMPARE=/tmp/bobbin-before`), and how
// many rounds (ROUNDS, 8): see compareBuilds.
const compare = process.env.COMPARE;
const ROUNDS = Number(process.env.ROUNDS ?? 8);
const scratch = mkdtempSync(join(tmpdir(), 'bobbin-bench-http-'));
// What to undo at the end, last first (databases to drop), also after Ctrl-C.
const cleanups = [];
process.on('exit', () => {
  for (const cleanup of cleanups.reverse()) cleanup();
  rmSync(scratch, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

/** A copy of the binary at `path` in the scratch folder: a build finishing meanwhile does not change what is measured. */
function copied(path, name) {
  const copy = join(scratch, name);
  copyFileSync(path, copy);
  return copy;
}
// The server to measure (target/dist/bobbin, or BOBBIN_BINARY), the reference (BARE_AXUM, which
// bench-http.sh sets), and the build to compare the shop with (BEFORE), copied.
const binary = copied(process.env.BOBBIN_BINARY ?? join(root, 'target/dist/bobbin'), 'bobbin');
const bareAxum = copied(process.env.BARE_AXUM ?? join(root, 'target/dist/examples/bare_axum'), 'bare_axum');
const beforeBinary = process.env.BEFORE ? copied(process.env.BEFORE, 'bobbin-before') : null;
/** What a binary is, for the report: its path and when it was built, and the tree's commit when the run began. */
const described = (path) => `${path}, built ${statSync(path).mtime.toISOString().slice(0, 16)} UTC`;
const commitAtStart = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
const builtFrom = `${described(process.env.BOBBIN_BINARY ?? join(root, 'target/dist/bobbin'))}; the tree at ${commitAtStart} when the run began`;
const beforeBuiltFrom = process.env.BEFORE ? described(process.env.BEFORE) : null;

/** wrk's duration ("812.00us", "1.20ms", "1.01s") in milliseconds. */
function milliseconds(text) {
  const [, number, unit] = /^([\d.]+)(us|ms|s|m)$/.exec(text) ?? [];
  if (!number) throw new Error(`wrk printed a latency I cannot read: ${text}`);
  return Number(number) * { us: 0.001, ms: 1, s: 1000, m: 60_000 }[unit];
}

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
  const cpuBefore = cpuMicroseconds([pid]);
  const output = execFileSync('wrk', ['-t2', `-c${CONNECTIONS}`, `-d${SECONDS_EACH}s`, '--latency', '-s', script, url], {
    encoding: 'utf8',
  });
  const cpu = cpuMicroseconds([pid]) - cpuBefore;
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
  const child = spawn(bareAxum, [`127.0.0.1:${port}`], { stdio: 'inherit' });
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
    return await measure(`http://127.0.0.1:${port}/`, child.pid);
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

const postgres = process.env.BOBBIN_TEST_POSTGRES_URL;
const psql = (sql) => execFileSync('psql', [postgres, '-Atqc', sql], { stdio: ['ignore', 'ignore', 'inherit'] });
/** A new database on the PostgreSQL server, dropped at the end: its URL. */
function postgresDatabase(name) {
  const database = `bobbin_bench_${process.pid}_${name}`;
  psql(`CREATE DATABASE ${database}`);
  let dropped = false;
  const drop = () => {
    if (!dropped) psql(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    dropped = true;
  };
  cleanups.push(drop);
  return { url: postgres.replace(/\/[^/]*$/, `/${database}`), drop };
}

/** Single endpoints with wrk, against the reference before and after: prints the tables; answers whether every answer was a 2xx. */
async function runEndpoints() {
  const before = await withReference((url, pid) => wrk(url, pid));
  const sqliteUrl = `sqlite://${join(scratch, 'bobbin.db')}`;
  const sqlite = await measureBobbin(sqliteUrl);
  const startUp = await measureStartUp(sqliteUrl);
  let onPostgres = null;
  if (postgres) {
    const database = postgresDatabase('endpoints');
    try {
      onPostgres = await measureBobbin(database.url);
    } finally {
      database.drop();
    }
  }
  const after = await withReference((url, pid) => wrk(url, pid));
  const reference = (before.perSecond + after.perSecond) / 2;

  console.log(`\n## Single endpoints\n${new Date().toISOString().slice(0, 16)} UTC; ${builtFrom}`);
  console.log(
    `bare axum (examples/bare_axum): ${Math.round(before.perSecond).toLocaleString('en')} requests/s before, ${Math.round(after.perSecond).toLocaleString('en')} after; p50 ${before.p50.toFixed(2)} ms, p99 ${before.p99.toFixed(2)} ms; CPU per request ${before.cpuEach.toFixed(1)} and ${after.cpuEach.toFixed(1)} µs`,
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
  if (failed.length) console.error(`\nAnswers other than 2xx: ${failed.map((result) => `${result.name} (${result.errors})`).join(', ')}`);
  return failed.length === 0;
}

// ---- The shop mix ------------------------------------------------------------------------------

const TEAMS = Number(process.env.TEAMS ?? 200);
const PEOPLE = Number(process.env.PEOPLE ?? 5);
const MIN_THREADS = Number(process.env.MIN_THREADS ?? 500);
const MAX_THREADS = Number(process.env.MAX_THREADS ?? 2_000);
const MIX_SECONDS = Number(process.env.MIX_SECONDS ?? 30);
const REFRESH_RATE = Number(process.env.REFRESH_RATE ?? 0.3);
/** Closed-loop workers per server at saturation. */
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 32);
/** The shares of saturation at which the calls are timed, and the one the p99 target is set at. */
const SHARES = [0.5, 0.8];
const TARGET_SHARE = 0.8;
const TARGET_P99_MS = 50;
/** Connections from the load generator to each server: the server's default bound on requests in flight. */
const CONNECTIONS_PER_SERVER = 64;
/** The address access tokens name as their issuer: one for the servers behind one balancer. */
const SITE_URL = 'http://shop.bobbin.test';
/** Seconds between two refreshes of one person's token, and the token lifetime that gives it. */
const REFRESH_PERIOD = (TEAMS * PEOPLE) / REFRESH_RATE;
const JWT_EXPIRY = Math.round(REFRESH_PERIOD + REFRESH_MARGIN_SECONDS);

/**
 * One build on one engine, started: SQLite, one server on a fresh file; PostgreSQL, two servers on
 * a fresh database, the second started once the first has migrated it. Answers the Fleet (of
 * scripts/lib/shop-mix.mjs), with `handles` (startServer's) and `close`.
 */
async function startFleet(name, build, engine) {
  const slug = `mix_${name.replace(/\W+/g, '_')}`;
  const database = engine === 'SQLite' ? { url: `sqlite://${join(scratch, `${slug}.db`)}` } : postgresDatabase(slug);
  const env = {
    ...serverEnv(database.url),
    BOBBIN_AUTH_AUTOCONFIRM: 'true',
    BOBBIN_TRUST_FORWARDED_FOR: 'true',
    BOBBIN_JWT_EXPIRY: String(JWT_EXPIRY),
  };
  const handles = [];
  for (let count = engine === 'SQLite' ? 1 : 2; count > 0; count -= 1) {
    handles.push(await startServer({ name: 'bench-mix', quiet: true, env, binary: build, siteUrl: SITE_URL }));
  }
  const fleet = new Fleet(
    name,
    handles.map((handle) => new Server(handle.base, handle.pid, CONNECTIONS_PER_SERVER)),
  );
  fleet.handles = handles;
  fleet.close = async () => {
    await fleet.stop();
    for (const handle of handles) handle.stop();
    database.drop?.();
  };
  return fleet;
}

/** The load generator's own ceiling: the same closed loop against the bare axum handler, one GET a visit. */
async function mixOnReference() {
  return withReference(async (url, pid) => {
    const server = new Server(url.replace(/\/$/, ''), pid, CONNECTIONS_PER_SERVER);
    const tally = new Tally();
    const cpuBefore = cpuMicroseconds([pid]);
    const driverBefore = process.cpuUsage();
    const elapsed = await closedLoop({
      workers: CONCURRENCY,
      seconds: MIX_SECONDS,
      work: async () => tally.record('GET /', await server.send({ path: '/' })),
    });
    const driver = process.cpuUsage(driverBefore);
    server.close();
    const cpu = cpuMicroseconds([pid]) - cpuBefore;
    return {
      perSecond: tally.requests / elapsed,
      cpuEach: cpu / tally.requests,
      driverEach: (driver.user + driver.system) / tally.requests,
      failures: tally.failures,
    };
  });
}

const secondsSince = (since) => ((performance.now() - since) / 1000).toFixed(0);
const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * The shop on one engine, for this build and BEFORE: each set up and signed in, then the
 * saturation twice (A B B A), then 50% and 80% of each one's own. Answers one result a build.
 */
async function mixOnEngine(engine, pool) {
  const builds = [['this build', binary], ...(beforeBinary ? [['before', beforeBinary]] : [])];
  const fleets = [];
  try {
    for (const [name, build] of builds) {
      const fleet = await startFleet(name, build, engine);
      fleets.push(fleet);
      if (!pool.rows) Object.assign(pool, await inventoryRows(fleet.handles[0], Math.round(MAX_THREADS * 1.5)));
      let started = performance.now();
      await setUpShops(fleet, { teams: TEAMS, people: PEOPLE, minThreads: MIN_THREADS, maxThreads: MAX_THREADS, pool });
      const threads = fleet.teams.reduce((sum, team) => sum + team.threads, 0);
      console.log(
        `${engine}, ${name}: ${TEAMS} teams, ${fleet.people.length} people and ${threads.toLocaleString('en')} threads set up in ${secondsSince(started)} s`,
      );
      started = performance.now();
      fleet.signIns = await signInEveryone(fleet);
      console.log(`${engine}, ${name}: ${fleet.people.length} sign-ins in ${secondsSince(started)} s`);
      keepSessionsFresh(fleet, { period: REFRESH_PERIOD });
    }
    // Never more workers than people: a person opens one page at a time.
    const workers = (fleet) => Math.min(CONCURRENCY * fleet.servers.length, fleet.people.length);
    for (const fleet of fleets) await fleet.measure({ seconds: Math.min(10, MIX_SECONDS / 3), workers: workers(fleet) });
    for (const fleet of fleets) fleet.saturation = [];
    for (const order of [fleets, [...fleets].reverse()]) {
      for (const fleet of order) {
        const run = await fleet.measure({ seconds: MIX_SECONDS, workers: workers(fleet) });
        console.log(`${engine}, ${fleet.name}: saturation ${Math.round(run.perSecond).toLocaleString('en')} requests/s`);
        fleet.saturation.push(run);
      }
    }
    for (const fleet of fleets) fleet.at = new Map();
    for (const share of SHARES) {
      for (const fleet of fleets) {
        const rate = share * mean(fleet.saturation.map((run) => run.perSecond));
        const callsPerVisit = mean(fleet.saturation.map((run) => run.callsPerVisit));
        const run = await fleet.measure({ seconds: MIX_SECONDS, rate, callsPerVisit });
        console.log(
          `${engine}, ${fleet.name}: at ${share * 100}%, ${Math.round(run.perSecond).toLocaleString('en')} requests/s asked for ${Math.round(rate)}`,
        );
        fleet.at.set(share, { ...run, asked: rate });
      }
    }
    return fleets.map(({ name, saturation, at, signIns, people, between }) => ({
      engine,
      name,
      saturation,
      at,
      signIns,
      people: people.length,
      between,
    }));
  } finally {
    for (const fleet of fleets) await fleet.close();
  }
}

const ms = (value) => (Number.isNaN(value) ? '–' : value < 10 ? value.toFixed(1) : value.toFixed(0));
const rate = (value) => Math.round(value).toLocaleString('en');

/** The mix's tables and targets; answers whether every answer was a 2xx. */
function printMix(reference, results) {
  const people = TEAMS * PEOPLE;
  const load = loadavg().map((value) => value.toFixed(1));
  console.log(`\n## The shop mix`);
  console.log(`${new Date().toISOString().slice(0, 16)} UTC; load average now ${load.join(', ')}`);
  console.log(`this build: ${builtFrom}`);
  if (beforeBuiltFrom) console.log(`before: ${beforeBuiltFrom}`);
  console.log(
    `${TEAMS} teams of ${PEOPLE} (${people.toLocaleString('en')} people), ${MIN_THREADS} to ${MAX_THREADS} threads a team; tokens last ${JWT_EXPIRY} s, refreshed ${REFRESH_MARGIN_SECONDS} s before they end (${REFRESH_RATE} a second in all); phases of ${MIX_SECONDS} s; saturation: ${CONCURRENCY} workers a server`,
  );
  console.log(`Pages (of 100 visits): ${PAGES.map((page) => `${page.name} ${page.weight}`).join(', ')}`);
  console.log(
    `The load generator against bare axum (GET /, ${CONCURRENCY} workers): ${rate(reference.perSecond)} requests/s, ${reference.cpuEach.toFixed(0)} µs of the server's CPU and ${reference.driverEach.toFixed(0)} µs of the generator's a request`,
  );
  if (!beforeBinary) console.log('BEFORE was not given: the comparison with the build before this change was skipped.');

  console.log('\nSaturation (closed loop; both rounds):');
  console.log('| Engine | Build | Requests/s | Server CPU a request | Generator CPU a request | Calls a page | Not 2xx |');
  console.log('|---|---|---:|---:|---:|---:|---:|');
  for (const { engine, name, saturation } of results) {
    const rounds = saturation.map((run) => rate(run.perSecond)).join(', ');
    const cpu = mean(saturation.map((run) => run.cpuEach)).toFixed(0);
    const driver = mean(saturation.map((run) => run.driverEach)).toFixed(0);
    const calls = mean(saturation.map((run) => run.callsPerVisit)).toFixed(2);
    const failures = saturation.reduce((sum, run) => sum + run.tally.failures, 0);
    console.log(
      `| ${engine} | ${name} | ${rate(mean(saturation.map((run) => run.perSecond)))} (${rounds}) | ${cpu} µs | ${driver} µs | ${calls} | ${failures} |`,
    );
  }

  console.log('\nSign-in with a password (before the load; 4 at a time):');
  console.log('| Engine | Build | Sign-ins/s | p50; p99 |');
  console.log('|---|---|---:|---:|');
  for (const { engine, name, signIns, people: count } of results) {
    const { p50, p99 } = signIns.tally.summary().get(SIGN_IN);
    console.log(`| ${engine} | ${name} | ${(count / signIns.seconds).toFixed(1)} | ${ms(p50)}; ${ms(p99)} ms |`);
  }

  // Any answer not 2xx, in any phase or between them (refreshes while the other build was measured).
  let allOk = true;
  for (const { engine, name, saturation, at, between } of results) {
    for (const tally of [...saturation.map((run) => run.tally), ...[...at.values()].map((run) => run.tally), between]) {
      for (const [call, row] of tally.summary()) {
        if (!row.failures) continue;
        console.error(`${engine}, ${name}: ${call}: ${row.failures} answers not 2xx, the last: ${row.lastFailure}`);
        allOk = false;
      }
    }
  }
  const verdicts = [];
  for (const engine of [...new Set(results.map((result) => result.engine))]) {
    const builds = results.filter((result) => result.engine === engine);
    const columns = builds.flatMap((build) => SHARES.map((share) => ({ build, share, run: build.at.get(share) })));
    console.log(
      `\n${engine}: each call at ${SHARES.map((share) => `${share * 100}%`).join(' and ')} of its build's saturation (open loop), p50; p99 in ms`,
    );
    console.log(`| Call | Share of calls | ${columns.map(({ build, share }) => `${build.name}, ${share * 100}%`).join(' | ')} |`);
    console.log(`|---|---:|${columns.map(() => '---:|').join('')}`);
    const first = columns.find(({ share }) => share === TARGET_SHARE).run;
    for (const call of CALLS) {
      const shareOfCalls = ((100 * (first.tally.kinds.get(call)?.times.length ?? 0)) / first.requests).toFixed(1);
      const cells = columns.map(({ run }) => {
        const row = run.tally.summary().get(call);
        if (!row) return '–';
        return `${ms(row.p50)}; ${ms(row.p99)}${row.failures ? ` (${row.failures} not 2xx)` : ''}`;
      });
      console.log(`| ${call} | ${shareOfCalls}% | ${cells.join(' | ')} |`);
    }
    const line = (label, cell) => console.log(`| ${label} | | ${columns.map(cell).join(' | ')} |`);
    line('requests/s (asked for)', ({ run }) => `${rate(run.perSecond)} (${rate(run.asked)})`);
    line('server CPU a request', ({ run }) => `${run.cpuEach.toFixed(0)} µs`);
    line('generator CPU a request', ({ run }) => `${run.driverEach.toFixed(0)} µs`);
    line('token refreshes a second', ({ run }) => run.refreshesPerSecond.toFixed(2));
    line('late starts, p99; skipped', ({ run }) => `${ms(run.lateP99)} ms; ${run.skipped + run.noOneIdle}`);
    line('not 2xx', ({ run }) => String(run.tally.failures));

    const ours = builds.find((build) => build.name === 'this build');
    const summary = ours.at.get(TARGET_SHARE).tally.summary();
    const [worstCall, worst] = [...summary].reduce((a, b) => (b[1].p99 > a[1].p99 ? b : a));
    const p99Met = worst.p99 < TARGET_P99_MS && ours.at.get(TARGET_SHARE).tally.failures === 0;
    verdicts.push(
      `${engine}: every call's p99 under ${TARGET_P99_MS} ms at ${TARGET_SHARE * 100}% of saturation: ${p99Met ? 'met' : 'NOT met'} (the slowest: ${worstCall}, ${ms(worst.p99)} ms)`,
    );
    const previous = builds.find((build) => build.name === 'before');
    if (previous) {
      const ratio = mean(ours.saturation.map((run) => run.perSecond)) / mean(previous.saturation.map((run) => run.perSecond));
      verdicts.push(
        `${engine}: saturation at least 80% of the build before's: ${ratio >= 0.8 ? 'met' : 'NOT met'} (${(100 * ratio).toFixed(0)}%)`,
      );
    } else verdicts.push(`${engine}: saturation against the build before: skipped (no BEFORE)`);
  }
  console.log(`\nTargets:\n${verdicts.map((verdict) => `- ${verdict}`).join('\n')}`);
  return allOk;
}

async function runMix() {
  const reference = await mixOnReference();
  // The catalogue threads the teams' inventories are drawn from, read from the first server.
  const pool = {};
  const results = [...(await mixOnEngine('SQLite', pool))];
  if (postgres) results.push(...(await mixOnEngine('PostgreSQL', pool)));
  else console.log('PostgreSQL skipped: BOBBIN_TEST_POSTGRES_URL is not set (scripts/bench-http.sh sets it).');
  return printMix(reference, results);
}

if (compare) {
  await compareBuilds();
  process.exit();
}
let ok = true;
if (MODE !== 'mix') ok = await runEndpoints();
if (MODE !== 'endpoints') ok = (await runMix()) && ok;
if (!ok) {
  console.error('\nSome answers were not 2xx: see above.');
  process.exitCode = 1;
}
