import { createHash } from 'node:crypto';
import { MANIFEST_MAX_BYTES, MANIFEST_TOO_LARGE, readManifest } from '@portico/contract/manifest';
import { configWarnings, parseConfig, sectionsFromConfig, type ConfigProblem } from '@portico/shared-config/config';
import { EXPOSED_SECTION, type SectionId } from '@portico/contract/sections';
import { fetchChecked, fetchNodeBuild, hostSharedVersions, inspectSection, originSet, type FetchRules } from '@portico/releases/checks';

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

/** Fetches one section's manifest and checks it against the contract and the host. */
export async function checkRemote(section: SectionId, url: unknown, pin: string | undefined, options: CheckOptions = {}): Promise<RemoteCheck> {
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

  // The manifest's own origin only: the node build must be there too (the manifest reader refuses any other).
  const rules: FetchRules = { allowedOrigins: originSet([url]), timeoutMs: options.timeoutMs ?? 5000, fetch };
  const fetched = await fetchChecked(url, MANIFEST_MAX_BYTES, rules, MANIFEST_TOO_LARGE);
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
  const report = inspectSection(manifest, section, options.hostShared ?? hostSharedVersions());
  if (report.nameProblem) check.problems.push(report.nameProblem);
  else check.manifest = true;
  check.exposesSection = report.exposeProblem === undefined;
  if (report.exposeProblem) check.problems.push(report.exposeProblem);
  check.sharedOk = report.sharedProblems.length === 0;
  check.problems.push(...report.sharedProblems);

  const node = await fetchNodeBuild(manifest, rules);
  check.nodeBuildOk = !('problem' in node);
  if ('problem' in node) check.problems.push(`the server cannot render it, the browser only: ${node.problem}`);

  check.version = manifest.build.version ?? '-';
  check.buildId = manifest.build.id ?? '-';
  return check;
}

export interface Report {
  checks: RemoteCheck[];
  /**
   * Every other field of config.json that fails validation: the page is
   * rendered without it (and tells the visitor nothing), so it is the
   * operator's to fix before the edit goes live.
   */
  configProblems: ConfigProblem[];
  /** Worth knowing, but nothing breaks: a market without its lender, an old shape, the Indonesian copyright line. */
  warnings: string[];
}

/** A problem of these fields is a problem of the section's load, named in its row. */
const sectionFields = (section: SectionId) => [`remotes.${section}`, `remoteIntegrity.${section}`, 'remotes', 'remoteIntegrity'];

/**
 * Checks the whole config.json, read as the page reads it (`parseConfig`):
 * every section it names (a URL or pin the page would drop is a problem of
 * its section), every other field, and what it lacks (which market shows no
 * lender).
 */
export async function checkRemotes(raw: unknown, options: CheckOptions = {}): Promise<Report> {
  const parsed = parseConfig(raw);
  const { config, problems } = parsed;
  const hostShared = options.hostShared ?? hostSharedVersions();
  // Every section the file lists (an added one with its labels), hidden ones included: a hidden section may be shown again.
  const sections = sectionsFromConfig(config).map(({ id }) => id);
  const checks = await Promise.all(
    sections.map(async (section) => {
      const check = await checkRemote(section, config.remotes[section], config.remoteIntegrity?.[section], { ...options, hostShared });
      const own = problems.filter(({ field }) => sectionFields(section).includes(field));
      if (own.length > 0) check.problems = own.map(({ field, message }) => `config.json ${field}: ${message}`);
      return check;
    }),
  );
  const configProblems = problems.filter(({ field }) => !sections.some((section) => sectionFields(section).includes(field)));
  const warnings = configWarnings(parsed).map(({ field, message }) => `config.json ${field} ${message}`);
  return { checks, configProblems, warnings };
}

/** Whether the report holds anything that stops the file going live as it is (`npm run check-remotes` exits 1). */
export function reportFails({ checks, configProblems }: Report): boolean {
  return configProblems.length > 0 || checks.some((check) => check.problems.length > 0);
}

const mark = (ok: boolean | undefined) => (ok === undefined ? '-' : ok ? 'yes' : 'NO');

/** The report as a table for a terminal, problems and warnings in words below it. */
export function formatReport({ checks, configProblems, warnings }: Report): string {
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
  const line = (row: string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  const out = [line(rows[0]!), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.slice(1).map(line), ''];
  for (const check of checks) for (const problem of check.problems) out.push(`problem: ${check.section}: ${problem}`);
  for (const { field, message } of configProblems) out.push(`problem: config.json ${field}: ${message} (the page is rendered without it)`);
  for (const warning of warnings) out.push(`warning: ${warning}`);
  const failed = checks.filter((check) => check.problems.length > 0).length;
  out.push(failed === 0 ? 'All sections can be served by this host.' : `${failed} section(s) would not load correctly.`);
  if (configProblems.length > 0) out.push(`config.json has ${configProblems.length} invalid field(s): fix them before this file goes live.`);
  return `${out.join('\n')}\n`;
}
