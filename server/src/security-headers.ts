/**
 * The security headers of every Portico response, in one place: the Node
 * server sends them and the nginx configuration generator writes them, so
 * both deployments answer alike.
 */
import { sectionManifestPath } from '@portico/contract/manifest-relay';
import { resolveRemotes } from '@portico/contract/override';
import { sectionGrant, sectionsFromConfig, servedSections, type ParsedConfig } from '@portico/shared-config/config';
import { COMMON_HEADERS } from '@portico/platform/http';

// The headers every answer of both servers carries live with the HTTP basics;
// the page's own policy is made here.
export { COMMON_HEADERS, DATA_CSP, dataHeaders, STRICT_TRANSPORT_SECURITY } from '@portico/platform/http';

/** `scheme://host[:port]` with nothing that could end a CSP source early. */
const SAFE_ORIGIN = /^https?:\/\/(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/;

/** The origin of an http(s) URL or origin, or undefined for anything else. */
export function originOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const { protocol, origin } = new URL(value);
    if (protocol !== 'http:' && protocol !== 'https:') return undefined;
    return SAFE_ORIGIN.test(origin) ? origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Both headers grow with config.json (each allowed origin stands in four
 * directives). Browsers take far more, but proxies and CDNs in front of the
 * server commonly cap a response's header block at 8 to 16 KiB and then fail
 * the whole page; past this, what does not fit is left out and logged.
 */
export const HEADER_LIMIT_BYTES = 8 * 1024;

/** Fields of config.json whose problems change what the page may load. */
const LOADING_FIELDS = /^(\(document\)|remotes|allowedRemoteOrigins|remoteIntegrity)(\.|$)/;

interface PageSources {
  /** Origins the page may load styles and images from: the configured remotes', then those allowed for overrides. */
  remoteOrigins: string[];
  /** Of those, the remotes' whose section is granted script in the browser: the only ones the page may load code from, with the overrides'. */
  scriptOrigins: string[];
  overrideOrigins: string[];
  /** The manifests the page will fetch at once. */
  manifests: string[];
  /** What config.json names but the page will not use, for the server's log. */
  leftOut: string[];
}

/**
 * What the host page will load, from config.json as the page's own reader
 * (`parseConfig`) read it, once, for this request: only the served sections'
 * URLs and the allowed origins that pass its checks. Anything else is named
 * in `leftOut`, so a bad config can only narrow the policy, never widen or
 * break it.
 */
function pageSources({ config, problems }: ParsedConfig, search = ''): PageSources {
  const leftOut = problems.filter((problem) => LOADING_FIELDS.test(problem.field)).map((problem) => `${problem.field} (${problem.message})`);
  const clean = (field: string, value: string): string | undefined => {
    const origin = originOf(value);
    if (!origin) leftOut.push(`${field} (${JSON.stringify(value)} is not a plain http(s) origin)`);
    return origin;
  };
  // Only the sections the page serves: a hidden or unlisted section's origin leaves the policy.
  const listed = new Set(sectionsFromConfig(config).map(({ id }) => id));
  for (const id of Object.keys(config.remotes).filter((key) => !listed.has(key))) {
    leftOut.push(`remotes.${id} (no section is listed as "${id}": an added section needs its labels in sections.${id}, or in the releases store)`);
  }
  const remotes = servedSections(config).flatMap(({ id }) => {
    const url = config.remotes[id];
    const origin = url === undefined ? undefined : clean(`remotes.${id}`, url);
    return url !== undefined && origin ? [{ id, url, origin }] : [];
  });
  const overrideOrigins = config.allowedRemoteOrigins.flatMap((value, index) => clean(`allowedRemoteOrigins.${index}`, value) ?? []);
  // A section this visit loads from elsewhere (`?remote.contact=`, by the one
  // rule the page applies) does not need its configured manifest.
  const overridden = new Set(resolveRemotes(config.remotes, config.allowedRemoteOrigins, search).overrides.map(({ section }) => section));
  // A section granted no script never has its code loaded, nor its manifest read, by the page.
  const scripted = remotes.filter(({ id }) => sectionGrant(config, id).interactive);
  return {
    remoteOrigins: [...new Set(remotes.map(({ origin }) => origin))],
    scriptOrigins: [...new Set(scripted.map(({ origin }) => origin))],
    overrideOrigins,
    manifests: scripted.filter(({ id }) => !overridden.has(id)).map(({ id, url }) => sectionManifestPath(id, new URL(url).href, search)),
    leftOut,
  };
}

/** The origins a host page may load styles and images from (code only from those of sections granted script), per the config.json it is given. */
export function remoteOrigins(config: ParsedConfig): string[] {
  const { remoteOrigins: origins, overrideOrigins } = pageSources(config);
  return [...new Set([...origins, ...overrideOrigins])];
}

/**
 * How `origin` is named in a CSP source list. A source cannot name an IPv6
 * literal (Chromium drops `http://[::1]:8083` as invalid, and the section
 * never loads), so such an origin is named by its scheme and port alone,
 * `http://*:8083`: that port on any host, on the pages whose config.json
 * names a remote at an IPv6 literal (a page reached by one: the default
 * config.json names the remotes on the visitor's host). Every other origin
 * is named as it is (docs/decisions/serving-and-security.md, "A page reached by an IPv6 literal").
 */
function cspSource(origin: string): string {
  const { protocol, hostname, port } = new URL(origin);
  if (!hostname.startsWith('[')) return origin;
  return `${protocol}//*:${port || (protocol === 'https:' ? '443' : '80')}`;
}

/**
 * The host page's Content-Security-Policy. Styles from the page's own
 * origin alone: every section's stylesheet is linked as the copy the page's
 * origin scoped to its slot (`/section-styles/`), so a section granted
 * script cannot link CSS its manifest does not name from its origin.
 * Images may come from the page's own origin and the remotes' origins;
 * scripts from the page's own and `scriptOrigins`
 * (the remotes of sections granted script, and the override origins) only;
 * fetches, beacons and form posts to the page's own origin alone, so no
 * section's script can send what it reads anywhere else (its manifest comes
 * through the page's origin: manifest-relay.ts). No eval, and nothing inline
 * but the server-rendered page's own page script, which the front server
 * allows by its hash (ssr/inline-page-script.ts): zod runs jitless, Module
 * Federation loads remoteEntry.js as a script file, React sets styles
 * through the CSSOM.
 */
export function contentSecurityPolicy(origins: readonly string[], scriptOrigins: readonly string[] = origins): string {
  const sources = ["'self'", ...new Set(origins.map(cspSource))].join(' ');
  const code = ["'self'", ...new Set(scriptOrigins.map(cspSource))].join(' ');
  return [
    "default-src 'self'",
    `script-src ${code}`,
    "connect-src 'self'",
    "style-src 'self'",
    `img-src ${sources}`,
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

/** Headers of an HTML page (index.html, the 404 page) that may load styles and images from `origins`, code from `scriptOrigins`. */
export function pageHeaders(origins: readonly string[], scriptOrigins: readonly string[] = origins): Record<string, string> {
  return {
    ...COMMON_HEADERS,
    'Content-Security-Policy': contentSecurityPolicy(origins, scriptOrigins),
    // For browsers that predate frame-ancestors.
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}

const preloadOf = (url: string) => `<${url}>; rel=preload; as=fetch; crossorigin=anonymous`;

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * Headers of the host's page for the config.json it will be given, at this
 * address. What config.json names but the page will not use, and what does
 * not fit under HEADER_LIMIT_BYTES, is left out and named through `log`.
 */
export function hostPageHeaders(config: ParsedConfig, search = '', log?: (line: string) => void): Record<string, string> {
  const sources = pageSources(config, search);
  const notes = sources.leftOut.map((what) => `left out of the page's CSP and preloads: ${what}`);

  // The configured remotes first: without them the page shows no section. Then
  // the override origins, in order, as long as the policy fits.
  const origins = [...sources.remoteOrigins];
  const scripts = [...sources.scriptOrigins];
  const overrides = [...new Set(sources.overrideOrigins.filter((origin) => !origins.includes(origin)))];
  const scriptOverrides = (count: number) => overrides.slice(0, count).filter((origin) => !scripts.includes(origin));
  const fits = (count: number) =>
    bytes(contentSecurityPolicy([...origins, ...overrides.slice(0, count)], [...scripts, ...scriptOverrides(count)])) <= HEADER_LIMIT_BYTES;
  // The most override origins that fit, found by bisection: thousands of them must not cost thousands of policies.
  let [fitting, over] = [0, overrides.length + 1];
  while (over - fitting > 1) {
    const middle = Math.floor((fitting + over) / 2);
    if (fits(middle)) fitting = middle;
    else over = middle;
  }
  if (fitting < overrides.length) {
    notes.push(
      `the Content-Security-Policy would be over ${HEADER_LIMIT_BYTES} bytes: left out ${overrides.length - fitting} of allowedRemoteOrigins (from ${overrides[fitting]}), so overrides from them are refused by the browser`,
    );
  }
  scripts.push(...scriptOverrides(fitting));
  origins.push(...overrides.slice(0, fitting));

  const links: string[] = [];
  for (const url of sources.manifests) {
    if (bytes([...links, preloadOf(url)].join(', ')) <= HEADER_LIMIT_BYTES) links.push(preloadOf(url));
    else notes.push(`the Link header would be over ${HEADER_LIMIT_BYTES} bytes: ${url.slice(0, 80)}… is not preloaded`);
  }
  for (const note of notes) log?.(`config.json: ${note}`);
  return { ...pageHeaders(origins, scripts), ...(links.length > 0 ? { Link: links.join(', ') } : {}) };
}

/**
 * Headers of a remote's files: any page may load them, with CORS, because the
 * host loads scripts with `integrity`, which the browser checks only on a CORS
 * response.
 */
export const CROSS_ORIGIN_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Cross-Origin-Resource-Policy': 'cross-origin',
};
