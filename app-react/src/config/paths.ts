// Every route string of the app lives here, so links and the router cannot disagree.

export const paths = {
  home: '/',
  login: '/login',
  register: '/register',
  forgotPassword: '/forgot-password',
  authCallback: '/auth/callback',
  authConfirm: '/auth/confirm',
  authReset: '/auth/reset',
  reset: '/reset',
  threadConverter: '/tools/thread-converter',
} as const;

/** The document title of a page: the product name, then the page's own title. */
export function pageTitle(title: string): string {
  return `Bobbin - ${title}`;
}
