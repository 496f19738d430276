// The page script's work that waits until the page is idle after its first
// paint: one chunk, fetched then (each chunk costs the page its integrity
// hash), out of the page's first window.
import type { PageData } from '@portico/contract/page-data';
import { unregisterServiceWorkers } from '@portico/toolkit/service-worker';
import { reportPageWarnings } from './page-warnings';

export { restoreDrafts } from './restore-drafts';
export { warmIslands } from './warm-islands';

/**
 * What the page script does once idle, besides fetching ahead: tells the
 * console what the page's address and config.json have wrong, and removes
 * a service worker an older version of the site left (removing one takes
 * effect only once the pages it controls are gone, so it can wait until now).
 */
export function whenPageIdle(doc: Document, data: PageData | undefined): void {
  reportPageWarnings(data, doc.defaultView?.location.search ?? '');
  void unregisterServiceWorkers();
}
