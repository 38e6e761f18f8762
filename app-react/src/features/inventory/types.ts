// The shapes of the inventory API (/api/v2/teams/{teamPublicId}/threads, /machines), as the
// server sends them (crates/server/src/routes/inventory).

export interface ThreadView {
  id: string;
  /** The catalogue line's id; null for a custom thread. */
  line: string | null;
  line_name: string | null;
  code: string | null;
  name: string;
  /** `#RRGGBB`. */
  colour: string;
  fibre: string | null;
  quantity: number;
  spool_length_m: number | null;
  location: string;
  reorder_point: number | null;
  cost_per_spool: number | null;
  notes: string;
  /** At or below the reorder point. */
  low: boolean;
  version: number;
  updated_by_email: string | null;
  updated_at: string;
  distance?: number;
}

export interface ThreadPage {
  threads: ThreadView[];
  total: number;
  page: number;
  per_page: number;
}

/** A new entry or a full edit: a catalogue thread (`line`, `code`) or a custom one (`name`, `colour`). */
export interface ThreadInput {
  line?: string | null;
  code?: string | null;
  name?: string | null;
  colour?: string | null;
  quantity?: number | null;
  spool_length_m?: number | null;
  location?: string | null;
  reorder_point?: number | null;
  cost_per_spool?: number | null;
  notes?: string | null;
  version?: number;
}

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

export interface ImportRow {
  line: number;
  thread_line: string;
  code: string;
  name: string;
  quantity: string;
  action: 'add' | 'update' | null;
  problems: { field: string; code: string; message: string }[];
}

export interface ImportResult {
  rows: ImportRow[];
  ignored_columns: string[];
  valid: boolean;
  committed: boolean;
  added: number;
  updated: number;
}

/** A thread of the built-in catalogue (GET /api/v2/catalog/threads). */
export interface CatalogueThread {
  line: string;
  line_name: string;
  code: string;
  name: string;
  hex: string;
  conflict: boolean;
}

export const MACHINE_STATUSES = ['active', 'maintenance', 'retired'] as const;
export type MachineStatus = (typeof MACHINE_STATUSES)[number];

export const MAINTENANCE_KINDS = ['oiling', 'hook_cleaning', 'needle_change', 'service', 'other'] as const;
export type MaintenanceKind = (typeof MAINTENANCE_KINDS)[number];

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

export interface Hoop {
  name: string;
  width_mm: number;
  height_mm: number;
}

export interface DueView {
  kind: MaintenanceKind;
  /** `YYYY-MM-DD`. */
  date: string;
  at_stitches: number | null;
  overdue: boolean;
  never_done: boolean;
}

export interface LogEntry {
  id: string;
  performed_on: string;
  kind: MaintenanceKind;
  notes: string;
  stitch_counter: number | null;
  created_at: string;
}

/** A machine as typed in (POST, and PUT with `version`). */
export interface MachineDraft {
  name: string;
  brand: string;
  model: string;
  serial_number: string;
  heads: number;
  needles_per_head: number;
  max_spm: number | null;
  typical_spm: number | null;
  hoops: Hoop[];
  status: MachineStatus;
  purchase_date: string | null;
  notes: string;
}

export interface Machine extends MachineDraft {
  id: string;
  version: number;
  updated_at: string;
  stitch_counter: number | null;
  /** Soonest first. */
  due: DueView[];
  /** Newest first; only when one machine is read. */
  maintenance?: LogEntry[];
}

export interface LogInput {
  performed_on: string;
  kind: MaintenanceKind;
  notes: string;
  stitch_counter: number | null;
}

/** Who is looking: the current team, and whether their role may change its inventory. */
export interface InventoryAccess {
  teamId: string;
  /** Members, admins and owners write; viewers only read. */
  canWrite: boolean;
}
