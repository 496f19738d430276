import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LRUCache } from 'lru-cache';

/** The page script's tag as the render worker writes it (host/src/workers/page-document.ts). */
const PAGE_SCRIPT_TAG = /<script defer src="(page-script\.[0-9a-f]{10}\.js)" data-src="([^"<>]+)"(?: data-islands="([^"<>]+)")?><\/script>/;

/** The page script's code as read from the host's dist/, and its CSP hash. */
export interface PageScriptCode {
  file: string;
  code: string;
  /** `'sha256-…'`, for the page's `script-src`. */
  source: string;
}

/**
 * Reads `file` (a page script the host built) from `distDir`, once per
 * change; undefined when it cannot be inlined: not there, or holding the
 * text `</script` (it would end the element early).
 */
export function pageScriptReader(distDir: string): (file: string) => Promise<PageScriptCode | undefined> {
  // A hashed name is one content: kept while it is the one the template names (a new name replaces it).
  const read = new LRUCache<string, Promise<PageScriptCode | undefined>>({ max: 1 });
  return (file) => {
    let code = read.get(file);
    if (!code) {
      code = readFile(path.join(distDir, path.basename(file)), 'utf8').then(
        (text) => (/<\/script/i.test(text) ? undefined : { file, code: text, source: `'sha256-${createHash('sha256').update(text).digest('base64')}'` }),
        () => undefined,
      );
      read.set(file, code);
    }
    return code;
  };
}

/** The page script the composed page names, if any. */
export function pageScriptIn(html: string): string | undefined {
  return PAGE_SCRIPT_TAG.exec(html)?.[1];
}

/**
 * The composed page with its page script inline, last in `<body>` (after
 * the page data it reads), instead of a file fetched beside the page: the
 * page's only script before any interaction is then in the HTML's own
 * bytes, and no request of its own stands before the page's first paint.
 * Its `data-src` names the host's entry it loads for an island: the
 * islands' one (no Module Federation runtime) when `islandScripts` (every
 * interactive section of the page has an island script) and the host built
 * one, else the federated one. The CSP allows it by its hash.
 */
export function withInlinePageScript(html: string, script: PageScriptCode, islandScripts: boolean): string {
  const tag = PAGE_SCRIPT_TAG.exec(html);
  if (!tag || tag[1] !== script.file) return html;
  const entry = (islandScripts && tag[3]) || tag[2]!;
  return html.replace(PAGE_SCRIPT_TAG, '').replace('</body>', () => `<script data-src="${entry}">${script.code}</script></body>`);
}

/** `headers` with the page script's hash added to the CSP's `script-src`. */
export function allowingPageScript(headers: Record<string, string>, script: PageScriptCode): Record<string, string> {
  const csp = headers['Content-Security-Policy'];
  if (!csp) return headers;
  // The policy is made once per version of config.json: so is each page script's allowance in it.
  let allowed = allowances.get(script);
  if (!allowed) allowances.set(script, (allowed = new LRUCache({ max: 64 })));
  let policy = allowed.get(csp);
  if (policy === undefined) {
    policy = csp.replace(/(^|;\s*)script-src /, (match) => `${match}${script.source} `);
    allowed.set(csp, policy);
  }
  return { ...headers, 'Content-Security-Policy': policy };
}

const allowances = new WeakMap<PageScriptCode, LRUCache<string, string>>();

/**
 * The page's headers: its policy, with its page script allowed and without
 * the preloads; made once per policy object (the same for every request
 * without a cookie to set) and page script.
 */
export class PageScriptHeaders {
  private readonly made = new WeakMap<Record<string, string>, Map<PageScriptCode | undefined, Record<string, string>>>();

  of(policy: Record<string, string>, script: PageScriptCode | undefined): Record<string, string> {
    let made = this.made.get(policy);
    if (!made) this.made.set(policy, (made = new Map()));
    let headers = made.get(script);
    if (!headers) {
      // The manifests are in the page: preloading them would fetch each twice.
      const { Link: _preloads, ...rest } = policy;
      headers = script ? allowingPageScript(rest, script) : rest;
      made.set(script, headers);
    }
    return headers;
  }
}
