import { onTheWayToAnInvite } from './teams';

describe('the personal team is not made on the way to an invite', () => {
  it.each([
    ['/profile/invites/accept?token=abc', true],
    ['/login?redirect=%2Fprofile%2Finvites%2Faccept%3Ftoken%3Dabc', true],
    ['/auth/callback?code=1&next=%2Fprofile%2Finvites%2Faccept%3Ftoken%3Dabc', true],
    ['/dashboard', false],
    ['/login?redirect=%2Fteam', false],
    ['/profile?tab=invites', false],
  ])('%s: %s', (location, expected) => {
    expect(onTheWayToAnInvite(location)).toBe(expected);
  });
});
