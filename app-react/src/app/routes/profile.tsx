import { ProfilePage } from '@/features/profile/profile-page';
import { MyInvites } from '@/features/teams/components/MyInvites';

/** `/profile`, with the teams feature's invites in its My Invites tab. */
export function ProfileRoute() {
  return <ProfilePage invites={<MyInvites />} />;
}
