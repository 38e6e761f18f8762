// Where the pricing calculator meets the teams: it is given the current team, the person's role
// there, the team's settings as the team store keeps them (in the browser, so the calculator
// prices with them offline) and a way to save them, so the pricing feature does not import the
// teams feature (features never import one another).
import { useCallback } from 'react';

import { useUpdateSettings } from '@/features/teams/api/update-settings';
import { useTeamStore } from '@/features/teams/store';
import { PricingPage } from '@/features/pricing/pricing-page';
import type { TeamSettings } from '@/features/pricing/types';

export function PricingRoute() {
  const teamId = useTeamStore((state) => state.currentTeamPublicId);
  const team = useTeamStore((state) => state.currentTeam);
  const settings = useTeamStore((state) => state.settings);
  const update = useUpdateSettings();
  const { mutateAsync } = update;
  const saveSettings = useCallback(
    (changes: TeamSettings) => mutateAsync({ scope: 'team', publicId: teamId, changes }),
    [mutateAsync, teamId],
  );
  return <PricingPage teamId={team ? teamId : ''} role={team?.role ?? null} settings={settings} saveSettings={saveSettings} />;
}
