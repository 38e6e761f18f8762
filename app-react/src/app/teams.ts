// Where the teams feature meets the profile: team initialisation reads the profile's default
// team, and selecting a team saves it there (docs/behaviour.md, "Team start-up and selection").
import type { QueryClient } from '@tanstack/react-query';

import { paths } from '@/config/paths';
import { profileQueryOptions, refreshProfile } from '@/features/profile/api/get-profile';
import { setDefaultTeam } from '@/features/profile/api/set-default-team';
import { initTeams, loadTeam } from '@/features/teams/init';
import type { SignedInUser } from '@/lib/auth';

/**
 * An auth event for `user`: refreshes the profile (`force`: whatever its age), then initialises
 * the team store from it. Nothing happens to the teams without a profile (its failure is logged).
 */
export async function refreshSession(
  queryClient: QueryClient,
  user: SignedInUser,
  { force = false, location = '/' }: { force?: boolean; location?: string } = {},
): Promise<void> {
  await refreshProfile(queryClient, user.id, force);
  const profile = queryClient.getQueryData(profileQueryOptions(user.id).queryKey);
  if (!profile) return;
  await initTeams(queryClient, {
    email: profile.email || user.email,
    fullName: profile.full_name,
    defaultTeamPid: profile.default_team_pid,
    // Someone opening an invite's link is about to join that team: making them a team of their
    // own first would leave them with two, and the wrong one current. If the invite fails, the
    // next initialisation (the next page load) makes the personal team.
    createPersonalTeam: !onTheWayToAnInvite(location),
  });
}

/**
 * Whether `location` (path and query) is the invite link, or a sign-in step on the way to it:
 * the login page's `redirect`, the sign-in callback's `next` (a sign-up from the link).
 */
export function onTheWayToAnInvite(location: string): boolean {
  const url = new URL(location, 'http://bobbin.invalid');
  const targets = [url.pathname, url.searchParams.get('redirect'), url.searchParams.get('next')];
  return targets.some((target) => target?.startsWith(paths.acceptInvite));
}

/** Selecting a team: its details and members loaded, made current, then saved as the default. */
export async function selectTeam(queryClient: QueryClient, publicId: string): Promise<void> {
  await loadTeam(queryClient, publicId);
  await setDefaultTeam(queryClient, publicId);
}
