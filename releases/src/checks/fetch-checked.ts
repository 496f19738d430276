/**
 * The one way the checks fetch anything: only from an allowed origin, no
 * redirect followed, bounded in size and time. A publish is a request from
 * a token holder that makes the server fetch a URL, so without these rules
 * the control API would be a way to make the server ask anything anywhere.
 */

export interface FetchRules {
  /** Origins (`https://cdn.example`) a URL may be on; anything else is refused before a byte is sent. */
  allowedOrigins: ReadonlySet<string>;
  /** For the whole transfer of one file, headers and body. */
  timeoutMs: number;
  fetch: typeof fetch;
  /**
   * The origin of the page that loads the files (`https://portico.example`):
   * each request then carries it as `Origin`, as the page's browser sends
   * it, so a host that answers CORS per origin answers as it would answer
   * the page. Absent for what only the server fetches.
   */
  pageOrigin?: string;
}

/** The bytes and the answer's headers, or why there are none. */
export type Fetched = { bytes: Buffer; headers: Headers } | { problem: string };

/** `http://host:port` of an http(s) URL, or undefined for anything else. */
export function httpOrigin(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The origins of the given origins or URLs; what is not http(s) allows nothing. */
export function originSet(values: Iterable<string>): ReadonlySet<string> {
  const origins = new Set<string>();
  for (const value of values) {
    const origin = httpOrigin(value);
    if (origin) origins.add(origin);
  }
  return origins;
}

/** Why a URL may not be fetched under `rules`, or undefined when it may. */
export function originProblem(url: string, rules: Pick<FetchRules, 'allowedOrigins'>): string | undefined {
  const origin = httpOrigin(url);
  if (!origin) return `${url} is not an http(s) URL`;
  return rules.allowedOrigins.has(origin) ? undefined : `${url} is on ${origin}, which is not an allowed release origin`;
}

/** Where a `Location` header points, absolute where it can be made so. */
function resolved(location: string | null, base: string): string | undefined {
  if (location === null) return undefined;
  try {
    return new URL(location, base).href;
  } catch {
    return location;
  }
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

async function readCapped(response: Response, maxBytes: number): Promise<Buffer | undefined> {
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks, size);
    size += value.byteLength;
    // Counted as they come: a server may declare no length, or lie.
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
}

/**
 * `url`'s bytes, or why not in words: refused when its origin is not
 * allowed (nothing sent), on any redirect, over `maxBytes` (`tooLarge` says
 * so), on an HTTP error or after `rules.timeoutMs`.
 *
 * Every redirect is refused, to another origin or not: a release is checked
 * bytes at a fixed URL, and a URL that redirects is an alias whose target
 * can change after the check. The servers refuse redirects too (the
 * manifest watcher and the node-build loader), so a release that needed one
 * would not render on the server anyway.
 */
export async function fetchChecked(url: string, maxBytes: number, rules: FetchRules, tooLarge = `is larger than ${maxBytes} bytes`): Promise<Fetched> {
  const refused = originProblem(url, rules);
  if (refused) return { problem: refused };
  const signal = AbortSignal.timeout(rules.timeoutMs);
  try {
    // Called on its own, not as a method of `rules`: some fetch implementations refuse another `this`.
    const get = rules.fetch;
    const response = await get(url, { redirect: 'manual', signal, headers: { accept: '*/*', ...(rules.pageOrigin ? { origin: rules.pageOrigin } : {}) } });
    // A fetch with a browser's rules hides where a redirect leads ('opaqueredirect'); Node's shows it.
    if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
      await response.body?.cancel().catch(() => undefined);
      const target = resolved(response.headers.get('location'), url);
      const elsewhere = target !== undefined && httpOrigin(target) !== httpOrigin(url) ? ` on another origin (${httpOrigin(target) ?? target})` : '';
      return {
        problem: `${url} answered with a redirect (HTTP ${response.status || 'status hidden'}) to ${target ?? 'an address it does not show'}${elsewhere}, which is not followed: the host must answer this URL with 200 and the file itself`,
      };
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return { problem: `${url} answered HTTP ${response.status}` };
    }
    const bytes = await readCapped(response, maxBytes);
    return bytes === undefined ? { problem: `${url} ${tooLarge}` } : { bytes, headers: response.headers };
  } catch (error) {
    if (signal.aborted) return { problem: `${url} did not arrive within ${rules.timeoutMs} ms` };
    return { problem: `${url} cannot be reached (${causeOf(error)})` };
  }
}
