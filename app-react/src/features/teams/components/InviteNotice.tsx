import { paths } from '@/config/paths';

import { useInvitePreview } from '../api/preview-invite';
import { acceptLinkError } from '../messages';

/** The token of the invite link `redirect` leads to, if it leads to one. */
export function inviteToken(redirect: string | null): string | null {
  if (!redirect) return null;
  const url = new URL(redirect, 'http://bobbin.invalid');
  return url.pathname === paths.acceptInvite ? url.searchParams.get('token') : null;
}

/**
 * On the sign-in screens, when they lead on to an invite link (their `redirect`): which team
 * invites the person and who, before they sign in or register; or why the link no longer works.
 * Nothing otherwise.
 */
export function InviteNotice({ redirect }: { redirect: string | null }) {
  const token = inviteToken(redirect);
  const preview = useInvitePreview(token);

  if (token === null) return null;
  return (
    <section className="invite-notice" aria-label="Your invite">
      {preview.isPending ? (
        <p role="status">Looking up your invite…</p>
      ) : preview.isError ? (
        <p role="alert">{acceptLinkError(preview.error)}</p>
      ) : (
        <p>
          {preview.data.invited_by ? `${preview.data.invited_by} invites you` : 'You are invited'} to join{' '}
          <strong>{preview.data.team_name}</strong> on Bobbin. Sign in, or create an account, to accept.
        </p>
      )}
    </section>
  );
}
