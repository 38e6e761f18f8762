import { Link } from 'react-router';

import { pageTitle, paths } from '@/config/paths';

import { useTeam } from './api/get-team';
import { DeleteTeam } from './components/DeleteTeam';
import { InviteForm } from './components/InviteForm';
import { MemberList } from './components/MemberList';
import { PendingInvites } from './components/PendingInvites';
import { RenameTeam } from './components/RenameTeam';
import { TeamData } from './components/TeamData';
import { TeamSettingsForm } from './components/TeamSettingsForm';
import { useTeamStore } from './store';
import { canManage, isOwner, roleLabels } from './types';

/**
 * `/team`: the current team. Everyone sees its members and settings and may leave it; admins
 * and owners rename it, change roles, remove members, invite people and edit the settings; only
 * owners delete it; admins and owners download its data. What a role may not do is not offered
 * (the server refuses it regardless).
 */
export function TeamPage() {
  const publicId = useTeamStore((state) => state.currentTeamPublicId);
  const stored = useTeamStore((state) => state.currentTeam);
  const loading = useTeamStore((state) => state.loading);
  // Fresh details (name, the caller's role); the store's copy paints first.
  const fetched = useTeam(publicId);
  const team = fetched.data ?? stored;

  if (!team) {
    return (
      <div className="team">
        <title>{pageTitle('Team')}</title>
        <h1>Team</h1>
        {loading ? (
          <p role="status">Loading your teams…</p>
        ) : (
          <p>
            No team is selected. Choose one with the team switcher at the top of the page, or go back to the{' '}
            <Link to={paths.dashboard}>dashboard</Link>.
          </p>
        )}
      </div>
    );
  }

  const manage = canManage(team.role);
  return (
    <div className="team">
      <title>{pageTitle(`Team: ${team.name}`)}</title>
      <h1 className="team__title">{team.name}</h1>
      <p className="lead">
        Your role: <strong>{roleLabels[team.role]}</strong>
        {manage ? null : ' — only admins and owners can change the team, its members and its settings.'}
      </p>
      {manage ? <RenameTeam team={team} /> : null}
      <MemberList team={team} />
      {manage ? (
        <>
          <InviteForm team={team} />
          <PendingInvites team={team} />
        </>
      ) : null}
      <TeamSettingsForm team={team} />
      {manage ? <TeamData team={team} /> : null}
      {isOwner(team.role) ? <DeleteTeam team={team} /> : null}
    </div>
  );
}
