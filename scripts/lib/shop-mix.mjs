// The shop benchmark's shops and what their people do (issue 47, point 4), for scripts/bench-http.mjs:
//
// - setUpShops: TEAMS teams of PEOPLE people (an owner, an admin, the rest members: invited, and
//   accepting), each team with two machines and 500 to 2,000 catalogue threads imported by CSV
//   (the same teams, sizes and threads in every run and for every build: the choices come from a
//   seeded generator). Each team works from one address of its own (X-Forwarded-For, which the
//   servers are told to trust): a shop behind its router, so the per-address limits on sign-ups,
//   sign-ins and refreshes apply as shipped, without raising them.
// - signInEveryone: each person signs in with their password.
// - keepSessionsFresh: each person's app refreshes its access token a minute and a half before
//   it expires, as the auth client does; the first refreshes are spread evenly over one token's
//   life, as if the people had signed in at different times, so refreshes come at an even rate.
// - PAGES: the pages a person opens, how often, and the API calls each makes in the app's order
//   (the app's code is cited at each). Fleet.visit opens one page for one idle person. The
//   access token goes as a bearer token; the app sends it in its auth cookie, which the server
//   reads and checks the same way (crates/server/src/extract.rs, `access_token`).
// - Fleet.measure: a closed loop (saturation) or an open loop (a given rate), timing each kind of
//   call apart, with the servers' CPU time and the load generator's own.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { Tally, closedLoop, cpuMicroseconds, openLoop } from './http-load.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const PASSWORD = 'Stitch-Count-4812';
/** The app refreshes the access token this long before it expires (@supabase/auth-js's EXPIRY_MARGIN_MS: 3 ticks of 30 s). */
export const REFRESH_MARGIN_SECONDS = 90;
export const SIGN_IN = 'POST /auth/v1/token?grant_type=password';
export const REFRESH = 'POST /auth/v1/token?grant_type=refresh_token';

/** A small seeded generator (mulberry32): the same teams in every run and for every build. */
function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const randomInt = (below, random = Math.random) => Math.floor(random() * below);
const randomHex = () => `#${randomInt(0x1000000).toString(16).padStart(6, '0').toUpperCase()}`;

/** The WebAssembly pricing core (crates/wasm/pkg, which `make build` and `make dist` build), as the calculator loads it. */
let pricingCore;
async function loadPricing() {
  const pkg = join(root, 'crates/wasm/pkg');
  const core = await import(pathToFileURL(join(pkg, 'bobbin_pricing.js')).href);
  await core.default({ module_or_path: readFileSync(join(pkg, 'bobbin_pricing_bg.wasm')) });
  return { core, rates: core.defaultRates() };
}

/** One build on one database, behind one balancer: its servers (http-load's Server), its teams and people. */
export class Fleet {
  constructor(name, servers) {
    this.name = name;
    this.servers = servers;
    this.turn = 0;
    this.teams = [];
    this.people = [];
    /** Where the calls are counted now: each measured phase has a tally of its own; refreshes between phases go to `between`. */
    this.between = new Tally();
    this.tally = this.between;
    this.visits = 0;
    this.refreshing = new Set();
  }

  /** The server for the next request: in turn, as a balancer spreads them. */
  next() {
    return this.servers[this.turn++ % this.servers.length];
  }

  get pids() {
    return this.servers.map((server) => server.pid);
  }

  /** One call of the load by `person`, timed into the current tally: its answer, or null when not 2xx. */
  async call(kind, person, method, path, body) {
    const answer = await this.next().send({ method, path, token: person.access, from: person.team.from, body });
    return this.tally.record(kind, answer) ? answer : null;
  }

  /** A call of the setup: retried after a 503 (the server's heavy-work queue is full), thrown on any other answer but 2xx. */
  async setup(method, path, { token, from, body }) {
    for (let attempt = 1; ; attempt += 1) {
      const answer = await this.next().send({ method, path, token, from, body });
      if (answer.status === 503 && attempt < 20) {
        await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
        continue;
      }
      const text = answer.body.toString();
      if (answer.status < 200 || answer.status > 299) throw new Error(`setup: ${method} ${path}: ${answer.status} ${text.slice(0, 500)}`);
      return text ? JSON.parse(text) : null;
    }
  }

  /** A person not in the middle of a page, at random. */
  idlePerson() {
    const start = randomInt(this.people.length);
    for (let offset = 0; offset < this.people.length; offset += 1) {
      const person = this.people[(start + offset) % this.people.length];
      if (!person.busy) return person;
    }
    return null;
  }

  /** One page, chosen by the weights of PAGES, opened by an idle person (none idle: counted, nothing sent). */
  async visit() {
    const person = this.idlePerson();
    if (!person) {
      // Everyone is busy (more workers than people): a pause, so a closed loop does not spin.
      this.noOneIdle = (this.noOneIdle ?? 0) + 1;
      await new Promise((resolve) => setTimeout(resolve, 1));
      return;
    }
    person.busy = true;
    this.visits += 1;
    try {
      await pickPage().open(new Visit(this, person));
    } finally {
      person.busy = false;
    }
  }

  /**
   * A measured phase of `seconds`: with `workers`, a closed loop (each worker opens the next page
   * as soon as the last is done: the saturation); with `rate` (requests a second), an open loop
   * opening pages at random moments at the rate that makes that many requests, by the calls a page
   * made on average at saturation (`callsPerVisit`). Answers the tally, the rate achieved, the
   * servers' CPU time per request and the load generator's (both user and system), and more.
   */
  async measure({ seconds, workers, rate, callsPerVisit }) {
    this.tally = new Tally();
    this.visits = 0;
    this.noOneIdle = 0;
    const cpuBefore = cpuMicroseconds(this.pids);
    const driverBefore = process.cpuUsage();
    const run = workers
      ? { elapsed: await closedLoop({ workers, seconds, work: () => this.visit() }) }
      : await openLoop({ rate: rate / callsPerVisit, seconds, work: () => this.visit() });
    const cpu = cpuMicroseconds(this.pids) - cpuBefore;
    const driver = process.cpuUsage(driverBefore);
    const tally = this.tally;
    const visits = this.visits;
    this.tally = this.between;
    const requests = tally.requests;
    const refreshes = tally.kinds.get(REFRESH);
    const refreshCount = refreshes ? refreshes.times.length + refreshes.failures : 0;
    return {
      tally,
      ...run,
      visits,
      noOneIdle: this.noOneIdle,
      requests,
      perSecond: requests / run.elapsed,
      refreshesPerSecond: refreshCount / run.elapsed,
      callsPerVisit: (requests - refreshCount) / Math.max(1, visits),
      cpuEach: cpu / requests,
      driverEach: (driver.user + driver.system) / requests,
    };
  }

  /** Stops refreshing and waits for the refreshes under way. */
  async stop() {
    clearInterval(this.refreshTimer);
    await Promise.all(this.refreshing);
    for (const server of this.servers) server.close();
  }
}

/**
 * Makes the teams: `teams` of `people` people, each team with two machines and an inventory of
 * `minThreads` to `maxThreads` entries drawn from `pool` (inventoryRows of ./bobbin-server.mjs),
 * `concurrency` teams at a time. Each person's session from the sign-up is dropped: they sign in
 * with signInEveryone.
 */
export async function setUpShops(fleet, { teams, people, minThreads, maxThreads, pool, concurrency = 4 }) {
  const random = seeded(47);
  const plans = [];
  for (let index = 0; index < teams; index += 1) {
    const size = minThreads + randomInt(maxThreads - minThreads + 1, random);
    // A partial shuffle: the first `size` of the pool's rows in a random order.
    const rows = [...pool.rows];
    for (let i = 0; i < size; i += 1) {
      const j = i + randomInt(rows.length - i, random);
      [rows[i], rows[j]] = [rows[j], rows[i]];
    }
    plans.push({ index, rows: rows.slice(0, size) });
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < plans.length) await setUpShop(fleet, plans[next++], people, pool.header);
    }),
  );
  fleet.teams.sort((a, b) => a.index - b.index);
  fleet.people = fleet.teams.flatMap((team) => team.people);
}

async function setUpShop(fleet, { index, rows }, size, header) {
  // 10.x.y.1: one address per shop, up to 65,536 shops.
  const from = `10.${(index >> 8) & 255}.${index & 255}.1`;
  const team = { index, from, people: [], threads: rows.length };
  // The servers run with --autoconfirm: the sign-up is confirmed at once.
  const signUp = async (n, role) => {
    const email = `person${n + 1}.shop${index + 1}@example.com`;
    const session = await fleet.setup('POST', '/auth/v1/signup', { from, body: { email, password: PASSWORD } });
    return { email, id: session.user.id, role, team, access: session.access_token, busy: false };
  };
  const owner = await signUp(0, 'owner');
  const made = await fleet.setup('POST', '/api/v2/teams', { token: owner.access, from, body: { name: `Shop ${index + 1}` } });
  team.path = `/api/v2/teams/${made.team.public_id}`;
  team.people.push(owner);
  const as = { token: owner.access, from };
  for (let n = 1; n < size; n += 1) {
    const person = await signUp(n, n === 1 ? 'admin' : 'member');
    const { invite } = await fleet.setup('POST', `${team.path}/invites`, { ...as, body: { email: person.email, role: person.role } });
    await fleet.setup('POST', `/api/v2/invites/${invite.public_id}/accept`, { token: person.access, from, body: {} });
    team.people.push(person);
  }
  for (const name of ['Tajima TMBR-SC', 'Brother PR1055X']) await fleet.setup('POST', `${team.path}/machines`, { ...as, body: { name } });
  const imported = await fleet.setup('POST', `${team.path}/threads/import`, {
    ...as,
    body: { csv: [header, ...rows].join('\n'), commit: true },
  });
  if (imported.added !== rows.length)
    throw new Error(`setup: shop ${index + 1}'s import added ${imported.added} of ${rows.length} threads`);
  fleet.teams.push(team);
}

/** Takes a session's tokens; `expiresAt` on performance.now()'s clock. */
function adopt(person, session) {
  person.access = session.access_token;
  person.refresh = session.refresh_token;
  person.expiresAt = performance.now() + session.expires_in * 1000;
}

/**
 * Every person signs in with their password, `concurrency` at a time (each sign-in hashes the
 * password: tens of milliseconds of CPU). Answers the tally and the seconds taken.
 */
export async function signInEveryone(fleet, { concurrency = 4 } = {}) {
  const tally = new Tally();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < fleet.people.length) {
        const person = fleet.people[next++];
        const body = { email: person.email, password: PASSWORD };
        const answer = await fleet
          .next()
          .send({ method: 'POST', path: '/auth/v1/token?grant_type=password', from: person.team.from, body });
        if (!tally.record(SIGN_IN, answer)) throw new Error(`the sign-in of ${person.email} answered ${answer.status} ${answer.body}`);
        adopt(person, JSON.parse(answer.body.toString()));
      }
    }),
  );
  return { tally, seconds: (performance.now() - started) / 1000 };
}

/**
 * From now until fleet.stop(), each person refreshes their access token REFRESH_MARGIN_SECONDS
 * before it expires, as the app's auth client does, the refreshes counted in the fleet's current
 * tally. Tokens last `period` + REFRESH_MARGIN_SECONDS seconds (the servers' --jwt-expiry), so each
 * person refreshes every `period` seconds; the first refresh of each comes at a random moment of
 * the first period (or earlier, if their token expires sooner), so that the fleet's refreshes come
 * at an even rate, people / period a second, from the start.
 */
export function keepSessionsFresh(fleet, { period }) {
  const margin = REFRESH_MARGIN_SECONDS * 1000;
  const now = performance.now();
  for (const person of fleet.people) person.refreshAt = Math.min(now + Math.random() * period * 1000, person.expiresAt - margin);
  const refresh = async (person) => {
    const body = { refresh_token: person.refresh };
    const answer = await fleet
      .next()
      .send({ method: 'POST', path: '/auth/v1/token?grant_type=refresh_token', from: person.team.from, body });
    if (fleet.tally.record(REFRESH, answer)) {
      adopt(person, JSON.parse(answer.body.toString()));
      person.refreshAt = person.expiresAt - margin;
    } else {
      // Counted as a failure; tried again in 5 s, as the client would on its next tick.
      person.refreshAt = performance.now() + 5_000;
    }
  };
  fleet.refreshTimer = setInterval(() => {
    const now = performance.now();
    for (const person of fleet.people) {
      if (person.refreshAt > now || person.refreshPending) continue;
      person.refreshPending = true;
      const pending = refresh(person).finally(() => {
        person.refreshPending = false;
        fleet.refreshing.delete(pending);
      });
      fleet.refreshing.add(pending);
    }
  }, 100);
}

// ---- The pages -------------------------------------------------------------------------------

// The kinds of call, as the tables name them (`…` is /api/v2/teams/{team}).
const PROFILE = 'GET /users/me';
const MY_INVITES = 'GET /users/me/invites';
const TEAMS = 'GET /teams';
const TEAM_SETTINGS = 'GET …/settings';
const MEMBER_SETTINGS = 'GET …/members/settings';
const LOW_COUNT = 'GET …/threads?low=true&per_page=1';
const LIST = 'GET …/threads (a page by code)';
const SEARCH = 'GET …/threads?q= (search)';
const ADJUST = 'POST …/threads/{id}/adjust (+1)';
const OWNED = 'GET …/threads/owned';
const MACHINES = 'GET …/machines';
const QUOTES = 'GET …/quotes';
const CLOSEST = 'GET …/threads/closest?colours= (a design)';
const SAVE_QUOTE = 'POST …/quotes';
const TEAM = 'GET … (the team)';
const MEMBERS = 'GET …/members';
const TEAM_INVITES = 'GET …/invites';
const SAVE_SETTINGS = 'PATCH …/settings';

/** The calls of the load in the order the tables list them. */
export const CALLS = [
  PROFILE,
  MY_INVITES,
  TEAMS,
  TEAM_SETTINGS,
  MEMBER_SETTINGS,
  LOW_COUNT,
  LIST,
  SEARCH,
  ADJUST,
  OWNED,
  MACHINES,
  QUOTES,
  CLOSEST,
  SAVE_QUOTE,
  TEAM,
  MEMBERS,
  TEAM_INVITES,
  SAVE_SETTINGS,
  REFRESH,
];

/** One person's visit of one page: the calls go out with their token, from their shop's address. */
class Visit {
  constructor(fleet, person) {
    this.fleet = fleet;
    this.person = person;
    this.team = person.team.path;
  }

  get(kind, path) {
    return this.fleet.call(kind, this.person, 'GET', path);
  }

  send(kind, method, path, body) {
    return this.fleet.call(kind, this.person, method, path, body);
  }
}

/** The thread list's address for `filters`, with the app's defaults (threadQuery in app-react/src/features/inventory/api/get-threads.ts). */
const listPath = (team, { q, page = 1 } = {}) =>
  `${team}/threads?${q ? `q=${encodeURIComponent(q)}&` : ''}sort=code&order=asc&page=${page}&per_page=50`;

/** What people search the list for: colour names and the start of a code. */
const SEARCHES = [
  'blue',
  'red',
  'green',
  'gold',
  'grey',
  'white',
  'black',
  'pink',
  'navy',
  'purple',
  'yellow',
  'orange',
  'brown',
  '18',
  '20',
];

/**
 * The pages, how many of every 100 visits open each (`weight`), and what each calls, in the app's
 * order (calls made at once in the app are made at once here). A visit's data is taken as stale
 * (older than the app's 2 minutes), so the page reads it.
 */
export const PAGES = [
  {
    // Opening the app, at the dashboard: the guards' pending invites and the profile, then the
    // teams and the current team's settings (app/teams.ts, features/teams/init.ts), then the
    // dashboard's count of low threads (features/inventory/components/LowStock.tsx).
    name: 'dashboard',
    weight: 10,
    async open(v) {
      const [profile] = await Promise.all([v.get(PROFILE, '/api/v2/users/me'), v.get(MY_INVITES, '/api/v2/users/me/invites')]);
      if (!profile || !(await v.get(TEAMS, '/api/v2/teams'))) return;
      await Promise.all([v.get(TEAM_SETTINGS, `${v.team}/settings`), v.get(MEMBER_SETTINGS, `${v.team}/members/settings`)]);
      await v.get(LOW_COUNT, `${v.team}/threads?low=true&per_page=1`);
    },
  },
  {
    // The thread inventory's first page by code (features/inventory/threads-page.tsx); one visit in four goes on to the second.
    name: 'thread list',
    weight: 20,
    async open(v) {
      if (!(await v.get(LIST, listPath(v.team)))) return;
      if (Math.random() < 0.25) await v.get(LIST, listPath(v.team, { page: 2 }));
    },
  },
  {
    // A search typed into the list: the list follows the typing (a deferred value), so a word's
    // first letters and then the whole word.
    name: 'search',
    weight: 15,
    async open(v) {
      const word = SEARCHES[randomInt(SEARCHES.length)];
      if (!(await v.get(SEARCH, listPath(v.team, { q: word.slice(0, 2) })))) return;
      if (word.length > 2) await v.get(SEARCH, listPath(v.team, { q: word }));
    },
  },
  {
    // Spools taken from the shelf: one of the list's first five pages, then one to three `+1`s on
    // its entries, each followed by the list read again (features/inventory/api/adjust-thread.ts:
    // the write marks the team's thread reads stale).
    name: '+1 taps',
    weight: 35,
    async open(v) {
      const page = 1 + randomInt(Math.min(5, Math.ceil(v.person.team.threads / 50)));
      const list = await v.get(LIST, listPath(v.team, { page }));
      if (!list) return;
      const ids = JSON.parse(list.body.toString()).threads.map((thread) => thread.id);
      for (let taps = 1 + randomInt(3); taps > 0; taps -= 1) {
        if (!(await v.send(ADJUST, 'POST', `${v.team}/threads/${ids[randomInt(ids.length)]}/adjust`, { delta: 1 }))) return;
        if (!(await v.get(LIST, listPath(v.team, { page })))) return;
      }
    },
  },
  {
    // The converter with "only threads we own": the team's owned catalogue threads, all at once
    // (features/thread-converter/api/get-owned-threads.ts); the conversion runs in the browser.
    name: 'converter',
    weight: 8,
    async open(v) {
      await v.get(OWNED, `${v.team}/threads/owned`);
    },
  },
  {
    // The pricing calculator (features/pricing/pricing-page.tsx): the machines and the saved
    // quotes; a design dropped in, whose four colours are looked up among the owned threads in one
    // request (api/get-closest-threads.ts); the job priced in the browser by the WebAssembly core
    // and saved (api/create-quote.ts), and the saved quotes read again.
    name: 'pricing',
    weight: 10,
    async open(v) {
      pricingCore ??= await loadPricing();
      const quotes = `${v.team}/quotes?page=1&per_page=20`;
      await Promise.all([v.get(MACHINES, `${v.team}/machines`), v.get(QUOTES, quotes)]);
      const colours = Array.from({ length: 4 }, () => randomHex().slice(1));
      await v.get(CLOSEST, `${v.team}/threads/closest?colours=${colours.join(',')}`);
      const job = { stitches: 2_000 + randomInt(28_000), colours: 4, quantity: 1 + randomInt(200) };
      const { rates, core } = pricingCore;
      const { quote: result } = core.priceJob({ rates, job, currency: 'EUR' });
      const design = { file_name: 'logo.dst', stitches: job.stitches, colours: job.colours };
      const draft = { name: `${job.quantity} caps`, currency: 'EUR', rates, job, design, result };
      if (await v.send(SAVE_QUOTE, 'POST', `${v.team}/quotes`, draft)) await v.get(QUOTES, quotes);
    },
  },
  {
    // The team page (features/teams/team-page.tsx): the team, its members and, for admins and
    // owners, its invites; they then save the team's settings (components/TeamSettingsForm.tsx).
    name: 'settings',
    weight: 2,
    async open(v) {
      const manages = v.person.role !== 'member';
      await Promise.all([
        v.get(TEAM, v.team),
        v.get(MEMBERS, `${v.team}/members`),
        manages ? v.get(TEAM_INVITES, `${v.team}/invites`) : null,
      ]);
      if (manages) await v.send(SAVE_SETTINGS, 'PATCH', `${v.team}/settings`, { currency: 'EUR', default_stitch_rate: 1.1 });
    },
  },
];

const TOTAL_WEIGHT = PAGES.reduce((sum, page) => sum + page.weight, 0);

function pickPage() {
  let left = Math.random() * TOTAL_WEIGHT;
  for (const page of PAGES) {
    left -= page.weight;
    if (left < 0) return page;
  }
  return PAGES[PAGES.length - 1];
}
