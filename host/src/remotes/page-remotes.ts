import type { SiteConfig } from '@portico/shared-config';
import { refusedOverrideWarning, resolveRemotes, type ResolvedRemotes } from '@portico/contract/override';

/**
 * This page load's remotes from config.json and the address, with no side
 * effect: the render worker computes them with this very function, so the
 * server renders the override notice and the sections left to the browser
 * exactly as the hydrating browser will.
 */
export function pageRemotes(config: SiteConfig, search: string): ResolvedRemotes {
  return resolveRemotes(config.remotes, config.allowedRemoteOrigins, search);
}

/**
 * pageRemotes, warning in the console about every refused override. Called
 * once, at start-up, by the client-rendered page (the server does not log a
 * choice the visitor made; on a server-rendered page the page script warns,
 * from the page data, whether or not an island ever starts).
 */
export function resolvePageRemotes(config: SiteConfig, search: string): ResolvedRemotes {
  const resolved = pageRemotes(config, search);
  for (const refused of resolved.refused) console.warn(refusedOverrideWarning(refused));
  return resolved;
}
