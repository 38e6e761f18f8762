// The needles of a job's machine as the operator threads them: each needle with its thread and
// the blocks it sews, large enough to read from the machine; then the re-threads, when the design
// needs more threads than the machine has needles.
import type { Job } from '../api';
import { formatCount, needles } from '../format';

/** What sews a slot: its thread's name, or the design's colour when none is chosen. */
export function slotName(job: Job, slot: number): string {
  const found = job.slots[slot];
  if (!found) return '';
  if (found.thread) return found.thread.label;
  return found.colour === null ? `Block ${found.blocks.join(', ')}: no thread chosen` : `${found.name ?? found.colour}: no thread chosen`;
}

export function slotColour(job: Job, slot: number): string | null {
  const found = job.slots[slot];
  return found?.thread?.colour ?? found?.colour ?? null;
}

export function NeedleList({ job }: { job: Job }) {
  // Each needle at the start, with the blocks its first thread sews before any re-thread.
  const threaded = job.setup.map((slot, index) => {
    const needle = index + 1;
    const firstRethread = job.rethreads.find((step) => step.needle === needle)?.before_block ?? Number.POSITIVE_INFINITY;
    const blocks = job.blocks.flatMap((block, at) => (block.needle === needle && at + 1 < firstRethread ? [at + 1] : []));
    return { needle, slot, blocks };
  });
  return (
    <>
      <ol className="needle-list" aria-label="Threads on the needles">
        {threaded.map(({ needle, slot, blocks }) => (
          <li key={needle} className="needle-list__item">
            <span className="needle-list__number" aria-label={`Needle ${needle}`}>
              {needle}
            </span>
            <span className="swatch swatch--lg" style={{ backgroundColor: slotColour(job, slot) ?? 'transparent' }} aria-hidden="true" />
            <span className="needle-list__thread">
              {slotName(job, slot)}
              <span className="muted">
                {' '}
                · {blocks.length === 1 ? 'block' : 'blocks'} {blocks.join(', ')}
              </span>
            </span>
          </li>
        ))}
      </ol>
      {job.too_many_threads ? (
        <div className="job-rethreads" role="note">
          <p>
            <strong>
              More threads than the machine's {needles(job.machine?.needles ?? 0)}: {formatCount(job.rethreads.length)}{' '}
              {job.rethreads.length === 1 ? 're-thread' : 're-threads'} during the run.
            </strong>
          </p>
          <ol>
            {job.rethreads.map((step) => (
              <li key={`${step.before_block}-${step.needle}`}>
                Before block {step.before_block}: needle {step.needle} from {slotName(job, step.replaces_slot)} to{' '}
                {slotName(job, step.slot)}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
    </>
  );
}
