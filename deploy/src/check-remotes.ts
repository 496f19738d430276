import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { satisfy } from '@module-federation/enhanced/runtime';
import { DEFAULT_FETCH_LIMITS, fetchVerified, locateNodeEntry, NodeSectionError } from '@portico/render';
import { EXPOSED_SECTION, remoteNameOf, SECTION_IDS, type SectionId } from '@portico/shared-config/contract';
import { sharedDependencies } from '@portico/webpack';

/** Shared modules a section must take from the host, or it would run a second copy. */
const REQUIRED_SINGLETONS = ['react', 'react-dom', '@portico/shared-config'];

const REPO_ROOT = path.resolve(__dirname, '../..');

function packageOf(request: string): string {
  const parts = request.split('/');
  return request.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The version of `pkg` the host is built with: the one installed beside it. */
function installedVersion(pkg: string, from: string): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'node_modules', pkg, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * What the host shares and at which versions: the names from
 * webpack/src/shared-dependencies.ts, the versions installed for the host.
 */
export function hostSharedVersions(hostDir = path.join(REPO_ROOT, 'host')): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const name of Object.keys(sharedDependencies)) {
    const version = installedVersion(packageOf(name), hostDir);
    if (version) versions[name] = version;
  }
  return versions;
}

export interface RemoteCheck {
  section: SectionId;
  url: string;
  reachable: boolean;
  manifest: boolean;
  exposesSection: boolean;
  sharedOk: boolean;
  /** undefined when config.json pins nothing for this section. */
  pinOk?: boolean;
  /** The section's node build, for server rendering; undefined when the manifest was not read. */
  nodeBuildOk?: boolean;
  version: string;
  buildId: string;
  /** Each problem in words; none means the remote can be swapped in. */
  problems: string[];
}

export interface CheckOptions {
  /** The host's shared modules and versions (default: this repository's). */
  hostShared?: Record<string, string>;
  timeoutMs?: number;
}

interface ManifestShared {
  name?: unknown;
  version?: unknown;
  requiredVersion?: unknown;
  singleton?: unknown;
}

interface Manifest {
  name?: unknown;
  metaData?: { buildInfo?: { buildVersion?: unknown; buildId?: unknown }; remoteEntry?: { integrity?: unknown } };
  exposes?: { path?: unknown }[];
  shared?: ManifestShared[];
}

function isManifest(value: unknown): value is Manifest {
  const candidate = value as Manifest | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.metaData === 'object' &&
    candidate.metaData !== null &&
    Array.isArray(candidate.exposes) &&
    Array.isArray(candidate.shared)
  );
}

function sharedProblems(manifest: Manifest, hostShared: Record<string, string>): string[] {
  const problems: string[] = [];
  const shared = manifest.shared ?? [];
  for (const name of REQUIRED_SINGLETONS) {
    const entry = shared.find((candidate) => candidate.name === name);
    if (!entry) problems.push(`does not share ${name}: it would run its own copy beside the host's`);
    else if (entry.singleton !== true) problems.push(`shares ${name} but not as a singleton`);
  }
  for (const entry of shared) {
    if (typeof entry.name !== 'string' || !(entry.name in hostShared)) continue;
    const hostVersion = hostShared[entry.name]!;
    const range = typeof entry.requiredVersion === 'string' ? entry.requiredVersion : undefined;
    if (range && !satisfy(hostVersion, range)) {
      problems.push(`needs ${entry.name} ${range}, but the host provides ${hostVersion}`);
    }
  }
  return problems;
}

async function fetchBytes(url: string, timeoutMs: number): Promise<{ bytes: Buffer } | { problem: string }> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
    if (!response.ok) return { problem: `${url} answered HTTP ${response.status}` };
    return { bytes: Buffer.from(await response.arrayBuffer()) };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { problem: `${url} cannot be reached (${cause?.code ?? cause?.message ?? (error as Error).message})` };
  }
}

/**
 * The section's node build, as the server would load it to render the
 * section (@portico/render): named in the manifest with its hash, on the
 * manifest's origin, reachable, matching the hash. Each problem in words.
 */
export async function checkNodeBuild(manifestUrl: string, manifestText: string, timeoutMs: number): Promise<string[]> {
  try {
    const entry = locateNodeEntry(manifestUrl, manifestText);
    await fetchVerified(entry.url, entry.integrity, { ...DEFAULT_FETCH_LIMITS, timeoutMs });
    return [];
  } catch (error) {
    if (!(error instanceof NodeSectionError)) throw error;
    return [`the server cannot render it, the browser only: ${error.message}`];
  }
}

/** Fetches one section's manifest and checks it against the contract and the host. */
export async function checkRemote(
  section: SectionId,
  url: unknown,
  pin: string | undefined,
  options: CheckOptions = {},
): Promise<RemoteCheck> {
  const check: RemoteCheck = {
    section,
    url: typeof url === 'string' ? url : String(url),
    reachable: false,
    manifest: false,
    exposesSection: false,
    sharedOk: false,
    pinOk: pin === undefined ? undefined : false,
    version: '-',
    buildId: '-',
    problems: [],
  };
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) {
    check.problems.push(`config.json gives no http(s) URL in remotes.${section}`);
    return check;
  }

  const fetched = await fetchBytes(url, options.timeoutMs ?? 5000);
  if ('problem' in fetched) {
    check.problems.push(fetched.problem);
    return check;
  }
  check.reachable = true;

  if (pin !== undefined) {
    const [algorithm, digest] = [pin.slice(0, pin.indexOf('-')), pin.slice(pin.indexOf('-') + 1)];
    check.pinOk = ['sha256', 'sha384', 'sha512'].includes(algorithm) && createHash(algorithm).update(fetched.bytes).digest('base64') === digest;
    if (!check.pinOk) check.problems.push(`the manifest does not match remoteIntegrity.${section}: the host will refuse it`);
  }

  let manifest: unknown;
  try {
    manifest = JSON.parse(fetched.bytes.toString('utf8'));
  } catch {
    check.problems.push(`${url} is not JSON, so not a federation manifest`);
    return check;
  }
  if (!isManifest(manifest)) {
    check.problems.push(`${url} is JSON but not a federation manifest (it needs metaData, exposes and shared)`);
    return check;
  }
  if (manifest.name !== remoteNameOf(section)) {
    check.problems.push(`is the manifest of "${String(manifest.name)}", not of ${remoteNameOf(section)}`);
  } else {
    check.manifest = true;
  }

  const exposed = (manifest.exposes ?? []).map((expose) => String(expose.path));
  check.exposesSection = exposed.includes(EXPOSED_SECTION);
  if (!check.exposesSection) {
    check.problems.push(`does not expose ${EXPOSED_SECTION} (it exposes ${exposed.length > 0 ? exposed.join(', ') : 'nothing'})`);
  }

  const shared = sharedProblems(manifest, options.hostShared ?? hostSharedVersions());
  check.sharedOk = shared.length === 0;
  check.problems.push(...shared);

  const nodeProblems = await checkNodeBuild(url, fetched.bytes.toString('utf8'), options.timeoutMs ?? 5000);
  check.nodeBuildOk = nodeProblems.length === 0;
  check.problems.push(...nodeProblems);

  const info = manifest.metaData?.buildInfo;
  check.version = typeof info?.buildVersion === 'string' ? info.buildVersion : '-';
  check.buildId = typeof info?.buildId === 'string' ? info.buildId : '-';
  return check;
}

export interface Report {
  checks: RemoteCheck[];
  /** Worth knowing, but nothing breaks. */
  warnings: string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks every section config.json names. */
export async function checkRemotes(config: unknown, options: CheckOptions = {}): Promise<Report> {
  const document = isRecord(config) ? config : {};
  const remotes = isRecord(document.remotes) ? document.remotes : {};
  const pins = isRecord(document.remoteIntegrity) ? document.remoteIntegrity : {};
  const hostShared = options.hostShared ?? hostSharedVersions();
  const checks = await Promise.all(
    SECTION_IDS.map((section) =>
      checkRemote(section, remotes[section], typeof pins[section] === 'string' ? pins[section] : undefined, { ...options, hostShared }),
    ),
  );
  const warnings: string[] = [];
  if (!isRecord(document.legal)) {
    warnings.push('config.json has no "legal" object: About Us will show no legal and regulatory disclosures');
  }
  return { checks, warnings };
}

const mark = (ok: boolean | undefined) => (ok === undefined ? '-' : ok ? 'yes' : 'NO');

/** The report as a table for a terminal, problems and warnings in words below it. */
export function formatReport({ checks, warnings }: Report): string {
  const rows = [
    ['section', 'reachable', 'manifest', EXPOSED_SECTION, 'shared deps', 'pin', 'node build', 'version', 'build', 'manifest URL'],
    ...checks.map((check) => [
      check.section,
      mark(check.reachable),
      mark(check.reachable ? check.manifest : undefined),
      mark(check.manifest || check.exposesSection ? check.exposesSection : undefined),
      mark(check.manifest || check.exposesSection ? check.sharedOk : undefined),
      mark(check.pinOk),
      mark(check.nodeBuildOk),
      check.version,
      check.buildId,
      check.url,
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd();
  const out = [line(rows[0]!), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.slice(1).map(line), ''];
  for (const check of checks) for (const problem of check.problems) out.push(`problem: ${check.section}: ${problem}`);
  for (const warning of warnings) out.push(`warning: ${warning}`);
  const failed = checks.filter((check) => check.problems.length > 0).length;
  out.push(failed === 0 ? 'All sections can be served by this host.' : `${failed} section(s) would not load correctly.`);
  return `${out.join('\n')}\n`;
}
