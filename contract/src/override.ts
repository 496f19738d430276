import { SECTION_IDS, type SectionId } from './sections';

/**
 * The per-visit override rule, the one both sides apply: the browser's
 * loader (which section loads from where), the shell worker (the notice),
 * and the front server (what it renders and preloads, and its CSP).
 */

const PARAM_PREFIX = 'remote.';

/** The address's parameter that overrides `section`'s remote: `remote.contact`. */
export function overrideParam(section: SectionId): string {
  return `${PARAM_PREFIX}${section}`;
}

export interface RemoteOverride {
  section: SectionId;
  url: string;
}

export interface RefusedOverride {
  /** The query parameter as written, e.g. `remote.contact`. */
  param: string;
  url: string;
  reason: string;
}

export interface ResolvedRemotes {
  /** The manifest URL each section loads from on this page load. */
  remotes: Partial<Record<SectionId, string>>;
  /** Sections whose URL came from the address instead of config.json. */
  overrides: RemoteOverride[];
  refused: RefusedOverride[];
}

/** Why `value` may not replace a section's remote, or `undefined` when it may. */
export function overrideRefusal(value: string, allowedOrigins: readonly string[]): string | undefined {
  let url: URL;
  try {
    // No base URL: a relative or malformed value is refused, never resolved against the page.
    url = new URL(value);
  } catch {
    return 'it is not an absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `only http and https URLs may be used, not ${url.protocol}`;
  }
  if (url.username || url.password) return 'it carries a user name or password';
  if (!allowedOrigins.includes(url.origin)) {
    return `its origin ${url.origin} is not listed in config.json's allowedRemoteOrigins`;
  }
  return undefined;
}

/** What the console says of a refused override, in the same words wherever the page finds it. */
export function refusedOverrideWarning({ param, url, reason }: RefusedOverride): string {
  return `Portico: refused the override ${param}=${url} because ${reason}; the configured URL is used.`;
}

/**
 * The per-visit override: `?remote.<section>=<manifest URL>` replaces that
 * section's configured remote for this page load only, and only from an
 * origin config.json allows. Anything else is refused with a reason, and the
 * configured URL stays. Pure: the caller passes `location.search`.
 */
export function resolveRemotes(configured: Partial<Record<SectionId, string>>, allowedOrigins: readonly string[], search: string): ResolvedRemotes {
  const remotes = { ...configured };
  const overrides: RemoteOverride[] = [];
  const refused: RefusedOverride[] = [];
  const params = new URLSearchParams(search);

  for (const param of new Set(params.keys())) {
    if (!param.startsWith(PARAM_PREFIX)) continue;
    const values = params.getAll(param);
    const url = values[0] ?? '';
    const id = param.slice(PARAM_PREFIX.length);
    let reason: string | undefined;
    // Only a section the page has can be overridden: a built-in one, or one config.json names a remote for (an added one).
    const sections = [...new Set([...SECTION_IDS, ...Object.keys(configured)])];
    if (!sections.includes(id)) reason = `there is no section "${id}" (use ${sections.map(overrideParam).join(', ')})`;
    else if (values.length > 1) reason = 'it is given more than once';
    else reason = overrideRefusal(url, allowedOrigins);

    if (reason !== undefined) {
      refused.push({ param, url, reason: reason ?? 'refused' });
      continue;
    }
    remotes[id] = new URL(url).href;
    overrides.push({ section: id, url: remotes[id] });
  }
  return { remotes, overrides, refused };
}
