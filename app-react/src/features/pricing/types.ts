// The shapes the pricing calculator works with: who is looking (given by the route, so this
// feature does not import the teams feature), and the saved-quotes API, named from the server's
// OpenAPI document (lib/api-schema.d.ts, generated: README, "The API").
import type { components } from '@/lib/api-schema';
import type { DesignSummary, Job, Quote, Rates } from '@/lib/core';

type Schemas = components['schemas'];

export type Role = Schemas['Role'];

/** A team's settings: key to any JSON value (GET /api/v2/teams/{team}/settings). */
export type TeamSettings = Record<string, unknown>;

/** The setting keys the calculator reads and, for admins and owners, writes. */
export const settingKeys = {
  currency: 'currency',
  defaultStitchRate: 'default_stitch_rate',
  pricing: 'pricing',
  preferredThreadLine: 'preferred_thread_line',
} as const;

export interface PricingAccess {
  /** The current team's public id; '' when no team is chosen (the calculator still prices). */
  teamId: string;
  role: Role | null;
  /** The team's settings as last read (kept in the browser, so they are there offline). */
  settings: TeamSettings;
  /** PATCHes the team's settings (admins and owners); answers the whole new map. */
  saveSettings: (changes: TeamSettings) => Promise<TeamSettings>;
}

/** Owners and admins change the price list (the server refuses others). */
export const canEditRates = (role: Role | null) => role === 'owner' || role === 'admin';
/** Members and above save, duplicate and remove quotes; viewers read them. */
export const canWriteQuotes = (role: Role | null) => role !== null && role !== 'viewer';

/** What a saved quote keeps of its design file: the name and figures, not the preview; and the
 * design's id in the team's library when it was priced from there (its preview is shown again). */
export interface SavedDesign {
  file_name: string;
  summary: DesignSummary;
  id?: string;
}

export type QuoteSummary = Schemas['QuoteSummary'];
export type QuotePage = Schemas['QuotePage'];

/** POST /quotes: the inputs, the design figures and the result the browser computed. */
export interface QuoteDraft {
  name: string;
  currency: string;
  rates: Rates;
  job: Job;
  design: SavedDesign | null;
  result: Quote;
}

export interface SavedQuote extends QuoteSummary {
  rates: Rates;
  job: Job;
  design: SavedDesign | null;
  result: Quote;
}
