import { parseConfig, type ParsedConfig } from '@portico/shared-config/config';
import type { ConfigAnswer } from '@portico/config-server/config-answer';
import { createHash } from 'node:crypto';

/** config.json as the site serves it, read once and parsed once (`config`, `problems` and `deprecated` are parseConfig's). */
export interface Site extends ParsedConfig {
  /** The text `/config.json` answers, for the hydration data and cache keys. */
  body: string;
  /** SHA-256 of `body`. */
  hash: string;
}

/**
 * Everything one request needs of config.json: `/config.json`'s answer and,
 * when it is served, the site read from it. The file is read once (in
 * ConfigFile) and parsed once (JSON.parse there, parseConfig here) per
 * version of the file and releases served (HostSite keeps them), then handed to the CSP and preloads, the page render, the theme
 * stylesheet and `/config.json` alike: nothing re-parses a string it was given.
 */
export interface SiteContext {
  answer: ConfigAnswer;
  site: Site | undefined;
  /** `/config.json`'s ETag when it is served (made from `body`). */
  etag?: string;
}

export function siteContext(answer: ConfigAnswer): SiteContext {
  if (answer.status !== 200 || answer.value === undefined) return { answer, site: undefined };
  const { config, problems, deprecated } = parseConfig(answer.value);
  const hash = createHash('sha256').update(answer.body).digest('base64');
  return {
    answer,
    site: { body: answer.body, hash, config, problems, deprecated },
    etag: `"${hash.slice(0, 27)}"`,
  };
}
