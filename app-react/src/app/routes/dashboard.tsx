import { Link } from 'react-router';

import { pageTitle, paths } from '@/config/paths';
import { LowStock } from '@/features/inventory/components/LowStock';
import { MaintenanceDue } from '@/features/inventory/components/MaintenanceDue';
import { CreateTeamForm } from '@/features/teams/components/CreateTeamForm';
import { useTeamStore } from '@/features/teams/store';
import { roleLabels } from '@/features/teams/types';

import { FirstSteps } from './first-steps';

/** `/dashboard`: the current team at a glance, and the way to the tools. */
export function DashboardPage() {
  const team = useTeamStore((state) => state.currentTeam);
  const teamId = useTeamStore((state) => state.currentTeamPublicId);
  const loading = useTeamStore((state) => state.loading);

  return (
    <div className="dashboard">
      <title>{pageTitle('Dashboard')}</title>
      <h1>Dashboard</h1>
      {team && teamId ? <FirstSteps teamId={teamId} team={team} /> : null}
      <section className="card profile-section" aria-labelledby="dashboard-team">
        <h2 id="dashboard-team">Your team</h2>
        {team ? (
          <>
            <p className="dashboard__team">
              <strong>{team.name}</strong>
              <span className="muted">
                {' '}
                · {roleLabels[team.role]} · {team.member_count} {team.member_count === 1 ? 'member' : 'members'}
              </span>
            </p>
            <Link to={paths.team}>Manage the team</Link>
          </>
        ) : loading ? (
          <p role="status">Loading your teams…</p>
        ) : (
          <p>No team is selected. Choose one with the team switcher at the top of the page.</p>
        )}
      </section>
      {team && teamId ? (
        <section className="card profile-section" aria-labelledby="dashboard-low">
          <h2 id="dashboard-low">Low stock</h2>
          <LowStock teamId={teamId} />
        </section>
      ) : null}
      {team && teamId ? (
        <section className="card profile-section" aria-labelledby="dashboard-maintenance">
          <h2 id="dashboard-maintenance">Maintenance due</h2>
          <MaintenanceDue teamId={teamId} />
        </section>
      ) : null}
      <section className="card profile-section" aria-labelledby="dashboard-tools">
        <h2 id="dashboard-tools">Tools</h2>
        <ul className="link-list">
          <li>
            <Link to={paths.inventoryThreads}>Thread Inventory</Link>
            <span className="muted"> — the team's spools, low stock and the shopping list</span>
          </li>
          <li>
            <Link to={paths.inventoryMachines}>Machines</Link>
            <span className="muted"> — machines, hoops and maintenance due</span>
          </li>
          <li>
            <Link to={paths.pricingCalculator}>Pricing Calculator</Link>
            <span className="muted"> — what a design costs to stitch, from its file</span>
          </li>
          <li>
            <Link to={paths.threadConverter}>Thread converter</Link>
            <span className="muted"> — find the closest thread in another brand</span>
          </li>
          <li>
            <Link to={paths.team}>Team</Link>
            <span className="muted"> — members, invites and team settings</span>
          </li>
          <li>
            <Link to={paths.profile}>Your account</Link>
            <span className="muted"> — profile, security and invites</span>
          </li>
        </ul>
      </section>
      <CreateTeamForm />
    </div>
  );
}
