// Route rules (docs/behaviour.md, "Navigation guards", guard 4): addresses that lead elsewhere,
// kept here, written by the build into its manifest (`builds/meta/{buildId}.json`), and applied
// by the app from the manifest of the newest build it knows, so a deployment can move a page
// and tabs opened before it follow. A target on another site is a full page load.
//
// Exact paths (a trailing `/` makes no difference); the query is kept.

export interface RouteRule {
  /** A path on this site, or an absolute `https://` address elsewhere. */
  redirect: string;
}

export const routeRules: Readonly<Record<string, RouteRule>> = {
  // The header calls the calculators' place "Tools", and the converter lives under /tools.
  '/tools': { redirect: '/calculators' },
  // Short addresses a person may type or bookmark.
  '/threads': { redirect: '/inventory/threads' },
  '/machines': { redirect: '/inventory/machines' },
  '/pricing': { redirect: '/calculators/pricing' },
  '/converter': { redirect: '/tools/thread-converter' },
};
