import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MANIFEST_TOO_LARGE, readManifest, type Manifest } from '@portico/contract/manifest';
import { inspectManifest, readManifestBody } from '@portico/host/manifest-check';
import { parseConfig } from '@portico/shared-config/config';
import { DEFAULT_FETCH_LIMITS, fetchVerified, NodeSectionError } from '@portico/node-sections';
import { EXPOSED_SECTION, remoteNameOf, SECTION_IDS, type SectionId } from '@portico/contract/sections';
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

async function fetchBytes(url: string, timeoutMs: number): Promise<{ bytes: Uint8Array } | { problem: string }> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
    if (!response.ok) return { problem: `${url} answered HTTP ${response.status}` };
    const body = await readManifestBody(response);
    // The page refuses it too, whatever it holds.
    return 'tooLarge' in body ? { problem: `${url} ${MANIFEST_TOO_LARGE}` } : body;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { problem: `${url} cannot be reached (${cause?.code ?? cause?.message ?? (error as Error).message})` };
  }
}

/**
 * The section's node build, as the server would load it to render the
 * section (@portico/node-sections): named in the manifest with its hash, on the
 * manifest's origin, reachable, matching the hash. Each problem in words.
 */
export async function checkNodeBuild(manifest: Manifest, timeoutMs: number): Promise<string[]> {
  const entry = manifest.nodeEntry;
  if ('problem' in entry) return [`the server cannot render it, the browser only: ${entry.problem}`];
  try {
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

  const read = readManifest(fetched.bytes, url);
  if ('problem' in read) {
    check.problems.push(`${url} ${read.problem}`);
    return check;
  }
  const { manifest } = read;
  // The page's own check, with the host's installed versions as what the page shares.
  const report = inspectManifest(manifest, {
    expose: EXPOSED_SECTION,
    pageShares: options.hostShared ?? hostSharedVersions(),
    singletons: REQUIRED_SINGLETONS,
  });
  if (manifest.name !== remoteNameOf(section)) {
    check.problems.push(`is the manifest of "${String(manifest.name)}", not of ${remoteNameOf(section)}`);
  } else {
    check.manifest = true;
  }
  check.exposesSection = report.exposeProblem === undefined;
  if (report.exposeProblem) check.problems.push(report.exposeProblem);
  check.sharedOk = report.sharedProblems.length === 0;
  check.problems.push(...report.sharedProblems);

  const nodeProblems = await checkNodeBuild(manifest, options.timeoutMs ?? 5000);
  check.nodeBuildOk = nodeProblems.length === 0;
  check.problems.push(...nodeProblems);

  check.version = manifest.build.version ?? '-';
  check.buildId = manifest.build.id ?? '-';
  return check;
}

export interface Report {
  checks: RemoteCheck[];
  /** Worth knowing, but nothing breaks. */
  warnings: string[];
}

/**
 * Checks every section config.json names, read as the page reads it
 * (`parseConfig`): a URL or pin the page would drop is a problem of its section.
 */
export async function checkRemotes(raw: unknown, options: CheckOptions = {}): Promise<Report> {
  const { config, problems } = parseConfig(raw);
  const hostShared = options.hostShared ?? hostSharedVersions();
  const checks = await Promise.all(
    SECTION_IDS.map(async (section) => {
      const check = await checkRemote(section, config.remotes[section], config.remoteIntegrity?.[section], { ...options, hostShared });
      const own = problems.filter(({ field }) => [`remotes.${section}`, `remoteIntegrity.${section}`, 'remotes', 'remoteIntegrity'].includes(field));
      if (own.length > 0) check.problems = own.map(({ field, message }) => `config.json ${field}: ${message}`);
      return check;
    }),
  );
  const warnings: string[] = [];
  if (!config.legal) {
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
