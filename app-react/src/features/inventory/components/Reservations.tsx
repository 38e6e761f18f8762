// The ready and running jobs holding a thread (docs/behaviour.md, "Jobs"), on its page.
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';

import { jobPath } from '@/config/paths';

import { reservationsQueryOptions } from '../api/get-job-stock';

const metres = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

export function Reservations({ teamId, threadId }: { teamId: string; threadId: string }) {
  const id = useId();
  const held = useQuery(reservationsQueryOptions(teamId, threadId));
  const jobs = held.data?.reservations ?? [];
  if (jobs.length === 0) return null;
  return (
    <section className="card thread-reservations" aria-labelledby={id}>
      <h2 id={id}>Held by jobs</h2>
      <p>
        {metres.format(held.data?.metres ?? 0)} m of this thread are held by {jobs.length === 1 ? 'a job' : `${jobs.length} jobs`} ready or
        running:
      </p>
      <ul>
        {jobs.map((job) => (
          <li key={job.job_id}>
            <Link to={jobPath(job.job_id)}>{job.name}</Link> ({job.status}): {metres.format(job.metres)} m
          </li>
        ))}
      </ul>
    </section>
  );
}
