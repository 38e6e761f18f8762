import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';

// The toast library is loaded on the first toast (lib/toast.tsx). Loaded here first, so that a
// test's first toast does not wait for vitest to compile it (which, on a busy machine, can outlast
// the toast's one-second life); the toast still goes through the same lazy import.
beforeAll(async () => {
  await import('@/lib/toaster');
});

afterEach(() => {
  cleanup();
});
