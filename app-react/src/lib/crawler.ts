// Crawlers do not get the error page (docs/behaviour.md, "Error pages"): a crawler's page with an
// error in it is better indexed as it rendered than as "Internal Server Error". Which user agents
// are crawlers is isbot's list (https://github.com/omrilotan/isbot), kept up to date there. Small,
// and in the main bundle so that it is there when a chunk is not (a usual fatal error).
import { isbot } from 'isbot';

/** Whether this browser is a crawler (a search engine, a link preview, a monitor). */
export function isCrawler(userAgent: string = navigator.userAgent): boolean {
  return isbot(userAgent);
}
