// A kept write sent again carries the key it was made with (docs/behaviour.md, "Sending a write
// again"): the server then makes it once. The case the key is for: a tap kept offline is sent when
// the connection returns, its answer is lost as the page reloads, and the copy saved before it was
// sent is restored and sent again.
import { MutationObserver, QueryClient, dehydrate, hydrate, onlineManager } from '@tanstack/react-query';

import { type Adjust, registerAdjustThread } from './adjust-thread';

import { persistOptions } from '@/lib/offline/persist';
import { newWriteKey } from '@/lib/offline/writes';

/** The Idempotency-Key of each +1 sent, in order. */
let sent: (string | null)[] = [];
/** Answers each +1 as `answer` says. */
let answer: () => Promise<Response>;

beforeEach(() => {
  sent = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit = {}) => {
      sent.push(new Headers(init.headers).get('Idempotency-Key'));
      return answer();
    }),
  );
});

afterEach(() => onlineManager.setOnline(true));

function client(): QueryClient {
  const queryClient = new QueryClient();
  registerAdjustThread(queryClient);
  // As the app's provider does: writes paused offline go once the connection returns.
  queryClient.mount();
  return queryClient;
}

const tap = (): Adjust => ({ teamId: 'tm_1', threadId: 'th_1', delta: 1, label: '1800 Red', writeKey: newWriteKey() });

const thread = { id: 'th_1', quantity: 6 };

describe('kept writes and their keys', () => {
  it('gives each write a new key of 128 random bits', () => {
    const keys = new Set(Array.from({ length: 100 }, newWriteKey));
    expect(keys.size).toBe(100);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{32}$/);
  });

  it('sends a tap restored after a reload with the key it was sent with before', async () => {
    onlineManager.setOnline(false);
    const before = client();
    const made = tap();
    void new MutationObserver<unknown, Error, Adjust>(before, { mutationKey: ['inventory', 'adjust'] }).mutate(made).catch(() => undefined);
    // Saved while it waits for the connection, as the persister saves it.
    await vi.waitFor(() => expect(before.getMutationCache().getAll()[0]?.state.isPaused).toBe(true));
    const saved = dehydrate(before, persistOptions().dehydrateOptions);
    expect(saved.mutations).toHaveLength(1);

    // Back online it is sent, and its answer never comes: the page reloads meanwhile.
    answer = () => new Promise<Response>(() => undefined);
    onlineManager.setOnline(true);
    await vi.waitFor(() => expect(sent).toHaveLength(1));

    // The reloaded page restores the copy saved before it was sent, and sends it again.
    answer = async () => Response.json({ thread });
    const after = client();
    hydrate(after, saved);
    await after.resumePausedMutations();
    expect(sent).toEqual([made.writeKey, made.writeKey]);

    // Another tap is another change: a key of its own.
    const next = tap();
    await new MutationObserver<unknown, Error, Adjust>(after, { mutationKey: ['inventory', 'adjust'] }).mutate(next);
    expect(sent[2]).toBe(next.writeKey);
    expect(next.writeKey).not.toBe(made.writeKey);
  });
});
