// Keeps the team store (./store.ts) in step with the data cache: every successful answer of a
// team query lands in the store (a refetch after a write included), and a change of the current
// team fetches its settings and member settings, or clears them when no team is current
// (docs/behaviour.md, "The team store").
import { type QueryClient, type QueryKey, hashKey } from '@tanstack/react-query';

import { teamQueryOptions } from './api/get-team';
import { membersQueryOptions } from './api/get-members';
import { myInvitesQueryOptions } from './api/get-my-invites';
import { settingsQueryOptions } from './api/get-settings';
import { teamInvitesQueryOptions } from './api/get-team-invites';
import { teamsQueryOptions } from './api/get-teams';
import { teamStore } from './store';
import type { Invite, Member, Settings, Team } from './types';

/** Puts a team query's answer into the store, if the store holds it. */
export function mirrorIntoStore(queryKey: QueryKey, data: unknown): void {
  const store = teamStore.getState();
  const is = (key: QueryKey) => hashKey(key) === hashKey(queryKey);
  if (is(teamsQueryOptions().queryKey)) return store.setTeams(data as Team[]);
  if (is(myInvitesQueryOptions().queryKey)) return store.setMyInvites(data as Invite[]);
  // The rest are per team: ['teams', kind, publicId].
  const publicId = typeof queryKey[2] === 'string' ? queryKey[2] : '';
  if (!publicId) return;
  if (is(teamQueryOptions(publicId).queryKey)) return store.updateTeam(data as Team);
  // The store holds the lists of the current team only.
  if (publicId !== store.currentTeamPublicId) return;
  if (is(membersQueryOptions(publicId).queryKey)) store.setMembers(data as Member[]);
  else if (is(teamInvitesQueryOptions(publicId).queryKey)) store.setInvites(data as Invite[]);
  else if (is(settingsQueryOptions('team', publicId).queryKey)) store.setSettings(data as Settings);
  else if (is(settingsQueryOptions('member', publicId).queryKey)) store.setMemberSettings(data as Settings);
}

/**
 * The current team's settings and the person's member settings, into the store; both cleared
 * when `publicId` is ''. Failures are logged, not shown: the screens that need settings show
 * their own state.
 */
export async function loadCurrentTeamSettings(queryClient: QueryClient, publicId: string): Promise<void> {
  const store = teamStore.getState();
  if (!publicId) {
    store.setSettings({});
    store.setMemberSettings({});
    return;
  }
  try {
    // fetchQuery answers from the cache while it is fresh, without an event the mirror would
    // hear, so the answers are stored here.
    const [settings, memberSettings] = await Promise.all([
      queryClient.fetchQuery(settingsQueryOptions('team', publicId)),
      queryClient.fetchQuery(settingsQueryOptions('member', publicId)),
    ]);
    // The person may have switched again meanwhile.
    if (teamStore.getState().currentTeamPublicId !== publicId) return;
    store.setSettings(settings);
    store.setMemberSettings(memberSettings);
  } catch (error) {
    console.warn('Could not load the team settings:', error);
  }
}

/** Connects the store to `queryClient` (once, at the app's root); answers the disconnecting. */
export function connectTeamStore(queryClient: QueryClient): () => void {
  const stopMirror = queryClient.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'success') mirrorIntoStore(event.query.queryKey, event.query.state.data);
  });
  const stopWatch = teamStore.subscribe((state, previous) => {
    if (state.currentTeamPublicId !== previous.currentTeamPublicId) {
      void loadCurrentTeamSettings(queryClient, state.currentTeamPublicId);
    }
  });
  return () => {
    stopMirror();
    stopWatch();
  };
}
