import type { SiteConfig } from '@portico/shared-config';
import { resolveRemotes, type ResolvedRemotes } from '@portico/contract/override';

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
 * once, at start-up, in the browser (the server does not log a choice the
 * visitor made).
 */
export function resolvePageRemotes(config: SiteConfig, search: string): ResolvedRemotes {
  const resolved = pageRemotes(config, search);
  for (const { param, url, reason } of resolved.refused) {
    console.warn(`Portico: refused the override ${param}=${url} because ${reason}; the configured URL is used.`);
  }
  return resolved;
}
