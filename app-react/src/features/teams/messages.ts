// The invite toasts (docs/behaviour.md, "Toasts and messages"), and sentences for the accept link's
// failures.
import { ApiError } from '@/lib/api-client';

export const INVITE_SENT = 'Invite sent successfully!';
export const INVITE_SEND_FAILED = 'Failed to send invite.';
export const INVITE_ACCEPTED = 'Invite accepted!';
export const INVITE_ACCEPT_FAILED = 'Failed to accept invite.';

const text = (value: string | undefined) => (value && value.trim() !== '' ? value : undefined);

/** Invite creation failed: the server's status message, else its message, else the fallback. */
export function inviteSendError(error: unknown): string {
  if (error instanceof ApiError) return text(error.statusMessage) ?? text(error.message) ?? INVITE_SEND_FAILED;
  return INVITE_SEND_FAILED;
}

/** Accepting failed: the server's message, else the fallback. */
export function inviteAcceptError(error: unknown): string {
  if (error instanceof ApiError) return text(error.message) ?? INVITE_ACCEPT_FAILED;
  return INVITE_ACCEPT_FAILED;
}

/**
 * The accept link's page explains the usual failures in its own words (the link is old, the
 * team withdrew it, its sender can no longer give its role, it was used already); any other
 * failure shows the server's message.
 */
const acceptLinkProblems: Record<string, string> = {
  invite_expired: 'This invite has expired. Ask the team to send you a new one.',
  invite_revoked: 'This invite was withdrawn by the team.',
  invite_void:
    'This invite is no longer valid: the person who sent it can no longer invite people to this team with that role. Ask the team for a new one.',
  invite_accepted: 'This invite has already been accepted.',
  already_member: 'You are already a member of this team.',
  not_found: 'This invite link is not valid. Check that you opened the whole link from the e-mail.',
};

export function acceptLinkError(error: unknown): string {
  if (error instanceof ApiError && acceptLinkProblems[error.code]) return acceptLinkProblems[error.code] as string;
  return inviteAcceptError(error);
}
