// The job's page (issue 50, points 2 and 6) against a stand-in API: a thread picked for a block is
// sent as the plan with the version seen, the needles and re-threads read as the operator needs
// them, a viewer changes nothing; and a preview is recoloured block by block.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { recoloured } from '@/components/LibraryPreview';
import { apiError, fakeApi } from '@/test/fake-api';
import { renderPage } from '@/test/render';

import type { Job } from './api';
import { JobPage } from './job-page';

const DESIGN = '0b7f3c3e-8a0f-4a55-9f0e-2b9c1f7f0a11';
const red = {
  id: 'thRedRedRedRed01',
  label: 'Poppy red',
  line: null,
  code: null,
  colour: '#ED171F',
  quantity: 2,
  spool_m: 1000,
  spool_default: false,
};

function aJob(extra: Partial<Job> = {}): Job {
  return {
    id: 'jbStarsStarsSt01',
    name: 'Café Rosa caps',
    customer: 'Café Rosa',
    status: 'draft',
    quantity: 12,
    pieces_done: 0,
    due_date: '2026-12-20',
    notes: '',
    design_id: DESIGN,
    design: { file_name: 'star.dst', format: 'dst', stitches: 2550, trims: null, colour_changes: 1, width_mm: 59.1, height_mm: 62.3 },
    machine: { id: 'mcTajimaTajima01', name: 'Tajima', heads: 1, needles: 1, typical_spm: 800 },
    slots: [
      { colour: null, name: null, blocks: [1], stitches: 1456, top_m: 8.17, thread: red, proposal: null },
      { colour: null, name: null, blocks: [2], stitches: 1094, top_m: 4.81, thread: null, proposal: null },
    ],
    blocks: [
      { stitches: 1456, slot: 0, needle: 1, top_m: 8.17 },
      { stitches: 1094, slot: 1, needle: 1, top_m: 4.81 },
    ],
    setup: [0],
    rethreads: [{ before_block: 2, needle: 1, replaces_slot: 0, slot: 1 }],
    too_many_threads: true,
    stock: [
      {
        thread: red,
        need_m: 107.8,
        held_m: 2000,
        reserved_m: 0,
        free_m: 2000,
        verdict: 'enough',
        short_m: 0,
        spools: 0,
      },
    ],
    verdict: 'unplanned',
    top_m: 12.98,
    bobbin_m: 7.79,
    job_top_m: 171.3,
    job_bobbin_m: 102.8,
    usage: { take_up_mm: 2.5, bobbin_share: 0.6, waste_percent: 10, unit: 'metres' },
    version: 3,
    created_at: '2026-12-07T10:00:00Z',
    updated_at: '2026-12-07T10:00:00Z',
    ...extra,
  };
}

const JOB = 'GET /teams/tm_shop/jobs/jbStarsStarsSt01';
const THREADS = 'GET /teams/tm_shop/threads?sort=code&per_page=200&page=1';

function shop(job: Job) {
  return fakeApi({
    [JOB]: () => Response.json({ job }),
    [THREADS]: () =>
      Response.json({
        threads: [
          { ...red, name: 'Poppy red', line_name: null },
          { id: 'thSnowSnowSnow01', name: 'Snow white', line_name: null, code: null, colour: '#F0F0F0' },
        ],
        total: 2,
      }),
    [`GET /teams/tm_shop/designs/${DESIGN}/preview.svg`]: () =>
      new Response('<svg xmlns="http://www.w3.org/2000/svg"><g stroke="#44403c"></g><g stroke="#a8a29e"></g></svg>'),
  });
}

describe("a job's page", () => {
  it('sends the thread picked for a block as the plan, with the version seen', async () => {
    const server = shop(aJob());
    server.handlers['PATCH /teams/tm_shop/jobs/jbStarsStarsSt01'] = () => Response.json({ job: aJob({ version: 4, verdict: 'enough' }) });
    renderPage(<JobPage teamId="tm_shop" canWrite jobId="jbStarsStarsSt01" />, '/jobs/jbStarsStarsSt01');
    const plan = await screen.findByRole('region', { name: 'Colour plan' });
    expect(plan.textContent).toContain('This file stores no colours');
    await within(within(plan).getByLabelText('Thread for Block 2')).findByRole('option', { name: 'Snow white' });
    await userEvent.setup().selectOptions(within(plan).getByLabelText('Thread for Block 2'), 'Snow white');
    await waitFor(() =>
      expect(server.callsTo('PATCH /teams/tm_shop/jobs/jbStarsStarsSt01')).toEqual([
        { plan: ['thRedRedRedRed01', 'thSnowSnowSnow01'], version: 3 },
      ]),
    );
    const stock = screen.getByRole('region', { name: 'Stock check' });
    await waitFor(() => expect(within(stock).getByRole('status').textContent).toBe('There is enough of every thread.'));
  });

  it('shows the needles with the re-threads, and a refusal where the person is looking', async () => {
    const server = shop(aJob({ status: 'ready' }));
    server.handlers['POST /teams/tm_shop/jobs/jbStarsStarsSt01/pieces'] = () =>
      apiError(422, 'too_many_pieces', '12 pieces are left to do: record 1 to 12.');
    renderPage(<JobPage teamId="tm_shop" canWrite jobId="jbStarsStarsSt01" />, '/jobs/jbStarsStarsSt01');
    const needles = await screen.findByRole('region', { name: 'Needles' });
    expect(within(needles).getByRole('list', { name: 'Threads on the needles' }).textContent).toBe('1Poppy red · block 1');
    expect(within(needles).getByRole('note').textContent).toContain('Before block 2: needle 1 from Poppy red to Block 2: no thread chosen');
    const actions = screen.getByRole('region', { name: 'On the machine' });
    await userEvent.setup().click(within(actions).getByRole('button', { name: 'All 12 done' }));
    expect((await within(actions).findByRole('alert')).textContent).toBe('12 pieces are left to do: record 1 to 12.');
  });

  it('lets a viewer read the plan but not change it', async () => {
    shop(aJob());
    renderPage(<JobPage teamId="tm_shop" canWrite={false} jobId="jbStarsStarsSt01" />, '/jobs/jbStarsStarsSt01');
    const plan = await screen.findByRole('region', { name: 'Colour plan' });
    expect(within(plan).getByLabelText<HTMLSelectElement>('Thread for Block 1').disabled).toBe(true);
    expect(screen.getByRole('region', { name: 'On the machine' }).textContent).toContain('Viewers see the job');
  });
});

describe('a recoloured preview', () => {
  it("draws each block's group in the colour given, and nothing that is not a colour", () => {
    const svg = '<svg><g stroke="#44403c"><polyline/></g><g stroke="#a8a29e"></g><g stroke="#1e3a8a"></g></svg>';
    expect(recoloured(svg, ['#ED171F', null, '"/><script>'])).toBe(
      '<svg><g stroke="#ED171F"><polyline/></g><g stroke="#a8a29e"></g><g stroke="#1e3a8a"></g></svg>',
    );
  });
});
