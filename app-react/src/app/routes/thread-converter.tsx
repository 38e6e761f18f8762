// The converter, given the current team for "only threads we own" (the converter feature does
// not import the teams feature).
import { useTeamStore } from '@/features/teams/store';
import { ThreadConverterPage } from '@/features/thread-converter/converter-page';

export function ThreadConverterRoute() {
  const teamId = useTeamStore((state) => state.currentTeamPublicId);
  return <ThreadConverterPage teamId={teamId} />;
}
