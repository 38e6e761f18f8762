// The app's only door to the state library (zustand), so swapping it is one file. A store made
// here is a plain object with getState/setState/subscribe for code outside React, and `use` for
// components (re-rendering only when the selected slice changes).
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

export type SetState<T> = (partial: Partial<T> | ((state: T) => Partial<T>)) => void;

export interface Store<T> {
  getState: () => T;
  setState: SetState<T>;
  /** Calls `listener` after every change, with the new and the previous state. */
  subscribe: (listener: (state: T, previous: T) => void) => () => void;
  /** A React hook reading `select(state)`. */
  use: <U>(select: (state: T) => U) => U;
}

interface PersistOptions<T> {
  /** The localStorage key. */
  name: string;
  /** What of the state is written (the rest starts from `create` at every load). */
  persisted: (state: T) => Partial<T>;
}

/**
 * A store whose state (the part `persisted` picks) is kept in localStorage under `name`, read
 * back synchronously when the module loads, so the first render already has it.
 */
export function createPersistedStore<T>(create_: (set: SetState<T>, get: () => T) => T, options: PersistOptions<T>): Store<T> {
  const hook = create<T>()(
    persist((set, get) => create_(set, get), {
      name: options.name,
      // localStorage can be missing or throw (storage disabled): zustand then keeps memory only.
      storage: createJSONStorage(() => localStorage),
      partialize: options.persisted,
    }),
  );
  return {
    getState: hook.getState,
    setState: (partial) => hook.setState(partial),
    subscribe: hook.subscribe,
    use: (select) => hook(select),
  };
}

/** A store kept in memory only: it starts from `create_` at every page load. */
export function createMemoryStore<T>(create_: (set: SetState<T>, get: () => T) => T): Store<T> {
  const hook = create<T>()((set, get) => create_(set, get));
  return {
    getState: hook.getState,
    setState: (partial) => hook.setState(partial),
    subscribe: hook.subscribe,
    use: (select) => hook(select),
  };
}
