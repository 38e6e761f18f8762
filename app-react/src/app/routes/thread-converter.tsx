// The converter, given the current team for "only threads we own" and its preferred line, the
// default target (the converter feature does not import the teams feature).
import { useTeamStore } from '@/features/teams/store';
import { preferredThreadLine } from '@/features/teams/types';
import { ThreadConverterPage } from '@/features/thread-converter/converter-page';

export function ThreadConverterRoute() {
  const teamId = useTeamStore((state) => state.currentTeamPublicId);
  const preferredLine = useTeamStore((state) => preferredThreadLine(state.settings));
  return <ThreadConverterPage teamId={teamId} preferredLine={preferredLine} />;
}
