// What the scripts that measure the release server through HTTP share (bench-inventory.mjs,
// load-inventory.mjs, bench-http.mjs): starting it on loopback, a confirmed account, and an
// inventory to import.
// Each script keeps its own measuring.
//
// The server runs in development mode on a free 127.0.0.1 port with a temporary folder as its
// working directory (so a fresh SQLite database unless the environment names another), and is
// stopped, its folder removed, when the script exits.

import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const PASSWORD = 'Stitch-Count-4812';

/** A port nothing listens on, found by binding port 0 and letting it go. */
export async function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Returns once the server answers its health check, whatever the answer (the first calls say what
 * is wrong), asking every `poll` ms for 10 s.
 */
async function waitForServer(base, poll) {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    try {
      await fetch(`${base}/healthz`);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, poll));
    }
  }
  throw new Error(`the server did not start on ${base}`);
}

/**
 * Starts the server and waits until it answers.
 *
 * `name` names the temporary folder (`bobbin-<name>-...`) and the account's e-mail
 * (`<name>-<time>@example.com`); `env` is added to the server's environment, which otherwise holds
 * only PATH; `binary` defaults to target/release/bobbin. With `quiet`, the server's log goes to a
 * file, printed only when it does not start (a load run's request lines would flood the terminal);
 * `poll` is how often it asks whether the server is up, in ms. `siteUrl` (the server's own address
 * by default) is the address access tokens name as their issuer: servers that share a database
 * behind one balancer are given the same one.
 */
export async function startServer({ name, env = {}, binary = join(root, 'target/release/bobbin'), quiet = false, poll = 100, siteUrl }) {
  const folder = mkdtempSync(join(tmpdir(), `bobbin-${name}-`));
  const log = join(folder, 'server.log');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(binary, ['serve', '--bind', `127.0.0.1:${port}`, '--env', 'development', '--site-url', siteUrl ?? base], {
    cwd: folder,
    stdio: ['ignore', 'ignore', quiet ? openSync(log, 'w') : 'inherit'],
    env: { PATH: process.env.PATH, ...env },
  });
  const stop = () => {
    child.kill();
    rmSync(folder, { recursive: true, force: true });
    process.off('exit', stop);
  };
  process.on('exit', stop);

  /** `fetch` against the server; throws with the body when the answer is not 2xx. */
  async function call(path, init = {}) {
    const response = await fetch(base + path, init);
    if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
    return response;
  }

  /** A confirmed account's access token: sign-up, the e-mailed link, then a password sign-in. */
  async function signIn() {
    const email = `${name}-${Date.now()}@example.com`;
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

  try {
    await waitForServer(base, poll);
  } catch (error) {
    if (quiet) process.stderr.write(readFileSync(log, 'utf8'));
    throw error;
  }
  return { base, pid: child.pid, call, signIn, stop };
}

/**
 * `entries` catalogue threads as inventory CSV rows (`header` and `rows`, without line ends): the
 * codes of the thread lines in catalogue order, with varied stock.
 */
export async function inventoryRows(server, entries) {
  const header = 'line,code,quantity,location,reorder_point';
  const { lines } = await (await server.call('/api/v2/catalog/lines')).json();
  const rows = [];
  for (const { id, kind } of lines) {
    if (rows.length >= entries) break;
    if (kind !== 'thread') continue;
    const { line } = await (await server.call(`/api/v2/catalog/lines/${id}`)).json();
    // Codes a chart lists more than once are left out: the import would refuse the second.
    const listedTwice = new Set(line.issues.map((issue) => issue.code));
    for (const { code } of line.threads) {
      if (rows.length >= entries) break;
      if (listedTwice.has(code)) continue;
      const n = rows.length + 1;
      rows.push(`${id},"${code}",${n % 12}.${n % 10},Shelf ${n % 40},2`);
    }
  }
  if (rows.length < entries) throw new Error(`the catalogue gave only ${rows.length} threads`);
  return { header, rows };
}
