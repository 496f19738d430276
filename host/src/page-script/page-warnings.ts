import { refusedOverrideWarning, resolveRemotes } from '@portico/contract/override';
import type { PageData } from '@portico/contract/page-data';
import { reportConfigToConsole } from '@portico/shared-config/config-warnings';

/**
 * What the console says of this page, as the client-rendered page does:
 * what config.json has wrong, as the server read it (what a valid one lacks
 * is the operator's: the server's log), and why an override in the address
 * was refused, so a section team trying its build with ?remote.<section>=
 * learns why the page shows the configured one, by the same rule the server
 * and the host's script apply, on the address and the origins the server
 * read. Rarely anything to say: loaded when the page is idle after its
 * first paint, so its code is not in every page's first window.
 */
export function reportPageWarnings(data: PageData | undefined, search: string): void {
  reportConfigToConsole(data?.problems ?? []);
  for (const refused of data ? resolveRemotes({}, data.allowedRemoteOrigins, search).refused : []) console.warn(refusedOverrideWarning(refused));
}
