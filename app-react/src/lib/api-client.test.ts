import { ApiError, api, teamPath } from './api-client';

afterEach(() => {
  vi.unstubAllGlobals();
});

const answering = (response: Response) =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => response),
  );

describe('the product API client', () => {
  it("carries the server's code, message and field messages on an error", async () => {
    answering(
      Response.json(
        {
          code: 'validation_failed',
          message: 'Check the fields.',
          fields: [
            { field: 'email', code: 'invalid', message: 'Enter an e-mail address.' },
            { field: 'email', code: 'too_long', message: 'Second.' },
          ],
        },
        { status: 422 },
      ),
    );
    const error = (await api('/teams/x/invites', { method: 'POST', body: {} }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, code: 'validation_failed', message: 'Check the fields.' });
    expect(error.fields).toEqual({ email: 'Enter an e-mail address.' });
  });

  it('keeps a status message when the server sends one', async () => {
    answering(Response.json({ statusMessage: 'Too many invites' }, { status: 429 }));
    const error = (await api('/x').catch((e: unknown) => e)) as ApiError;
    expect(error.statusMessage).toBe('Too many invites');
  });

  it('answers undefined for 204', async () => {
    answering(new Response(null, { status: 204 }));
    expect(await api('/teams/x', { method: 'DELETE' })).toBeUndefined();
  });
});

describe('team paths', () => {
  it('are the team, or a resource under it, with the id encoded', () => {
    expect(teamPath('tm_1')).toBe('/teams/tm_1');
    expect(teamPath('tm_1', 'threads/owned')).toBe('/teams/tm_1/threads/owned');
    expect(teamPath('a/b c', 'members')).toBe('/teams/a%2Fb%20c/members');
  });
});
