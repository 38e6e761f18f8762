// How a navigation guard refuses an address (./guards.ts), which ./navigation.tsx shows as the
// error page's 404 (./routes/error-page.tsx). A module of its own, so that none of the three
// imports another for it.

/** The error page's 404, with the message it shows. */
export class PageNotFound extends Error {}
