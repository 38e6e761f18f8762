// Writes that wait for a connection (docs/behaviour.md, "Offline"): a tap of -1/+1, a typed count,
// a maintenance entry and a saved quote made without a connection are kept (in the data cache,
// saved with it across reloads: ./persist.ts), shown as waiting, and sent in the order they were
// made when the connection returns. TanStack Query does the keeping: such a write is a mutation
// with `KEPT_WRITE`'s options, which pauses while offline, and whose function and cache updates
// are registered as the defaults of its key (`setMutationDefaults`), so a write restored after a
// reload, whose page is gone, is still sent and still updates the cache.
//
// A kept write the server refuses when it is finally sent (a count someone else changed
// meanwhile: 409) is never dropped: it goes to `refusedWrites`, which the layout shows with the
// server's words until the person decides.
import { type Mutation, type QueryClient, onlineManager, useMutationState } from '@tanstack/react-query';

import { UnreachableError } from '../api-client';
import { onTeamDataCleared } from '../team-data';
import { createPersistedStore } from '../store';

/**
 * The options every kept write shares: one queue (`scope`), so they are sent one after another in
 * the order they were made; marked to be saved across reloads (`meta.kept`); paused while offline.
 * One that got no answer (the server unreachable, so the app is now offline) is not failed: it
 * pauses like one made offline and is sent again, with its key, when the server answers.
 */
export const KEPT_WRITE = {
  scope: { id: 'bobbin:kept-writes' },
  meta: { kept: true },
  networkMode: 'online',
  retry: (_failures: number, error: Error) => error instanceof UnreachableError,
  retryDelay: 0,
} as const;

/**
 * What every kept write carries: its name for the server, the `Idempotency-Key` it is sent with.
 * It is made once, when the person makes the write, and saved with it, so a write sent again (its
 * answer lost, or the page reloaded while it was being sent) is made once (docs/behaviour.md,
 * "Sending a write again").
 */
export interface KeptWrite {
  writeKey: string;
}

/**
 * A new key for a kept write: 128 random bits in hex. `crypto.getRandomValues`, not
 * `randomUUID`, which a page served over plain http on a workshop's network does not have.
 */
export function newWriteKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The headers that send a kept write with its key. */
export function keyHeaders({ writeKey }: KeptWrite): Record<string, string> {
  return { 'Idempotency-Key': writeKey };
}

/** What a kept write remembers of when it was made (its mutation's context, saved with it). */
export interface KeptContext {
  /** Made without a connection: a refusal when it is sent goes to `refusedWrites`. */
  offline: boolean;
}

/** Whether a write made now would wait for the connection. */
export function isOffline(): boolean {
  return !onlineManager.isOnline();
}

export interface RefusedWrite {
  id: string;
  /** What the person did: "Count of 1800 Red set to 12". */
  title: string;
  /** Why the server refused it, in its words. */
  reason: string;
  /** For a count: what "Use mine" sets again. */
  count?: { teamId: string; threadId: string; quantity: number };
}

/** Kept writes the server refused: shown until the person deals with them (kept across reloads). */
export const refusedWrites = createPersistedStore<{ writes: RefusedWrite[] }>(() => ({ writes: [] }), {
  name: 'bobbin:refused-writes',
  persisted: (state) => ({ writes: state.writes }),
});
// Signing out forgets them with everything else of the person.
onTeamDataCleared(() => refusedWrites.setState({ writes: [] }));

/** Records a kept write the server refused. */
export function refuse(write: Omit<RefusedWrite, 'id'>): void {
  const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  refusedWrites.setState((state) => ({ writes: [...state.writes, { ...write, id }] }));
}

/** The person dealt with a refused write. */
export function dismissRefused(id: string): void {
  refusedWrites.setState((state) => ({ writes: state.writes.filter((write) => write.id !== id) }));
}

const isKept = (mutation: Mutation) => mutation.options.meta?.['kept'] === true;

/**
 * A kept write made online that got no answer waits like one made offline, and counts as one from
 * then on: the person has moved on, so a refusal when it is finally sent goes to `refusedWrites`
 * rather than being undone unseen, and the header counts it while it is sent. Its context is
 * saved with it, so this holds across a reload too.
 */
export function followWaitingWrites(queryClient: QueryClient): void {
  queryClient.getMutationCache().subscribe((event) => {
    if (event.type !== 'updated') return;
    const mutation = event.mutation as Mutation;
    if (!isKept(mutation) || !mutation.state.isPaused) return;
    const context = mutation.state.context as Partial<KeptContext> | undefined;
    if (context) context.offline = true;
  });
}

/** The kept writes waiting for the connection (or for the ones before them), with their variables, oldest first. */
export function useWaitingWrites<V>(mutationKey: readonly unknown[]): V[] {
  return useMutationState({
    filters: { mutationKey, status: 'pending', predicate: (mutation) => isKept(mutation) && mutation.state.isPaused },
    select: (mutation) => mutation.state.variables as V,
  });
}

/** Made offline (or queued behind one that was), and not yet answered. */
const isWaiting = (mutation: Mutation) => {
  const context = mutation.state.context as Partial<KeptContext> | undefined;
  return isKept(mutation) && (mutation.state.isPaused || context?.offline === true);
};

/** How many writes made offline wait for the connection, or are being sent now it is back. */
export function useWaitingCount(): number {
  return useMutationState({ filters: { status: 'pending', predicate: isWaiting } }).length;
}

/** How many kept writes wait for the connection, and how many were refused: what sign-out warns of. */
export function useUnsentWrites(): number {
  return useWaitingCount() + refusedWrites.use((state) => state.writes.length);
}
