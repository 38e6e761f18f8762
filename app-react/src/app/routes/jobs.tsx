// Where the jobs meet the teams: their pages are given the current team and whether the person's
// role there may change jobs (features never import one another).
import { useParams } from 'react-router';

import { JobPage } from '@/features/jobs/job-page';
import { JobsPage } from '@/features/jobs/jobs-page';
import { SheetPage } from '@/features/jobs/sheet-page';

import { WithTeam } from './with-team';

export function JobsRoute() {
  return <WithTeam className="jobs" title="Jobs" page={(access) => <JobsPage key={access.teamId} {...access} />} />;
}

export function JobRoute() {
  const { jobId = '' } = useParams();
  return <WithTeam className="jobs" title="Job" page={(access) => <JobPage {...access} jobId={jobId} />} />;
}

export function JobSheetRoute() {
  const { jobId = '' } = useParams();
  return <WithTeam className="jobs" title="Run sheet" page={(access) => <SheetPage {...access} jobId={jobId} />} />;
}
