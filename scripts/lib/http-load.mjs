// The load generator of the shop benchmark (scripts/lib/shop-mix.mjs, run by scripts/bench-http.mjs):
// an HTTP client that times each answer, a tally of the times by kind of call, and the two ways of
// loading a server: a closed loop (a fixed number of workers, each starting its next piece of work
// as soon as the last is answered: as much as the server takes, its saturation) and an open loop
// (work arriving at a fixed average rate, at random moments, whether or not the server keeps up:
// what the times are at a given share of that saturation).
//
// Loopback only: every request goes to 127.0.0.1, and each gives up after REQUEST_TIMEOUT_MS.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const REQUEST_TIMEOUT_MS = 20_000;

/**
 * One server, as the load generator reaches it: keep-alive connections, at most `connections`
 * open at once (more requests wait in the client for one to be free, as a browser's do).
 */
export class Server {
  constructor(base, pid, connections) {
    const { hostname, port } = new URL(base);
    if (hostname !== '127.0.0.1') throw new Error(`the benchmark loads loopback only, not ${base}`);
    this.base = base;
    this.port = Number(port);
    this.pid = pid;
    this.agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  }

  /**
   * Sends one request and reads its whole answer. Answers `{ status, ms, body }`: the status (or
   * the string 'error' when no answer came), the milliseconds from sending to the answer's last
   * byte, and the body as a Buffer. `token` goes as a bearer token, `from` as X-Forwarded-For (the
   * client's address, which the servers are told to trust), `body` as JSON.
   */
  send({ method = 'GET', path, token, from, body }) {
    const headers = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (from) headers['x-forwarded-for'] = from;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(payload);
    }
    return new Promise((resolve) => {
      const started = performance.now();
      const request = http.request({ host: '127.0.0.1', port: this.port, method, path, headers, agent: this.agent }, (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode, ms: performance.now() - started, body: Buffer.concat(chunks) }));
        response.on('error', (error) => resolve({ status: 'error', ms: performance.now() - started, body: Buffer.from(String(error)) }));
      });
      request.setTimeout(REQUEST_TIMEOUT_MS, () => request.destroy(new Error(`no answer in ${REQUEST_TIMEOUT_MS} ms`)));
      request.on('error', (error) => resolve({ status: 'error', ms: performance.now() - started, body: Buffer.from(String(error)) }));
      request.end(payload);
    });
  }

  close() {
    this.agent.destroy();
  }
}

/** The `q` quantile (0.5, 0.99) of the sorted `values`: the value at or below which that share lies. */
export function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** Answers by kind of call: the times of the 2xx ones, and the others counted with the last seen. */
export class Tally {
  kinds = new Map();

  /** Counts `answer` (from Server.send) under `kind`; answers whether it was a 2xx. */
  record(kind, answer) {
    let entry = this.kinds.get(kind);
    if (!entry) {
      entry = { times: [], failures: 0, lastFailure: '' };
      this.kinds.set(kind, entry);
    }
    const ok = typeof answer.status === 'number' && answer.status >= 200 && answer.status < 300;
    if (ok) entry.times.push(answer.ms);
    else {
      entry.failures += 1;
      entry.lastFailure = `${answer.status} ${answer.body.toString('utf8', 0, 300)}`;
    }
    return ok;
  }

  /** Every answer counted, 2xx or not. */
  get requests() {
    let total = 0;
    for (const { times, failures } of this.kinds.values()) total += times.length + failures;
    return total;
  }

  get failures() {
    let total = 0;
    for (const { failures } of this.kinds.values()) total += failures;
    return total;
  }

  /** Per kind: the count, p50 and p99 in ms, and the answers that were not 2xx. */
  summary() {
    const rows = new Map();
    for (const [kind, { times, failures, lastFailure }] of this.kinds) {
      const sorted = Float64Array.from(times).sort();
      rows.set(kind, { count: times.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), failures, lastFailure });
    }
    return rows;
  }
}

/** The CPU time processes `pids` have used, user and system, in microseconds (Linux's /proc). */
export function cpuMicroseconds(pids) {
  let total = 0;
  for (const pid of pids) {
    // After the command's name, in parentheses: the state is field 3, utime and stime 14 and 15.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1).split(' ');
    total += ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND;
  }
  return total;
}
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/**
 * `work` again and again on `workers` workers at once for `seconds`, each starting again as soon
 * as its last one ends. Answers the seconds it took, until the last one ended.
 */
export async function closedLoop({ workers, seconds, work }) {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < deadline) await work();
    }),
  );
  return (performance.now() - started) / 1000;
}

/**
 * `work` started `rate` times a second on average for `seconds`, at random moments (a Poisson
 * process: people do not wait for one another), without waiting for the earlier ones to end; at
 * most `outstanding` at once, past which a start is skipped and counted. Answers the seconds it
 * took until the last one ended, the starts skipped, and how late the starts were (p99 in ms: a
 * load generator too busy to start work on time would flatter the server).
 */
export async function openLoop({ rate, seconds, work, outstanding = 2_000 }) {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const running = new Set();
  const late = [];
  let skipped = 0;
  let next = started;
  while (next < deadline) {
    const wait = next - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    late.push(Math.max(0, performance.now() - next));
    if (running.size >= outstanding) skipped += 1;
    else {
      const one = work().finally(() => running.delete(one));
      running.add(one);
    }
    next += (-Math.log(1 - Math.random()) * 1000) / rate;
  }
  await Promise.all(running);
  return { elapsed: (performance.now() - started) / 1000, skipped, lateP99: quantile(Float64Array.from(late).sort(), 0.99) };
}
