/**
 * What a browser on the site's page needs from the headers of each file it
 * loads from a section's host, found by loading a built section through the
 * host in Chromium (docs/decisions.md, "A publish fetches every file as the
 * page's browser would"):
 *
 * - every file is requested in CORS mode with the page's `Origin` (the
 *   manifest by `fetch`, scripts and stylesheets with
 *   `crossorigin="anonymous"` and `integrity`): without an
 *   `Access-Control-Allow-Origin` that admits the page, the browser refuses
 *   the file, and the section fails (a script, the manifest) or shows
 *   unstyled (a stylesheet);
 * - a script that is not JavaScript is refused once the host sends
 *   `X-Content-Type-Options: nosniff`, which deploy.md asks of it;
 * - a stylesheet that is not `text/css` is ignored;
 * - the manifest is JSON: the page reads its bytes whatever their type, so
 *   this one is ours, not the browser's (a host answering `text/html` is
 *   answering something else).
 */

/** How the page loads a file, which decides what its answer must carry. */
export type PageLoad = 'manifest' | 'script' | 'stylesheet' | 'other';

/** The JavaScript MIME type essences of the WHATWG MIME Sniffing standard: what a browser runs as a script under `nosniff`. */
const JAVASCRIPT_TYPES = new Set([
  'application/ecmascript',
  'application/javascript',
  'application/x-ecmascript',
  'application/x-javascript',
  'text/ecmascript',
  'text/javascript',
  'text/javascript1.0',
  'text/javascript1.1',
  'text/javascript1.2',
  'text/javascript1.3',
  'text/javascript1.4',
  'text/javascript1.5',
  'text/jscript',
  'text/livescript',
  'text/x-ecmascript',
  'text/x-javascript',
]);

/** A JSON MIME type, as the WHATWG standard defines one. */
const isJson = (essence: string) => essence === 'application/json' || essence === 'text/json' || /^[^/]+\/[^/]+\+json$/.test(essence);

interface TypeRule {
  accepts: (essence: string) => boolean;
  send: string;
  why: string;
}

const TYPE_RULES: Record<Exclude<PageLoad, 'other'>, TypeRule> = {
  script: {
    accepts: (essence) => JAVASCRIPT_TYPES.has(essence),
    send: '`Content-Type: text/javascript`',
    why: 'a browser runs no script of another type once the host sends X-Content-Type-Options: nosniff',
  },
  stylesheet: { accepts: (essence) => essence === 'text/css', send: '`Content-Type: text/css`', why: 'a browser applies no stylesheet of another type' },
  manifest: { accepts: isJson, send: '`Content-Type: application/json`', why: 'a federation manifest is JSON' },
};

/**
 * One thing wrong with the headers of a file, in parts, so that the same
 * fault on many files reads once: what the host sent, why a page cannot
 * use it, and the header the host must send instead.
 */
export interface HeaderProblem {
  url: string;
  /** What the file is sent with, after "is": `sent without Access-Control-Allow-Origin`, `sent as text/plain`. */
  sent: string;
  why: string;
  /** The header to send, as the message writes it: `` `Content-Type: text/css` ``. */
  send: string;
}

/** The type and subtype of a Content-Type, lower case, or '' when there is none. */
function essenceOf(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * What is wrong with `headers` for a file at `url` that a page on
 * `pageOrigin` loads as `load`; empty when a browser would take it.
 */
export function headerProblems(url: string, load: PageLoad, headers: Headers, pageOrigin: string): HeaderProblem[] {
  const problems: HeaderProblem[] = [];
  // The browser asks for CORS only across origins: a file on the page's own origin needs none.
  if (new URL(url).origin !== pageOrigin) {
    const allowed = headers.get('access-control-allow-origin')?.trim();
    if (allowed !== '*' && allowed !== pageOrigin) {
      problems.push({
        url,
        sent:
          allowed === undefined
            ? 'sent without Access-Control-Allow-Origin'
            : `sent with Access-Control-Allow-Origin: ${allowed}, which does not admit ${pageOrigin}`,
        why: `the page on ${pageOrigin} loads each file with CORS, and a browser refuses a file that does not admit the page`,
        send: `\`Access-Control-Allow-Origin: ${pageOrigin}\` (or \`*\`)`,
      });
    }
  }
  if (load !== 'other') {
    const rule = TYPE_RULES[load];
    const essence = essenceOf(headers.get('content-type'));
    if (!rule.accepts(essence)) problems.push({ url, sent: essence ? `sent as ${essence}` : 'sent without a Content-Type', why: rule.why, send: rule.send });
  }
  return problems;
}

/** How a file is named in a problem: its path below the manifest's folder when it is there, else its URL. */
function nameOf(url: string, manifestUrl: string): string {
  const folder = new URL('./', manifestUrl).href;
  return url.startsWith(folder) ? url.slice(folder.length) : url;
}

/** `a`, `a and b`, `a, b, c and 3 other files`. */
function listed(names: readonly string[]): string {
  const SHOWN = 3;
  if (names.length === 1) return names[0]!;
  if (names.length <= SHOWN) return `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
  return `${names.slice(0, SHOWN).join(', ')} and ${names.length - SHOWN} other files`;
}

/**
 * The problems in words, one sentence per kind of fault however many
 * files it is on, each saying what the host must send: "mf-manifest.json,
 * remoteEntry.js, … are sent without Access-Control-Allow-Origin: …; send
 * `Access-Control-Allow-Origin: https://portico.example` (or `*`) with each".
 */
export function describeHeaderProblems(problems: readonly HeaderProblem[], manifestUrl: string): string[] {
  const groups = new Map<string, { first: HeaderProblem; names: string[] }>();
  for (const problem of problems) {
    const key = `${problem.sent}\n${problem.send}`;
    const group = groups.get(key) ?? { first: problem, names: [] };
    group.names.push(nameOf(problem.url, manifestUrl));
    groups.set(key, group);
  }
  return [...groups.values()].map(({ first, names }) => {
    const one = names.length === 1;
    return `${listed(names)} ${one ? 'is' : 'are'} ${first.sent}: ${first.why}; send ${first.send} with ${one ? 'it' : 'each'}`;
  });
}
