// The writes that wait for a connection (lib/offline/writes.ts), registered with the data cache
// before it restores the writes kept across a reload, so those can be sent.
import type { QueryClient } from '@tanstack/react-query';

import { registerAddMaintenance } from '@/features/inventory/api/add-maintenance';
import { registerAdjustThread } from '@/features/inventory/api/adjust-thread';
import { registerSetQuantity } from '@/features/inventory/api/set-quantity';
import { registerCreateQuote } from '@/features/pricing/api/create-quote';
import { followWaitingWrites } from '@/lib/offline/writes';

export function registerKeptWrites(queryClient: QueryClient): void {
  registerAdjustThread(queryClient);
  registerSetQuantity(queryClient);
  registerAddMaintenance(queryClient);
  registerCreateQuote(queryClient);
  followWaitingWrites(queryClient);
}
