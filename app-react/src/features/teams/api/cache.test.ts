import { myInvitesQueryOptions } from './get-my-invites';
import { membersQueryOptions } from './get-members';
import { settingsQueryOptions } from './get-settings';
import { teamQueryOptions } from './get-team';
import { teamInvitesQueryOptions } from './get-team-invites';
import { teamsQueryOptions } from './get-teams';

const minutes = (n: number) => n * 60_000;

describe('read cache lifetimes (spec, section 9)', () => {
  it.each([
    ['the teams list', teamsQueryOptions(), 10],
    ['a team', teamQueryOptions('tm'), 15],
    ['the members', membersQueryOptions('tm'), 5],
    ["a team's invites", teamInvitesQueryOptions('tm'), 3],
    ['my invites', myInvitesQueryOptions(), 5],
    ["a team's settings (the default)", settingsQueryOptions('team', 'tm'), 2],
    ["a member's settings (the default)", settingsQueryOptions('member', 'tm'), 2],
  ])('keeps %s fresh for %i minutes, and never retries', (_, options, lifetime) => {
    expect(options.staleTime).toBe(minutes(lifetime as number));
    expect(options.retry).toBe(false);
  });

  it("gives a team's and a member's settings different keys", () => {
    expect(settingsQueryOptions('team', 'tm').queryKey).not.toEqual(settingsQueryOptions('member', 'tm').queryKey);
  });
});
