import type { Manifest } from '@portico/contract/manifest';
import { assertSri, NodeSectionError } from '@portico/node-sections';
import { headerProblems, type HeaderProblem, type PageLoad } from './browser-rules';
import { fetchChecked, type FetchRules } from './fetch-checked';

/** Our largest chunk is tens of kilobytes; a file of megabytes is not a section's. */
const FILE_MAX_BYTES = 5 * 1024 * 1024;
/** Our builds list about a dozen files: a manifest of hundreds would make one publish a flood of requests. */
const MAX_FILES = 200;
/** All of a build's files together. */
const TOTAL_MAX_BYTES = 25 * 1024 * 1024;
/** Files fetched at once, as a browser would from one origin. */
const PARALLEL = 6;

/**
 * Every file the manifest names, each once, remoteEntry.js first: its
 * scripts (the entry, the exposed and the shared modules' chunks), its
 * stylesheets and every file of its integrity map. These are what a page
 * may load for the section.
 */
export function listedFiles(manifest: Manifest): string[] {
  const others = new Set([...manifest.scripts, ...Object.values(manifest.stylesheets).flat(), ...manifest.hashes.keys()]);
  others.delete(manifest.entry.url);
  return [manifest.entry.url, ...[...others].sort()];
}

export interface FilesReport {
  /** Each file that is missing, unhashed or altered, in words; empty when all match. */
  problems: string[];
  /** How many files matched, and their bytes. */
  matched: number;
  bytes: number;
  /** With `rules.pageOrigin`: what the files that arrived lack for the page's browser (browser-rules.ts). */
  headerProblems: HeaderProblem[];
  /** How many files arrived, their headers judged. */
  arrived: number;
  /** The size of each file that arrived, by its URL. */
  sizes: ReadonlyMap<string, number>;
  /** The manifest's stylesheets that arrived and matched their hashes, by URL: what the `styles` check reads. */
  stylesheets: ReadonlyMap<string, Uint8Array>;
}

/** How the page loads a listed file: the manifest's scripts and stylesheets as such, anything else by its name. */
function loadOf(url: string, scripts: ReadonlySet<string>, stylesheets: ReadonlySet<string>): PageLoad {
  if (scripts.has(url)) return 'script';
  if (stylesheets.has(url)) return 'stylesheet';
  const { pathname } = new URL(url);
  if (/\.m?js$/.test(pathname)) return 'script';
  return pathname.endsWith('.css') ? 'stylesheet' : 'other';
}

/**
 * Fetches every listed file under `rules` and compares it with the hash
 * the manifest gives it, as the page's integrity plugin makes the browser
 * do. A file with no hash is a problem: the browser would run it unchecked.
 * With `rules.pageOrigin`, each answer's headers are judged as the page's
 * browser would judge them.
 */
export async function checkFiles(manifest: Manifest, rules: FetchRules): Promise<FilesReport> {
  const files = listedFiles(manifest);
  if (files.length > MAX_FILES)
    return {
      problems: [`the manifest lists ${files.length} files, more than ${MAX_FILES}`],
      matched: 0,
      bytes: 0,
      headerProblems: [],
      arrived: 0,
      sizes: new Map(),
      stylesheets: new Map(),
    };
  const scripts = new Set(manifest.scripts);
  const stylesheets = new Set(Object.values(manifest.stylesheets).flat());
  // By the file's place in the list, so the words come in the same order however the fetches finish.
  const problems: (string | undefined)[] = [];
  const headerFound: HeaderProblem[][] = [];
  let arrived = 0;
  const sizes = new Map<string, number>();
  const stylesheetBytes = new Map<string, Uint8Array>();
  let matched = 0;
  let bytes = 0;
  let next = 0;
  const checkOne = async (index: number): Promise<string | undefined> => {
    const url = files[index]!;
    const integrity = manifest.hashes.get(url);
    if (integrity === undefined) return `${url} has no hash in the manifest: the browser would run it unchecked`;
    const fetched = await fetchChecked(url, FILE_MAX_BYTES, rules);
    if ('problem' in fetched) return fetched.problem;
    arrived += 1;
    sizes.set(url, fetched.bytes.byteLength);
    if (rules.pageOrigin) headerFound[index] = headerProblems(url, loadOf(url, scripts, stylesheets), fetched.headers, rules.pageOrigin);
    bytes += fetched.bytes.byteLength;
    try {
      assertSri(fetched.bytes, integrity, 'integrity', url);
    } catch (error) {
      if (error instanceof NodeSectionError) return error.message;
      throw error;
    }
    matched += 1;
    if (stylesheets.has(url)) stylesheetBytes.set(url, fetched.bytes);
    return undefined;
  };
  const worker = async () => {
    while (next < files.length && bytes <= TOTAL_MAX_BYTES) {
      const index = next++;
      problems[index] = await checkOne(index);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  const found = problems.filter((problem): problem is string => problem !== undefined);
  if (next < files.length) found.push(`the files are over ${TOTAL_MAX_BYTES} bytes together: ${files.length - next} were not fetched`);
  return { problems: found, matched, bytes, headerProblems: headerFound.flat(), arrived, sizes, stylesheets: stylesheetBytes };
}
