import { expect, follow, signUpConfirmed, strongPassword, test, uniqueEmail, verifyLinkIn } from './support';

// Many people use the service at once: tabs refresh on a timer, and confirmation links are
// opened whenever the e-mail arrives. Requests for different accounts must not fail each other,
// whatever the database (SQLite is the default).
//
// Named to sort last: Playwright hands files to workers in name order, so these bursts come
// while after-a-minute.spec.ts sits out its wait rather than while it makes its accounts.

const PEOPLE = 6;

test('people opening their confirmation links at the same moment are all confirmed', async ({ newClient, mailbox, site }) => {
  const people = [];
  for (let index = 0; index < PEOPLE; index += 1) {
    const client = newClient();
    const email = uniqueEmail(`together-${index}`);
    expect((await client.auth.signUp({ email, password: strongPassword() })).error).toBeNull();
    people.push({ client, email, link: verifyLinkIn(await mailbox.receive(email), site) });
  }

  const landings = await Promise.all(people.map(({ link }) => follow(link)));

  expect(landings.map((landing) => landing.searchParams.get('error_description'))).toEqual(people.map(() => null));
  const sessions = await Promise.all(
    people.map(({ client }, index) => client.auth.exchangeCodeForSession(landings[index].searchParams.get('code') ?? '')),
  );
  expect(sessions.map(({ error }) => error)).toEqual(people.map(() => null));
});

test('sessions of different people refreshing at the same moment are all refreshed', async ({ newClient, mailbox, site }) => {
  const clients = [];
  for (let index = 0; index < PEOPLE; index += 1) {
    const client = newClient();
    await signUpConfirmed(client, mailbox, site);
    clients.push(client);
  }

  for (const client of clients) client.requests.length = 0;
  const refreshed = await Promise.all(clients.map((client) => client.auth.refreshSession()));

  expect(refreshed.map(({ error }) => error?.message ?? null)).toEqual(clients.map(() => null));
  // The client retries a refresh that failed with a 5xx, which would hide a failure here.
  const answers = clients.flatMap((client) => client.requests.map((request) => request.status));
  expect(answers).toEqual(clients.map(() => 200));
  for (const client of clients) expect((await client.auth.getUser()).error).toBeNull();
});
