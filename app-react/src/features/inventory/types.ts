// The shapes of the inventory API (/api/v2/teams/{team_id}/threads, /machines), named from the
// server's OpenAPI document (lib/api-schema.d.ts, generated: README, "The API").
import type { components } from '@/lib/api-schema';

type Schemas = components['schemas'];

export type ThreadView = Schemas['InventoryThread'];
export type ThreadPage = Schemas['ThreadPage'];
/** A new entry or a full edit: a catalogue thread (`line`, `code`) or a custom one (`name`, `colour`). */
export type ThreadInput = Schemas['ThreadInput'];
export type BulkInput = Schemas['BulkInput'];
export type BulkResult = Schemas['BulkResult'];
export type ImportRow = Schemas['ImportRowView'];
export type ImportResult = Schemas['ImportResult'];
/** A thread of the built-in catalogue (GET /api/v2/catalog/threads). */
export type CatalogueThread = Schemas['ThreadView'];
/** A line of the built-in catalogue, without its threads (GET /api/v2/catalog/lines). */
export type CatalogueLine = Schemas['LineSummary'];

export type MachineStatus = Schemas['MachineStatus'];
export type MaintenanceKind = Schemas['MaintenanceKind'];
export type Hoop = Schemas['Hoop'];
export type DueView = Schemas['DueView'];
export type LogEntry = Schemas['LogEntry'];
/** A machine as typed in (POST, and PUT with `version`). */
export type MachineDraft = Schemas['MachineDraft'];
export type Machine = Schemas['MachineView'];
export type LogInput = Schemas['LogInput'];

export const THREAD_SORTS = ['code', 'name', 'quantity', 'location', 'updated'] as const;
export type ThreadSort = (typeof THREAD_SORTS)[number];

/** How a fibre of the catalogue (`wool-blend`) reads: "Wool blend". */
export function fibreLabel(fibre: string): string {
  const words = fibre.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export interface ThreadFilters {
  q?: string;
  closest?: string;
  line?: string;
  fibre?: string;
  location?: string;
  low?: boolean;
  sort?: ThreadSort;
  order?: 'asc' | 'desc';
  page?: number;
  per_page?: number;
}

export const MACHINE_STATUSES = ['active', 'maintenance', 'retired'] as const satisfies readonly MachineStatus[];

export const MAINTENANCE_KINDS = [
  'oiling',
  'hook_cleaning',
  'needle_change',
  'service',
  'other',
] as const satisfies readonly MaintenanceKind[];

export const statusLabels: Record<MachineStatus, string> = {
  active: 'Active',
  maintenance: 'In maintenance',
  retired: 'Retired',
};

export const kindLabels: Record<MaintenanceKind, string> = {
  oiling: 'Oiling',
  hook_cleaning: 'Hook cleaning',
  needle_change: 'Needle change',
  service: 'Service',
  other: 'Other',
};

/** Who is looking: the current team, and whether their role may change its inventory. */
export interface InventoryAccess {
  teamId: string;
  /** Members, admins and owners write; viewers only read. */
  canWrite: boolean;
}
