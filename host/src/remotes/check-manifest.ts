import { satisfy } from '@module-federation/enhanced/runtime';

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
}

interface ManifestExpose {
  name?: unknown;
  path?: unknown;
}

interface ManifestShared {
  name?: unknown;
  requiredVersion?: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function exposeKey(expose: ManifestExpose): string | undefined {
  if (typeof expose.path === 'string' && expose.path) return expose.path;
  return typeof expose.name === 'string' && expose.name ? `./${expose.name}` : undefined;
}

/**
 * Why the page must not load the remote this manifest describes, or
 * `undefined` when it may. Pure: the manifest is what the remote's
 * mf-manifest.json held.
 */
export function checkManifest(manifest: unknown, { expose, pageShares }: ManifestExpectations): string | undefined {
  if (!isRecord(manifest)) return 'is not a Module Federation manifest (not a JSON object)';
  const missing = [
    !isRecord(manifest.metaData) && 'metaData',
    !Array.isArray(manifest.exposes) && 'exposes',
    !Array.isArray(manifest.shared) && 'shared',
  ].filter(Boolean);
  if (missing.length > 0) return `is not a Module Federation manifest (no ${missing.join(', ')})`;

  const exposes = (manifest.exposes as unknown[]).filter(isRecord).map(exposeKey).filter(Boolean);
  if (!exposes.includes(expose)) {
    return `does not expose ${expose} (it exposes ${exposes.length > 0 ? exposes.join(', ') : 'nothing'})`;
  }

  const conflicts = (manifest.shared as unknown[]).filter(isRecord).flatMap((shared: ManifestShared) => {
    const { name, requiredVersion } = shared;
    if (typeof name !== 'string' || typeof requiredVersion !== 'string' || requiredVersion === '') return [];
    const pageVersion = pageShares[name];
    if (pageVersion === undefined || satisfy(pageVersion, requiredVersion)) return [];
    return [`${name} ${requiredVersion} but the page shares ${pageVersion}`];
  });
  if (conflicts.length > 0) return `needs ${conflicts.join('; ')}`;
  return undefined;
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
