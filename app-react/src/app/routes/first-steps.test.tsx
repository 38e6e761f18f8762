import { screen, waitFor, within } from '@testing-library/react';

import { aTeam, anInvite } from '@/features/teams/test-data';
import { fakeApi } from '@/test/fake-api';
import { renderPage } from '@/test/render';

import { FirstSteps } from './first-steps';

const THREADS = 'GET /teams/tm_shop/threads?per_page=1';
const QUOTES = 'GET /teams/tm_shop/quotes?page=1&per_page=20';

function answers({ threads = 0, machines = 0, quotes = 0, invites = 0 }) {
  return {
    [THREADS]: () => Response.json({ threads: [], total: threads, page: 1, per_page: 1 }),
    'GET /teams/tm_shop/machines': () => Response.json({ machines: Array.from({ length: machines }, () => ({})) }),
    [QUOTES]: () => Response.json({ quotes: [], total: quotes, page: 1, per_page: 20 }),
    'GET /teams/tm_shop/invites': () => Response.json({ invites: Array.from({ length: invites }, (_, i) => anInvite(`iv_${i}`)) }),
  };
}

// Issue 52: "A new team's dashboard shows a short checklist that goes away when done: add threads
// (from the catalogue, a CSV ...), add a machine, invite the team, price a design."
describe('the first steps on the dashboard', () => {
  it('lists the four steps of a new team, each leading where it is done', async () => {
    fakeApi(answers({}));
    renderPage(<FirstSteps teamId="tm_shop" team={aTeam('tm_shop')} />, '/dashboard');
    const steps = within(await screen.findByRole('region', { name: 'Get started' }));
    expect(steps.getByText('4 of 4 steps left. This list goes away once they are done.')).toBeTruthy();
    expect(steps.getAllByRole('listitem').map((item) => item.querySelector('strong')?.textContent)).toEqual([
      'Add your threads',
      'Add a machine',
      'Invite your team',
      'Price a design',
    ]);
    expect(steps.getByRole('link', { name: 'Thread Inventory' }).getAttribute('href')).toBe('/inventory/threads');
    expect(steps.getByRole('link', { name: 'Machines' }).getAttribute('href')).toBe('/inventory/machines');
    expect(steps.getByRole('link', { name: 'Team' }).getAttribute('href')).toBe('/team');
    expect(steps.getByRole('link', { name: 'Pricing Calculator' }).getAttribute('href')).toBe('/calculators/pricing');
  });

  it('marks the steps done, and goes away once all are', async () => {
    const api = fakeApi(answers({ threads: 12, invites: 1 }));
    const view = renderPage(<FirstSteps teamId="tm_shop" team={aTeam('tm_shop')} />, '/dashboard');
    const steps = within(await screen.findByRole('region', { name: 'Get started' }));
    expect(steps.getByText('2 of 4 steps left. This list goes away once they are done.')).toBeTruthy();
    expect(steps.getAllByText('Done')).toHaveLength(2);
    view.unmount();

    api.handlers = answers({ threads: 12, machines: 1, quotes: 3 });
    renderPage(<FirstSteps teamId="tm_shop" team={{ ...aTeam('tm_shop'), member_count: 3 }} />, '/dashboard');
    await waitFor(() => expect(api.callsTo(QUOTES).length).toBeGreaterThan(0));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Get started' })).toBeNull());
    expect(screen.queryByText(/steps left/)).toBeNull();
  });
});
