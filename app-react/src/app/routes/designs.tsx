// Where the design library meets the teams: its pages are given the current team and whether the
// person's role there may change the library, so the designs feature does not import the teams
// feature (features never import one another).
import { useParams } from 'react-router';

import { DesignPage } from '@/features/designs/design-page';
import { DesignsPage } from '@/features/designs/designs-page';

import { WithTeam } from './with-team';

export function DesignsRoute() {
  // Keyed by team: a switch of team starts the page afresh (search, page, uploads under way).
  return <WithTeam className="designs" title="Design Library" page={(access) => <DesignsPage key={access.teamId} {...access} />} />;
}

export function DesignRoute() {
  const { designId = '' } = useParams();
  return <WithTeam className="designs" title="Design" page={(access) => <DesignPage {...access} designId={designId} />} />;
}
