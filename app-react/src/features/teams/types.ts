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

/** The setting keys the tools read (README, "Settings"). */
export const settingKeys = {
  currency: 'currency',
  defaultStitchRate: 'default_stitch_rate',
  preferredThreadLine: 'preferred_thread_line',
} as const;

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
