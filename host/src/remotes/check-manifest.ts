import { satisfy } from '@module-federation/enhanced/runtime';

/**
 * The one check of a remote's mf-manifest.json, used by the page before it
 * loads a section and by `npm run check-remotes` before a deploy (through
 * this package's `./manifest-check` export). Pure, and Node-safe.
 */

/** Ours are a few KB; a manifest of megabytes is broken or hostile, and a phone must not download it. */
export const MANIFEST_MAX_BYTES = 1024 * 1024;

export interface ManifestExpectations {
  /** The module the host asks for, e.g. `./section`. */
  expose: string;
  /**
   * What the page shares as singletons, name to version. With singletons and
   * `loaded-first` the page's copy is what the remote gets, whatever it asked
   * for; Module Federation only warns, and a remote built for another React
   * then crashes with "Invalid hook call".
   */
  pageShares: Readonly<Record<string, string>>;
  /** Modules the remote must share as singletons, or it would run its own copy beside the page's. */
  singletons?: readonly string[];
}

/** What is wrong with a manifest, part by part; empty when the page may load it. */
export interface ManifestReport {
  /** Why it is no federation manifest at all; then nothing else is checked. */
  notManifest?: string;
  /** The modules it exposes (`./section`, …). */
  exposes: string[];
  exposeProblem?: string;
  sharedProblems: string[];
}

interface ManifestExpose {
  name?: unknown;
  path?: unknown;
}

interface ManifestShared {
  name?: unknown;
  requiredVersion?: unknown;
  singleton?: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function exposeKey(expose: ManifestExpose): string | undefined {
  if (typeof expose.path === 'string' && expose.path) return expose.path;
  return typeof expose.name === 'string' && expose.name ? `./${expose.name}` : undefined;
}

/** The manifest's bytes as JSON, or why they are not. */
export function parseManifest(bytes: Uint8Array): { manifest: unknown } | { problem: string } {
  if (bytes.byteLength > MANIFEST_MAX_BYTES) return { problem: `is over ${MANIFEST_MAX_BYTES / 1024 / 1024} MB, too large to be a manifest` };
  try {
    return { manifest: JSON.parse(new TextDecoder().decode(bytes)) as unknown };
  } catch {
    return { problem: 'is not JSON' };
  }
}

/**
 * A response's body, read no further than MANIFEST_MAX_BYTES (the declared
 * Content-Length first, then the bytes as they come, since a server may
 * declare none or lie). Over it, the answer is `tooLarge` and the download is
 * cancelled.
 */
export async function readManifestBody(response: Response): Promise<{ bytes: Uint8Array<ArrayBuffer> } | { tooLarge: true }> {
  const declared = Number(response.headers.get('Content-Length'));
  if (declared > MANIFEST_MAX_BYTES) {
    await response.body?.cancel().catch(() => undefined);
    return { tooLarge: true };
  }
  if (!response.body) return { bytes: new Uint8Array(await response.arrayBuffer()) };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MANIFEST_MAX_BYTES) {
      await reader.cancel().catch(() => undefined);
      return { tooLarge: true };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { bytes };
}

/** Every problem of a manifest, part by part (see ManifestReport). */
export function inspectManifest(manifest: unknown, { expose, pageShares, singletons = [] }: ManifestExpectations): ManifestReport {
  const report: ManifestReport = { exposes: [], sharedProblems: [] };
  if (!isRecord(manifest)) return { ...report, notManifest: 'is not a Module Federation manifest (not a JSON object)' };
  const missing = [
    !isRecord(manifest.metaData) && 'metaData',
    !Array.isArray(manifest.exposes) && 'exposes',
    !Array.isArray(manifest.shared) && 'shared',
  ].filter(Boolean);
  if (missing.length > 0) return { ...report, notManifest: `is not a Module Federation manifest (no ${missing.join(', ')})` };

  report.exposes = (manifest.exposes as unknown[]).filter(isRecord).map(exposeKey).filter((key) => key !== undefined);
  if (!report.exposes.includes(expose)) {
    report.exposeProblem = `does not expose ${expose} (it exposes ${report.exposes.length > 0 ? report.exposes.join(', ') : 'nothing'})`;
  }

  const shared = (manifest.shared as unknown[]).filter(isRecord) as ManifestShared[];
  for (const name of singletons) {
    const entry = shared.find((candidate) => candidate.name === name);
    if (!entry) report.sharedProblems.push(`does not share ${name}: it would run its own copy beside the host's`);
    else if (entry.singleton !== true) report.sharedProblems.push(`shares ${name} but not as a singleton`);
  }
  for (const { name, requiredVersion } of shared) {
    if (typeof name !== 'string' || typeof requiredVersion !== 'string' || requiredVersion === '') continue;
    const pageVersion = pageShares[name];
    if (pageVersion !== undefined && !satisfy(pageVersion, requiredVersion)) {
      report.sharedProblems.push(`needs ${name} ${requiredVersion} but the page shares ${pageVersion}`);
    }
  }
  return report;
}

/**
 * Why the page must not load the remote this manifest describes, or
 * `undefined` when it may.
 */
export function checkManifest(manifest: unknown, expectations: ManifestExpectations): string | undefined {
  const { notManifest, exposeProblem, sharedProblems } = inspectManifest(manifest, expectations);
  if (notManifest ?? exposeProblem) return notManifest ?? exposeProblem;
  return sharedProblems.length > 0 ? sharedProblems.join('; ') : undefined;
}

export interface ManifestFiles {
  /** The remote's remoteEntry.js. */
  entry: string;
  /** Every script the manifest names: the entry, the exposed modules' chunks, the shared modules' chunks. */
  scripts: string[];
}

function stringAt(record: unknown, ...path: string[]): string | undefined {
  let node = record;
  for (const key of path) node = isRecord(node) ? node[key] : undefined;
  return typeof node === 'string' ? node : undefined;
}

function assetScripts(items: unknown): string[] {
  if (!Array.isArray(items)) return [];
  return items.filter(isRecord).flatMap((item) => {
    const js = isRecord(item.assets) && isRecord(item.assets.js) ? item.assets.js : {};
    return [js.sync, js.async].flatMap((list) => (Array.isArray(list) ? list.filter((file) => typeof file === 'string') : []));
  });
}

/**
 * The URLs of the scripts a checked manifest names. Its files live under its
 * `publicPath`, or, with `auto`, beside the manifest.
 */
export function filesOfManifest(manifest: Record<string, unknown>, manifestUrl: string): ManifestFiles {
  const publicPath = stringAt(manifest, 'metaData', 'publicPath');
  const base = new URL(publicPath && publicPath !== 'auto' ? publicPath : '.', manifestUrl);
  const entryPath = stringAt(manifest, 'metaData', 'remoteEntry', 'path') ?? '';
  const entryName = stringAt(manifest, 'metaData', 'remoteEntry', 'name') ?? 'remoteEntry.js';
  const entry = new URL(`${entryPath ? `${entryPath.replace(/\/?$/, '/')}` : ''}${entryName}`, base).href;
  const chunks = [...assetScripts(manifest.exposes), ...assetScripts(manifest.shared)].map((file) => new URL(file, base).href);
  return { entry, scripts: [entry, ...chunks] };
}

/**
 * The stylesheets of one exposed module (`./section`) as absolute URLs: the
 * server-rendered page links them from its `<head>`, so a section rendered
 * there is styled at the first paint rather than shifted when its code
 * brings its CSS. Module Federation and webpack reuse a `<link>` already in
 * the page for the same file, so the browser fetches each once.
 */
export function exposeStylesheets(manifest: unknown, manifestUrl: string, expose: string): string[] {
  if (!isRecord(manifest) || !Array.isArray(manifest.exposes)) return [];
  const publicPath = stringAt(manifest, 'metaData', 'publicPath');
  const base = new URL(publicPath && publicPath !== 'auto' ? publicPath : '.', manifestUrl);
  const item = manifest.exposes.filter(isRecord).find((candidate) => exposeKey(candidate) === expose);
  const css = item && isRecord(item.assets) && isRecord(item.assets.css) ? item.assets.css.sync : undefined;
  return Array.isArray(css) ? css.filter((file): file is string => typeof file === 'string').map((file) => new URL(file, base).href) : [];
}
