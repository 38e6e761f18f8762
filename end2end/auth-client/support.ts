import { randomUUID } from 'node:crypto';

import { test as base, expect } from '@playwright/test';
import { type AuthFlowType, GoTrueClient, type Session, type SupportedStorage } from '@supabase/auth-js';

/**
 * Shared pieces of the auth-client suite: clients of the official `@supabase/auth-js` configured
 * as the app configures its own (one storage each, as one browser profile has one), the
 * development outbox, and unique addresses and passwords.
 *
 * Each client keeps a log of its requests, so a test can tell what the client asked for (getClaims
 * fetching the JWKS rather than calling `/user`) and which headers it sends (the CORS preflight).
 */

/** An e-mail in the development outbox, as `GET /dev/mailbox.json` lists it (newest first). */
export interface Mail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  created_at: string;
}

export interface LoggedRequest {
  method: string;
  url: URL;
  headers: Headers;
  /** The JSON body, parsed, if there was one. */
  body: unknown;
  /** The answer's status, once it came. */
  status?: number;
}

/** Session storage in memory: what `localStorage` is to the app. */
export class MemoryStorage implements SupportedStorage {
  readonly items = new Map<string, string>();

  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }

  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }

  removeItem(key: string): void {
    this.items.delete(key);
  }
}

export interface Client {
  auth: GoTrueClient;
  storage: MemoryStorage;
  requests: LoggedRequest[];
}

export interface Mailbox {
  /**
   * The newest e-mail to `to` whose id is not in `seen`, waiting briefly for it (the server
   * stores it before it answers, so it is normally there at once).
   */
  receive(to: string, options?: { seen?: Iterable<string> }): Promise<Mail>;
  /** Every e-mail to `to`, newest first. */
  all(to: string): Promise<Mail[]>;
}

interface WorkerFixtures {
  /** The server's origin, which is also its site URL (`serve.sh` passes `--site-url`). */
  site: string;
  /** A new client with its own storage; PKCE unless told otherwise. */
  newClient: (flowType?: AuthFlowType) => Client;
  mailbox: Mailbox;
}

// Worker-scoped, so that `beforeAll` hooks can create accounts too.
export const test = base.extend<object, WorkerFixtures>({
  site: [
    // Playwright reads which fixtures a fixture needs from this pattern; this one needs none.
    async ({}, use, workerInfo) => {
      const baseURL = workerInfo.project.use.baseURL;
      if (!baseURL) throw new Error('the auth-client project needs a baseURL');
      await use(new URL(baseURL).origin);
    },
    { scope: 'worker' },
  ],

  newClient: [
    async ({ site }, use) => {
      await use((flowType = 'pkce') => {
        const storage = new MemoryStorage();
        const requests: LoggedRequest[] = [];
        const auth = new GoTrueClient({
          url: `${site}/auth/v1`,
          // The key is public and holds no secret; the service accepts any value.
          headers: { apikey: 'anything' },
          storage,
          storageKey: 'sb-bobbin-auth-token',
          autoRefreshToken: false,
          persistSession: true,
          detectSessionInUrl: false,
          flowType,
          fetch: async (input, init) => {
            const request = new Request(input, init);
            const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
            const logged: LoggedRequest = { method: request.method, url: new URL(request.url), headers: request.headers, body };
            requests.push(logged);
            const response = await fetch(request);
            logged.status = response.status;
            return response;
          },
        });
        return { auth, storage, requests };
      });
    },
    { scope: 'worker' },
  ],

  mailbox: [
    async ({ site }, use) => {
      const all = async (to: string): Promise<Mail[]> => {
        const response = await fetch(`${site}/dev/mailbox.json`);
        expect(response.status, 'GET /dev/mailbox.json').toBe(200);
        const mails = (await response.json()) as Mail[];
        return mails.filter((mail) => mail.to === to);
      };
      const receive = async (to: string, options: { seen?: Iterable<string> } = {}): Promise<Mail> => {
        const seen = new Set(options.seen ?? []);
        let found: Mail | undefined;
        await expect
          .poll(
            async () => {
              found = (await all(to)).find((mail) => !seen.has(mail.id));
              return found !== undefined;
            },
            { message: `an e-mail to ${to}`, timeout: 5_000 },
          )
          .toBe(true);
        return found as Mail;
      };
      await use({ receive, all });
    },
    { scope: 'worker' },
  ],
});

export { expect };

/** An address no other test uses: the server sends one e-mail per address per minute. */
export function uniqueEmail(label: string): string {
  return `${label}-${randomUUID().slice(0, 12)}@bobbin.test`;
}

/** A password the server's policy accepts (long enough, not on the common-password list). */
export function strongPassword(): string {
  return `spool-${randomUUID().slice(0, 12)}-thread`;
}

/** The sign-in link of an e-mail: the service's `/verify` endpoint. */
export function verifyLinkIn(mail: Mail, site: string): URL {
  const link = mail.links.find((candidate) => candidate.startsWith(`${site}/auth/v1/verify?`));
  expect(link, `a ${site}/auth/v1/verify link in ${JSON.stringify(mail.text)}`).toBeDefined();
  return new URL(link as string);
}

/** The six-digit code of an e-mail, to type in instead of following the link. */
export function codeIn(mail: Mail): string {
  const code = /enter this code: (\d{6})\b/.exec(mail.text)?.[1];
  expect(code, `a six-digit code in ${JSON.stringify(mail.text)}`).toBeDefined();
  return code as string;
}

/**
 * Opens an e-mailed link as a browser would, without following the redirect, and answers where
 * it leads (the app's page, with `?code=`, a session in the fragment, or an error).
 */
export async function follow(link: URL): Promise<URL> {
  const response = await fetch(link, { redirect: 'manual' });
  expect(response.status, `GET ${link.pathname} redirects`).toBe(303);
  const location = response.headers.get('location');
  expect(location, 'a Location header').toBeTruthy();
  return new URL(location as string, link);
}

/** The parameters of a URL's fragment (the implicit flow puts the session there). */
export function fragmentOf(url: URL): URLSearchParams {
  return new URLSearchParams(url.hash.replace(/^#/, ''));
}

/**
 * Signs up a new account through the confirmation e-mail (PKCE), as a person would, and answers
 * its session. The address has received its one e-mail of the minute afterwards.
 */
export async function signUpConfirmed(
  client: Client,
  mailbox: Mailbox,
  site: string,
  options: { email?: string; password?: string; fullName?: string } = {},
): Promise<{ email: string; password: string; session: Session }> {
  const email = options.email ?? uniqueEmail('member');
  const password = options.password ?? strongPassword();
  const signUp = await client.auth.signUp({
    email,
    password,
    options: { data: { full_name: options.fullName ?? 'Ada Lovelace' } },
  });
  expect(signUp.error).toBeNull();
  const landing = await follow(verifyLinkIn(await mailbox.receive(email), site));
  const code = landing.searchParams.get('code');
  expect(code, `a code in ${landing}`).toBeTruthy();
  const exchange = await client.auth.exchangeCodeForSession(code as string);
  expect(exchange.error).toBeNull();
  expect(exchange.data.session).not.toBeNull();
  return { email, password, session: exchange.data.session as Session };
}

/** Resolves after `ms` milliseconds: for the service's clock-based rules (reuse interval, e-mail interval). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
