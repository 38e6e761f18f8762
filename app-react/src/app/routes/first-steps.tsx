// A new team's first steps, on the dashboard (issue 52: "A new team's dashboard shows a short
// checklist that goes away when done"). Each step is done when the team has what it makes: a
// thread, a machine, a second member or an invite sent, a saved quote. The whole list goes once
// every step is done, and each step links to where it is done.
import { Link } from 'react-router';

import { paths } from '@/config/paths';
import { useMachines } from '@/features/inventory/api/get-machines';
import { useThreads } from '@/features/inventory/api/get-threads';
import { useQuotes } from '@/features/pricing/api/get-quotes';
import { useTeamInvites } from '@/features/teams/api/get-team-invites';
import { type Team, canManage } from '@/features/teams/types';

interface Step {
  done: boolean | undefined;
  title: string;
  how: React.ReactNode;
}

export function FirstSteps({ teamId, team }: { teamId: string; team: Team }) {
  const threads = useThreads(teamId, { per_page: 1 });
  const machines = useMachines(teamId);
  const quotes = useQuotes(teamId, { q: '', page: 1 });
  const invites = useTeamInvites(teamId, canManage(team.role));
  const steps: Step[] = [
    {
      done: threads.data && threads.data.total > 0,
      title: 'Add your threads',
      how: (
        <>
          From the catalogue by code, or import a CSV: <Link to={paths.inventoryThreads}>Thread Inventory</Link>.
        </>
      ),
    },
    {
      done: machines.data && machines.data.length > 0,
      title: 'Add a machine',
      how: (
        <>
          Its heads, needles and hoops, and its maintenance follows: <Link to={paths.inventoryMachines}>Machines</Link>.
        </>
      ),
    },
    {
      done: team.member_count > 1 || (invites.data !== undefined && invites.data.length > 0),
      title: 'Invite your team',
      how: (
        <>
          Each person with the role they need: <Link to={paths.team}>Team</Link>.
        </>
      ),
    },
    {
      done: quotes.data && quotes.data.total > 0,
      title: 'Price a design',
      how: (
        <>
          Drop its file on the <Link to={paths.pricingCalculator}>Pricing Calculator</Link> and save the quote.
        </>
      ),
    },
  ];
  // Until the team's data has answered, nothing is shown: no list that flashes and goes.
  if (steps.some((step) => step.done === undefined) || steps.every((step) => step.done)) return null;
  const left = steps.filter((step) => !step.done).length;
  return (
    <section className="card profile-section first-steps" aria-labelledby="dashboard-first-steps">
      <h2 id="dashboard-first-steps">Get started</h2>
      <p className="muted">
        {left} of {steps.length} steps left. This list goes away once they are done.
      </p>
      <ol className="first-steps__list">
        {steps.map((step) => (
          <li key={step.title} className={step.done ? 'first-steps__step first-steps__step--done' : 'first-steps__step'}>
            <strong>{step.title}</strong>
            {step.done ? <span className="chip first-steps__done">Done</span> : null}
            <p>{step.how}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
