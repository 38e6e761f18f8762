import { loginRedirect } from './guards';

const at = (path: string) => new URL(path, 'https://bobbin.example');

describe('the login guard (spec, section 2, guard 2)', () => {
  it.each(['/', '/login', '/register', '/reset', '/auth/callback', '/forgot-password', '/login/', '/auth/callback?code=abc'])(
    'lets a visitor who is not logged in open %s',
    (path) => {
      expect(loginRedirect(at(path), false)).toBeNull();
    },
  );

  it.each([
    ['/profile', '/login?redirect=%2Fprofile'],
    ['/profile?tab=security', '/login?redirect=%2Fprofile%3Ftab%3Dsecurity'],
    ['/tools/thread-converter?thread=isacord-polyester:1902&to=a,b', '/login?redirect=%2Ftools%2Fthread-converter%3Fthread%3Disacord-polyester%3A1902%26to%3Da%2Cb'],
    ['/auth/confirm', '/login?redirect=%2Fauth%2Fconfirm'],
    ['/no/such/page', '/login?redirect=%2Fno%2Fsuch%2Fpage'],
    ['/loginx', '/login?redirect=%2Floginx'],
  ])('sends a visitor who is not logged in from %s to %s', (path, target) => {
    expect(loginRedirect(at(path), false)).toBe(target);
  });

  it('keeps the full original path, query included, for after the login', () => {
    const target = loginRedirect(at('/profile?tab=security&x=1'), false) ?? '';
    expect(new URL(target, 'https://bobbin.example').searchParams.get('redirect')).toBe('/profile?tab=security&x=1');
  });

  it('lets a logged-in person open any page', () => {
    expect(loginRedirect(at('/profile?tab=security'), true)).toBeNull();
    expect(loginRedirect(at('/no/such/page'), true)).toBeNull();
  });
});
