import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';

import { FakeWorker } from './fake-worker';

// jsdom has no Web Workers: the design reader's runs in the test's thread. Set once for every
// test (not with vi.stubGlobal, which tests undo with vi.unstubAllGlobals).
globalThis.Worker = FakeWorker as unknown as typeof Worker;

// The toast library is loaded on the first toast (lib/toast.tsx). Loaded here first, so that a
// test's first toast does not wait for vitest to compile it (which, on a busy machine, can outlast
// the toast's one-second life); the toast still goes through the same lazy import.
beforeAll(async () => {
  await import('@/lib/toaster');
});

afterEach(() => {
  cleanup();
  FakeWorker.held = null;
});
