// Makes the records the API fuzzer (scripts/api-fuzz.sh) points its path parameters at:
// `node scripts/api-fuzz-fixtures.mjs BASE_URL` against a fresh server started with
// `--autoconfirm`, then prints them as shell assignments (`FUZZ_TEAM_ID=...`) for the caller to
// export. Needs no npm packages; prices the quote with the WebAssembly core (crates/wasm/pkg), as
// the app does, since the server saves a quote only when its result is what the inputs give.
//
// Every record a DELETE (or revoke) could end gets a twin of its own, so that the fuzzer's
// deletes, which run in the same pass as everything else, never leave the other operations
// facing only 404s: the team, thread, machine, log entry, quote and member deleted are not the
// ones the reads and edits use.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const base = process.argv[2];
if (!base) {
  console.error('usage: node scripts/api-fuzz-fixtures.mjs BASE_URL');
  process.exit(2);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PASSWORD = 'fuzz-Password-1234';

/** A JSON call; throws, naming the call and the answer, unless the status is `expected`. */
async function call(method, path, { token, body, expected = [200, 201] } = {}) {
  const headers = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!expected.includes(response.status)) {
    throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  }
  return text ? JSON.parse(text) : null;
}

/** A new account; with `--autoconfirm` sign-up answers a session. */
async function person(email) {
  const session = await call('POST', '/auth/v1/signup', { body: { email, password: PASSWORD } });
  if (!session?.access_token) throw new Error(`sign-up of ${email} gave no session: is --autoconfirm on?`);
  return { email, id: session.user.id, token: session.access_token };
}

async function priced(rates, job, currency) {
  process.removeAllListeners('warning'); // the package has no package.json; Node guesses right
  const pkg = join(root, 'crates/wasm/pkg');
  const wasm = await import(pathToFileURL(join(pkg, 'bobbin_pricing.js')).href);
  await wasm.default({ module_or_path: readFileSync(join(pkg, 'bobbin_pricing_bg.wasm')) });
  const pricing = wasm.priceJob({ rates, job, currency });
  if (!pricing.quote) throw new Error(`the core refused the fixture job: ${JSON.stringify(pricing)}`);
  return pricing.quote;
}

const owner = await person('fuzz-owner@example.com');
const member = await person('fuzz-member@example.com');
const api = (method, path, options = {}) => call(method, `/api/v2${path}`, { token: owner.token, ...options });

const team = (await api('POST', '/teams', { body: { name: 'Fuzz Embroidery' } })).team.public_id;
const doomedTeam = (await api('POST', '/teams', { body: { name: 'Fuzz Doomed' } })).team.public_id;
const t = `/teams/${team}`;

const threadInput = (code) => ({ line: 'madeira-polyneon', code, quantity: 3, location: 'Shelf A', reorder_point: 1 });
const thread = (await api('POST', `${t}/threads`, { body: threadInput('1800') })).thread.id;
const doomedThread = (await api('POST', `${t}/threads`, { body: threadInput('1801') })).thread.id;

const machineDraft = (name) => ({ name, brand: 'Tajima', heads: 1, needles_per_head: 12, purchase_date: '2025-06-01' });
const machine = (await api('POST', `${t}/machines`, { body: machineDraft('Fuzz Tajima') })).machine.id;
const doomedMachine = (await api('POST', `${t}/machines`, { body: machineDraft('Fuzz Doomed') })).machine.id;
const log = (kind) => ({ performed_on: '2025-07-01', kind, notes: 'Fuzz', stitch_counter: 1_000_000 });
await api('POST', `${t}/machines/${machine}/maintenance`, { body: log('oiling') });
const doomedEntry = (await api('POST', `${t}/machines/${machine}/maintenance`, { body: log('hook_cleaning') })).entry.id;

const rates = {};
const job = { stitches: 7200, colours: 8, quantity: 50 };
const result = await priced(rates, job, 'EUR');
const quote = (name) => ({ name, currency: 'EUR', rates, job, result });
const quoteId = (await api('POST', `${t}/quotes`, { body: quote('Fuzz polos') })).quote.id;
const doomedQuote = (await api('POST', `${t}/quotes`, { body: quote('Fuzz doomed') })).quote.id;

await api('PATCH', `${t}/settings`, { body: { currency: 'EUR', default_stitch_rate: 1.2 } });
await api('PATCH', `${t}/members/settings`, { body: { currency: 'EUR' } });

// The member joins through an invite, so that removing them is a real removal; a second invite
// stays pending for the revoke and accept calls.
const joined = (await api('POST', `${t}/invites`, { body: { email: member.email, role: 'member' } })).invite.public_id;
await call('POST', `/api/v2/invites/${joined}/accept`, { token: member.token });
const pending = (await api('POST', `${t}/invites`, { body: { email: 'fuzz-invitee@example.com', role: 'viewer' } })).invite.public_id;

const fixtures = {
  FUZZ_TOKEN: owner.token,
  FUZZ_TEAM_ID: team,
  FUZZ_DOOMED_TEAM_ID: doomedTeam,
  FUZZ_THREAD_ID: thread,
  FUZZ_DOOMED_THREAD_ID: doomedThread,
  FUZZ_MACHINE_ID: machine,
  FUZZ_DOOMED_MACHINE_ID: doomedMachine,
  FUZZ_DOOMED_ENTRY_ID: doomedEntry,
  FUZZ_QUOTE_ID: quoteId,
  FUZZ_DOOMED_QUOTE_ID: doomedQuote,
  FUZZ_INVITE_ID: pending,
  FUZZ_MEMBER_ID: member.id,
};
for (const [name, value] of Object.entries(fixtures)) {
  if (!/^[\w.-]+$/.test(value)) throw new Error(`${name} is not a plain id: ${value}`);
  console.log(`${name}=${value}`);
}
