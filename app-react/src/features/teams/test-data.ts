// Teams, members and invites for this feature's tests.
import type { Invite, Member, Role, Team } from './types';

export function aTeam(publicId: string, role: Role = 'owner', name = `Team ${publicId}`): Team {
  return { id: `uuid-${publicId}`, public_id: publicId, name, role, member_count: 1, created_at: '2026-11-01T10:00:00Z' };
}

export function aMember(userId: string, role: Role, email = `${userId}@example.com`): Member {
  return { userId, email, full_name: null, role, joined_at: '2026-11-01T10:00:00Z' };
}

export function anInvite(publicId: string, overrides: Partial<Invite> = {}): Invite {
  return {
    public_id: publicId,
    team_public_id: 'tm_shop',
    team_name: 'Stitch Shop',
    email: 'ada@example.com',
    role: 'member',
    status: 'pending',
    invited_by_email: 'grace@example.com',
    created_at: '2026-11-01T10:00:00Z',
    expires_at: '2026-11-08T10:00:00Z',
    ...overrides,
  };
}
