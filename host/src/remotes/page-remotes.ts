import type { SiteConfig } from '@portico/shared-config';
import { resolveRemotes, type ResolvedRemotes } from './resolve-remotes';

/**
 * Resolves this page load's remotes from config.json and the address, and
 * warns about every refused override. Called once, at start-up.
 */
export function resolvePageRemotes(config: SiteConfig, search: string): ResolvedRemotes {
  const resolved = resolveRemotes(config.remotes, config.allowedRemoteOrigins, search);
  for (const { param, url, reason } of resolved.refused) {
    console.warn(`Portico: refused the override ${param}=${url} because ${reason}; the configured URL is used.`);
  }
  return resolved;
}
