// The shapes of the team API (/api/v2/teams, /invites, /users/me/invites), as the server sends
// them. URLs take a team's `public_id`, never its `id`.

export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const roleLabels: Record<Role, string> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
  viewer: 'Viewer',
};

export interface Team {
  id: string;
  public_id: string;
  name: string;
  /** The caller's own role in this team. */
  role: Role;
  member_count: number;
  created_at: string;
}

export interface Member {
  userId: string;
  email: string;
  full_name: string | null;
  role: Role;
  joined_at: string;
}

export type InviteStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

export interface Invite {
  public_id: string;
  team_public_id: string;
  team_name: string;
  email: string;
  role: Role;
  status: InviteStatus;
  invited_by_email: string | null;
  created_at: string;
  expires_at: string;
}

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
