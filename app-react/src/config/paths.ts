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
  profile: '/profile',
  /** The pending-invites guard leaves every path under this alone. */
  profileInvites: '/profile/invites',
  /** The e-mailed invite link: `{site}/profile/invites/accept?token=...`. */
  acceptInvite: '/profile/invites/accept',
  dashboard: '/dashboard',
  team: '/team',
  threadConverter: '/tools/thread-converter',
  /** The hub of the inventories and tools, titled 'Calculators', spelled so. */
  inventory: '/inventory',
  inventoryThreads: '/inventory/threads',
  inventoryThread: '/inventory/threads/:threadId',
  inventoryShoppingList: '/inventory/shopping-list',
  /** What jobs took from stock and orders brought in, each undoable. */
  inventoryHistory: '/inventory/history',
  inventoryMachines: '/inventory/machines',
  inventoryMachine: '/inventory/machines/:machineId',
  calculators: '/calculators',
  pricingCalculator: '/calculators/pricing',
  /** The team's design library. */
  designs: '/designs',
  design: '/designs/:designId',
  /** The team's quotes, and one quote. */
  quotes: '/quotes',
  quote: '/quotes/:quoteId',
  /** The team's jobs, one job, and its run sheet. */
  jobs: '/jobs',
  job: '/jobs/:jobId',
  jobSheet: '/jobs/:jobId/sheet',
  testInvites: '/test/invites',
  testVector: '/test/vector',
  contact: '/contact',
  /** A quote as its customer reads it, by the link the shop sent: no account, no app around it. */
  quoteLink: '/q/:token',
} as const;

/**
 * Every page's route, as the router has them (a unit test keeps the two equal). The build writes
 * them into its manifest, and the server answers these paths (and the route rules' old ones) with
 * status 200 and any other page path with 404, the app's not-found page still shown
 * (docs/behaviour.md, "Error pages").
 */
export const pageRoutes: readonly string[] = [
  paths.home,
  paths.login,
  paths.register,
  paths.forgotPassword,
  paths.authCallback,
  paths.authConfirm,
  paths.authReset,
  paths.reset,
  paths.dashboard,
  paths.profile,
  paths.acceptInvite,
  paths.team,
  paths.testInvites,
  paths.testVector,
  paths.contact,
  paths.threadConverter,
  paths.inventory,
  paths.inventoryThreads,
  paths.inventoryThread,
  paths.inventoryShoppingList,
  paths.inventoryHistory,
  paths.inventoryMachines,
  paths.inventoryMachine,
  paths.calculators,
  paths.pricingCalculator,
  paths.designs,
  paths.design,
  paths.quotes,
  paths.quote,
  paths.jobs,
  paths.job,
  paths.jobSheet,
  paths.quoteLink,
];

/**
 * The pages a visitor who is not logged in may open (docs/behaviour.md, "Navigation guards"); every
 * other path sends them to the login page. /auth/confirm and /auth/reset are not among them: the
 * e-mailed links reach them signed in, through /auth/callback.
 */
export const publicPaths: ReadonlySet<string> = new Set([
  paths.home,
  paths.login,
  paths.register,
  paths.reset,
  paths.authCallback,
  paths.forgotPassword,
]);

/** The profile page's tabs, as `?tab=` values, with their labels. */
export const profileTabs = {
  profile: 'Profile',
  security: 'Security',
  notifications: 'Notifications',
  invites: 'My Invites',
} as const;

export type ProfileTab = keyof typeof profileTabs;

/** A link to a tab of the profile page. */
export function profileTabPath(tab: ProfileTab): string {
  return `${paths.profile}?tab=${tab}`;
}

/** One thread of the team's inventory. */
export function inventoryThreadPath(threadId: string): string {
  return `${paths.inventoryThreads}/${encodeURIComponent(threadId)}`;
}

/** One machine of the team's inventory. */
export function inventoryMachinePath(machineId: string): string {
  return `${paths.inventoryMachines}/${encodeURIComponent(machineId)}`;
}

/** One design of the team's library. */
export function designPath(designId: string): string {
  return `${paths.designs}/${encodeURIComponent(designId)}`;
}

/** One job of the team. */
/** A quote's page in the shop. */
export function quotePagePath(quoteId: string): string {
  return `${paths.quotes}/${encodeURIComponent(quoteId)}`;
}

export function jobPath(jobId: string): string {
  return `${paths.jobs}/${encodeURIComponent(jobId)}`;
}

/** A job's run sheet, for the operator and to print. */
export function jobSheetPath(jobId: string): string {
  return `${jobPath(jobId)}/sheet`;
}

/** The jobs page with a design of the library chosen for a new job, and the job's name and
 * pieces where known (a saved quote's). */
export function newJobPath(designId: string, job: { name?: string; quantity?: number } = {}): string {
  const query = new URLSearchParams({ design: designId });
  if (job.name) query.set('name', job.name);
  if (job.quantity) query.set('quantity', String(job.quantity));
  return `${paths.jobs}?${query}`;
}

/** The pricing calculator with a design of the library (`?design=`) or a saved quote reopened
 * (`?quote=`). */
export function pricingPath(open: { design: string } | { quote: string }): string {
  const [name, id] = 'design' in open ? ['design', open.design] : ['quote', open.quote];
  return `${paths.pricingCalculator}?${name}=${encodeURIComponent(id)}`;
}

/** The document title of a page: the product name, then the page's own title. */
export function pageTitle(title: string): string {
  return `Bobbin - ${title}`;
}
