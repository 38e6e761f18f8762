import { type ReactNode, type SyntheticEvent, useState } from 'react';
import { useNavigate } from 'react-router';

import { LoadingStatus } from '@/components/LoadingStatus';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { FormAlert } from '@/components/form';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { getAuthClient } from '@/lib/auth';
import { notify } from '@/lib/toast';

import { type TeamRef, useDeleteAccount, useDeletion } from '../api/account';

/** How a team is named with a way to open it; the app gives one that selects the team. */
export type TeamLink = (team: TeamRef) => ReactNode;

const plainName: TeamLink = (team) => team.name;

function TeamList({ teams, link }: { teams: TeamRef[]; link: TeamLink }) {
  return (
    <ul className="delete-account__teams">
      {teams.map((team) => (
        <li key={team.public_id}>{link(team)}</li>
      ))}
    </ul>
  );
}

/**
 * Deletes the person's account (docs/behaviour.md, "Deleting an account"): with their password,
 * or none when the session has the authenticator app's code; never while a team they alone own
 * has other members (those are listed, to hand over or delete first). After a final
 * confirmation; then the person is signed out and lands on the home page.
 */
export function DeleteAccount({ teamLink = plainName }: { teamLink?: TeamLink | undefined }) {
  const deletion = useDeletion();
  const remove = useDeleteAccount();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState(false);

  const plan = deletion.data;
  const asksPassword = plan?.password_needed ?? true;
  const blocked = (plan?.blocking_teams.length ?? 0) > 0;

  const check = (event: SyntheticEvent) => {
    setError(null);
    if (asksPassword && password === '') {
      // The dialog opens only with a password to send.
      event.preventDefault();
      setPasswordError('Enter your password.');
    }
  };

  const confirm = async () => {
    setError(null);
    setPasswordError(null);
    try {
      await remove.mutateAsync(asksPassword ? password : undefined);
    } catch (failure) {
      setOpen(false);
      if (failure instanceof ApiError && failure.fields?.password) setPasswordError(failure.fields.password);
      else setError(failure instanceof Error && failure.message ? failure.message : 'Your account could not be deleted.');
      // A refusal may come from a change elsewhere (someone left a team): show what blocks now.
      await deletion.refetch();
      return;
    }
    setOpen(false);
    notify.success('Your account is deleted.');
    try {
      // The session is gone on the server; this forgets it here, which logs out locally.
      const { auth } = await getAuthClient();
      await auth.signOut({ scope: 'local' });
    } finally {
      await navigate(paths.home);
    }
  };

  return (
    <section className="card profile-section danger-zone" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title">Delete your account</h2>
      <p>
        Deleting your account removes your details, sign-ins, authenticator apps, memberships and settings for good. What you added to teams
        you share stays with them, shown as added by a former member. A confirmation goes to your e-mail address.
      </p>
      <LoadingStatus query={deletion}>Loading…</LoadingStatus>
      {deletion.isError ? (
        <FormAlert message="What deleting your account would take could not be loaded. Reload the page to try again." />
      ) : null}
      {plan && blocked ? (
        <div>
          <p>
            <strong>First hand over or delete these teams.</strong> You are their only owner and they have other members: make someone else
            an owner (in the team&apos;s members), or delete the team.
          </p>
          <TeamList teams={plan.blocking_teams} link={teamLink} />
        </div>
      ) : null}
      {plan && plan.teams_deleted.length > 0 ? (
        <div>
          <p>
            These teams have no other member and are deleted with your account, with everything in them. Download their data first from each
            team&apos;s page.
          </p>
          <TeamList teams={plan.teams_deleted} link={teamLink} />
        </div>
      ) : null}
      {plan && !blocked ? (
        <form className="delete-account" onSubmit={(event) => event.preventDefault()} noValidate aria-label="Delete your account">
          {asksPassword ? (
            plan.has_password ? (
              <div className="field">
                <label htmlFor="delete-account-password">Your password</label>
                <input
                  id="delete-account-password"
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  aria-invalid={passwordError ? true : undefined}
                  aria-describedby={passwordError ? 'delete-account-password-error' : undefined}
                  onChange={(event) => {
                    setPassword(event.target.value);
                    setPasswordError(null);
                  }}
                />
                {passwordError ? (
                  <p id="delete-account-password-error" className="field__error">
                    {passwordError}
                  </p>
                ) : null}
              </div>
            ) : (
              <p>
                Your account has no password. Choose one under Security, or add an authenticator app and sign in with its code, then come
                back here.
              </p>
            )
          ) : (
            <p className="muted">You signed in with your authenticator app&apos;s code, so no password is needed.</p>
          )}
          <FormAlert message={error} />
          {!asksPassword || plan.has_password ? (
            <ConfirmDialog
              open={open}
              onOpenChange={setOpen}
              title="Delete your account?"
              confirmLabel="Delete my account"
              onConfirm={() => void confirm()}
              busy={remove.isPending}
              trigger={
                <button type="button" className="button button--danger" onClick={check}>
                  Delete my account
                </button>
              }
            >
              <p>
                Your account and everything personal in it will be deleted, and you will be signed out everywhere. This cannot be undone.
              </p>
            </ConfirmDialog>
          ) : null}
        </form>
      ) : (
        <FormAlert message={error} />
      )}
    </section>
  );
}
