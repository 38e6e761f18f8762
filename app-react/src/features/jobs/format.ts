// How the jobs pages write their figures (docs/behaviour.md, "Jobs").
import { type LengthUnit, formatLength, lengthUnit } from '@/lib/thread-usage';

import type { Job, JobStatus, JobSummary } from './api';

export const statusNames: Record<JobStatus, string> = {
  draft: 'Draft',
  ready: 'Ready',
  running: 'Running',
  done: 'Done',
  cancelled: 'Cancelled',
};

const count = new Intl.NumberFormat('en');

export function formatCount(value: number): string {
  return count.format(value);
}

/** "1 needle", "15 needles". */
export function needles(value: number): string {
  return `${formatCount(value)} ${value === 1 ? 'needle' : 'needles'}`;
}

/** The job's unit, from the usage setting it was worked out with. */
export function unitOf(job: Pick<Job, 'usage'>): LengthUnit {
  return lengthUnit(job.usage);
}

export function length(metres: number, unit: LengthUnit): string {
  return formatLength(metres, unit);
}

/** "12 Dec 2026", from `YYYY-MM-DD`. */
export function formatDue(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1)).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** What the stock check says of a job, in words. */
export function verdictText(job: Pick<JobSummary, 'verdict'> & { short: { label: string }[] }): string {
  if (job.verdict === 'unplanned') return 'Threads to choose';
  if (job.verdict === 'short') {
    const names = job.short.map((thread) => thread.label);
    return names.length > 0 ? `Short of ${names.join(', ')}` : 'Short of thread';
  }
  return 'Enough thread';
}
