import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';

import { FormAlert } from '@/components/form';
import { pageTitle, paths, profileTabPath } from '@/config/paths';
import { notify } from '@/lib/toast';

import { useAcceptInviteByToken } from './api/accept-invite-by-token';
import { INVITE_ACCEPTED, acceptLinkError } from './messages';
import { useSelectTeam } from './select-team';

/**
 * `/profile/invites/accept?token=...`: the e-mailed invite link. Accepts the invite at once (the
 * person came to join), makes the team the default, and opens the team page. A link that no
 * longer works says why.
 */
export function AcceptInvitePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const accept = useAcceptInviteByToken();
  const selectTeam = useSelectTeam();
  const [error, setError] = useState<string | null>(token ? null : 'This invite link has no token. Open the whole link from the e-mail.');
  // A token is accepted once: React runs effects twice in development, and the second try would
  // fail ("already accepted").
  const started = useRef(false);

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    void (async () => {
      try {
        const { team } = await accept.mutateAsync(token);
        notify.success(INVITE_ACCEPTED);
        try {
          await selectTeam(team.public_id);
        } catch (failure) {
          // Joined all the same; the team page shows the team once it is chosen.
          console.warn('Could not select the team:', failure);
        }
        await navigate(paths.team, { replace: true });
      } catch (failure) {
        setError(acceptLinkError(failure));
      }
    })();
  }, [token, accept, selectTeam, navigate]);

  return (
    <div className="accept-invite">
      <title>{pageTitle('Accept invite')}</title>
      <h1>Join a team</h1>
      {error ? (
        <>
          <FormAlert message={error} />
          <p className="actions">
            <Link to={profileTabPath('invites')}>See your invites</Link>
            <Link to={paths.dashboard}>Go to the dashboard</Link>
          </p>
        </>
      ) : (
        <p role="status">Accepting the invite…</p>
      )}
    </div>
  );
}
