// Jobs on the product API (docs/behaviour.md, "Jobs"): the list, one job with its plan worked out
// by the server, and the writes (make, change, record pieces, undo a stock change). Every read
// is kept in the browser like the other reads, so a job opens in the workroom without a
// connection; writes need one.
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import { api, productQuery, teamPath } from '@/lib/api-client';
import type { components } from '@/lib/api-schema';
import { libraryKey } from '@/lib/design-library';
import { newWriteKey } from '@/lib/offline/writes';

type Schemas = components['schemas'];
/** The team's thread-usage setting the job's figures come from (bobbin_core::design::UsageModel). */
export interface UsageSetting {
  take_up_mm: number;
  bobbin_share: number;
  waste_percent: number;
  unit: 'metres' | 'yards';
}
export type Job = Omit<Schemas['JobView'], 'usage'> & { usage: UsageSetting };
export type JobSummary = Schemas['JobSummary'];
export type JobStatus = Schemas['JobStatus'];
export type JobInput = Schemas['JobInput'];
export type JobPatch = Omit<Schemas['JobPatch'], 'version'>;
export type JobThread = Schemas['JobThread'];
export type Machine = Schemas['MachineView'];
export type ThreadOption = Schemas['InventoryThread'];

export const jobsKey = (teamId: string) => ['jobs', teamId] as const;

export function jobsQueryOptions(teamId: string) {
  return queryOptions({
    queryKey: [...jobsKey(teamId), 'list'],
    queryFn: ({ signal }) => api<{ jobs: JobSummary[] }>(teamPath(teamId, 'jobs'), { signal }),
    ...productQuery,
    enabled: teamId !== '',
  });
}

export function jobQueryOptions(teamId: string, jobId: string) {
  return queryOptions({
    queryKey: [...jobsKey(teamId), 'job', jobId],
    queryFn: ({ signal }) => api<{ job: Job }>(teamPath(teamId, `jobs/${encodeURIComponent(jobId)}`), { signal }),
    ...productQuery,
    enabled: teamId !== '' && jobId !== '',
  });
}

/** The team's machines, for the machine a job runs on. */
export function machinesQueryOptions(teamId: string) {
  return queryOptions({
    queryKey: ['jobs-machines', teamId],
    queryFn: ({ signal }) => api<{ machines: Machine[] }>(teamPath(teamId, 'machines'), { signal }),
    ...productQuery,
    enabled: teamId !== '',
  });
}

/** Every thread of the team (pages of 200), for the plan's choices. */
export function threadOptionsQueryOptions(teamId: string) {
  return queryOptions({
    // Under the inventory's threads key: any change of a thread reads it again.
    queryKey: ['inventory', teamId, 'threads', 'job-options'],
    queryFn: async ({ signal }) => {
      const threads: ThreadOption[] = [];
      for (let page = 1; ; page += 1) {
        const answer = await api<{ threads: ThreadOption[]; total: number }>(
          teamPath(teamId, `threads?sort=code&per_page=200&page=${page}`),
          { signal },
        );
        threads.push(...answer.threads);
        if (answer.threads.length < 200 || threads.length >= answer.total) return threads;
      }
    },
    ...productQuery,
    enabled: teamId !== '',
  });
}

/** After a job changes: the jobs, and the threads whose stock it may have moved, are read again. */
export function jobsChanged(queryClient: QueryClient, teamId: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: jobsKey(teamId) }),
    queryClient.invalidateQueries({ queryKey: ['inventory', teamId] }),
  ]);
}

export function useMakeJob(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: JobInput) =>
      api<{ job: Job }>(teamPath(teamId, 'jobs'), { method: 'POST', body: input, headers: { 'Idempotency-Key': newWriteKey() } }).then(
        (body) => body.job,
      ),
    onSuccess: async (job) => {
      queryClient.setQueryData(jobQueryOptions(teamId, job.id).queryKey, { job });
      await queryClient.invalidateQueries({ queryKey: jobsKey(teamId) });
      await queryClient.invalidateQueries({ queryKey: libraryKey(teamId) });
    },
  });
}

/** Changes a job as last read (`version`); the answer is the job with its plan worked out again. */
export function useChangeJob(teamId: string, job: Job) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: JobPatch) =>
      api<{ job: Job }>(teamPath(teamId, `jobs/${encodeURIComponent(job.id)}`), {
        method: 'PATCH',
        body: { ...patch, version: job.version },
      }).then((body) => body.job),
    onSuccess: async (changed) => {
      queryClient.setQueryData(jobQueryOptions(teamId, changed.id).queryKey, { job: changed });
      await queryClient.invalidateQueries({ queryKey: [...jobsKey(teamId), 'list'] });
    },
  });
}

/** Records pieces done: their thread is taken from stock (once, whatever the retries). */
export function useRecordPieces(teamId: string, jobId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (pieces: number) =>
      api<{ job: Job }>(teamPath(teamId, `jobs/${encodeURIComponent(jobId)}/pieces`), {
        method: 'POST',
        body: { pieces },
        headers: { 'Idempotency-Key': newWriteKey() },
      }).then((body) => body.job),
    onSuccess: async (job) => {
      queryClient.setQueryData(jobQueryOptions(teamId, job.id).queryKey, { job });
      await jobsChanged(queryClient, teamId);
    },
  });
}
