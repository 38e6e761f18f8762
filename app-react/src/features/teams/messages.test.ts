import { ApiError } from '@/lib/api-client';

import { acceptLinkError, inviteAcceptError, inviteSendError } from './messages';

describe('the invite toasts', () => {
  it("shows the server's status message first when an invite cannot be sent", () => {
    const error = new ApiError(409, 'invite_pending', 'An invite is already pending.', { statusMessage: 'Already invited' });
    expect(inviteSendError(error)).toBe('Already invited');
  });

  it("then the server's message", () => {
    expect(inviteSendError(new ApiError(409, 'already_member', 'This person is already a member.'))).toBe(
      'This person is already a member.',
    );
  });

  it("then 'Failed to send invite.'", () => {
    expect(inviteSendError(new ApiError(500, 'error', ''))).toBe('Failed to send invite.');
    expect(inviteSendError(new TypeError('Failed to fetch'))).toBe('Failed to send invite.');
    expect(inviteSendError(undefined)).toBe('Failed to send invite.');
  });

  it("shows the server's message when accepting fails, else 'Failed to accept invite.'", () => {
    expect(inviteAcceptError(new ApiError(410, 'invite_expired', 'This invite has expired.'))).toBe('This invite has expired.');
    expect(inviteAcceptError(new ApiError(500, 'error', ' '))).toBe('Failed to accept invite.');
    expect(inviteAcceptError(new Error('Request timeout'))).toBe('Failed to accept invite.');
  });

  it('explains why an invite link no longer works', () => {
    expect(acceptLinkError(new ApiError(410, 'invite_expired', 'Gone'))).toMatch(/expired/);
    expect(acceptLinkError(new ApiError(410, 'invite_revoked', 'Gone'))).toMatch(/withdrawn/);
    expect(acceptLinkError(new ApiError(409, 'invite_accepted', 'Used'))).toMatch(/already been accepted/);
    expect(acceptLinkError(new ApiError(400, 'odd', 'Odd.'))).toBe('Odd.');
  });
});
