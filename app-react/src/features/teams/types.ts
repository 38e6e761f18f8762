// The shapes of the team API (/api/v2/teams, /invites, /users/me/invites), named from the
// server's OpenAPI document (lib/api-schema.d.ts, generated: README, "The API"). The app's URLs
// take a team's `public_id`; the API takes it or the team's `id`.
import type { components } from '@/lib/api-schema';

type Schemas = components['schemas'];

export type Role = Schemas['Role'];
export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const satisfies readonly Role[];

export const roleLabels: Record<Role, string> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
  viewer: 'Viewer',
};

/** What each role may do (the rules are `bobbin_core::team`; docs/behaviour.md, "Roles"). */
export const roleDescriptions: Record<Role, string> = {
  owner: 'everything an admin can, and make owners and delete the team',
  admin: 'rename the team, invite and remove people, change roles and team settings',
  member: 'change the inventories and save quotes',
  viewer: 'read everything, change nothing',
};

export type Team = Schemas['Team'];
export type Member = Schemas['Member'];
export type InviteStatus = Schemas['InviteStatus'];
export type Invite = Schemas['Invite'];
/** What an invite's link shows before a sign-in: the team's name and the inviter's. */
export type InvitePreview = Schemas['InvitePreview'];
/** An invite accepted, and the team it led into. */
export type Accepted = Schemas['AcceptedBody'];

/** A team's or a member's settings: key to any JSON value. */
export type Settings = Record<string, unknown>;

/** The setting keys the tools read (docs/behaviour.md, "Settings"). */
export const settingKeys = {
  currency: 'currency',
  defaultStitchRate: 'default_stitch_rate',
  preferredThreadLine: 'preferred_thread_line',
  defaultReorderPoint: 'default_reorder_point',
} as const;

/** The team's preferred thread line, a catalogue line's id; '' when none is set. */
export function preferredThreadLine(settings: Settings): string {
  const line = settings[settingKeys.preferredThreadLine];
  return typeof line === 'string' ? line : '';
}

/** The team's default reorder point in spools, for threads without their own; null when none is set. */
export function defaultReorderPoint(settings: Settings): number | null {
  const point = settings[settingKeys.defaultReorderPoint];
  return typeof point === 'number' ? point : null;
}

/**
 * What a role may do (docs/behaviour.md, "Roles"): admins and owners manage members, invites
 * and team settings; only owners delete the team and grant or take away the owner role. The
 * server enforces all of it; the screens use this to hide or disable what would be refused.
 */
export function canManage(role: Role | undefined): boolean {
  return role === 'owner' || role === 'admin';
}

export function isOwner(role: Role | undefined): boolean {
  return role === 'owner';
}

/** The roles `role` may give (to a member, or in an invite). */
export function grantableRoles(role: Role | undefined): readonly Role[] {
  if (isOwner(role)) return ROLES;
  if (canManage(role)) return ROLES.filter((r) => r !== 'owner');
  return [];
}
