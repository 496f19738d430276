import { createHash } from 'node:crypto';
import { MANIFEST_MAX_BYTES, MANIFEST_TOO_LARGE, readManifest, type Manifest } from '@portico/contract/manifest';
import { grantProblem } from '@portico/contract/hydration';
import { defaultGrantOf, EXPOSED_SECTION, remoteNameOf, type SectionGrant, type SectionId } from '@portico/contract/sections';
import { scopeSectionStylesheet, SECTION_STYLESHEET_LIMITS } from '@portico/node-sections';
import { NOT_RUN, type CheckResult } from '../release';
import { describeHeaderProblems, headerProblems } from './browser-rules';
import { checkFiles, listedFiles, type FilesReport } from './file-integrity';
import { fetchChecked, httpOrigin, originProblem, originSet, type FetchRules } from './fetch-checked';
import { hostSharedVersions } from './host-shared';
import { fetchNodeBuild, type NodeBuild } from './node-build';
import { CHECKED_SHARES, inspectSection } from './section-contract';

/** The checks of a publish, in the order they run and are reported. */
export const PUBLISH_CHECKS = ['reachable', 'manifest', 'exposes', 'script', 'shared', 'integrity', 'browser', 'styles', 'node-build', 'render'] as const;
export type PublishCheckName = (typeof PUBLISH_CHECKS)[number];

/**
 * Renders `section` from its node build in both languages within a
 * deadline, in a contained worker; resolves each problem in words (none
 * when it rendered). The server provides it: the checks hold no worker.
 */
export type RenderCheck = (section: SectionId, nodeBuild: NodeBuild) => Promise<string[]>;

export interface PublishCheckOptions {
  section: SectionId;
  manifestUrl: string;
  /**
   * The origins (or URLs, reduced to their origins) a release of this
   * section may be fetched from. Nothing on any other origin is requested.
   */
  allowedOrigins: Iterable<string>;
  /**
   * The origin of the site's public page (PORTICO_PUBLIC_URL's): every file
   * the page loads is fetched with it as `Origin`, and must admit it.
   */
  pageOrigin: string;
  /** The section's grant (its built-in one by default): a build declaring script in the browser beyond it is refused. */
  grant?: SectionGrant;
  /** The host's shared modules and versions (default: those installed for this repository's host). */
  hostShared?: Readonly<Record<string, string>>;
  renderCheck?: RenderCheck;
  /** For each fetch, headers and body (default 5 s). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** What a release records of the manifest it checked. */
export interface CheckedManifest {
  /** `sha384-` and the base64 of the manifest's exact bytes: the pin the page checks them against. */
  integrity: string;
  version: string;
  buildId: string;
  /** Present when the node build was fetched and matched its hash. */
  nodeBuild?: NodeBuild;
}

export interface PublishChecks {
  /** Every check passed. */
  ok: boolean;
  /** One result per name of PUBLISH_CHECKS, in that order. */
  checks: CheckResult[];
  /** The manifest URL's origin, when it is not an allowed one: nothing was fetched. */
  refusedOrigin?: string;
  /** With `refusedOrigin`: the allowed origins, to say which would have been taken. */
  allowedOrigins?: string[];
  /** Present once the manifest was read as a federation manifest, passed or not. */
  manifest?: CheckedManifest;
}

const DEFAULT_TIMEOUT_MS = 5000;

/** The origin a URL names, as well as it can be named, for a refusal. */
function originNamed(url: string): string {
  try {
    const parsed = new URL(url);
    return httpOrigin(url) ?? `${parsed.protocol}//${parsed.host}`;
  } catch {
    return url.slice(0, 200);
  }
}

/** Results so far; the checks not reached are reported as not run, with why. */
class Results {
  private readonly results = new Map<PublishCheckName, CheckResult>();

  pass(name: PublishCheckName, detail: string): void {
    this.results.set(name, { name, ok: true, detail });
  }

  fail(name: PublishCheckName, detail: string): void {
    this.results.set(name, { name, ok: false, detail });
  }

  notRun(names: readonly PublishCheckName[], why: string): void {
    for (const name of names) this.fail(name, `${NOT_RUN}: ${why}`);
  }

  finish(extra: Omit<PublishChecks, 'ok' | 'checks'> = {}): PublishChecks {
    const checks = PUBLISH_CHECKS.map((name) => this.results.get(name) ?? { name, ok: false, detail: NOT_RUN });
    return { ok: checks.every((check) => check.ok), checks, ...extra };
  }
}

const AFTER_MANIFEST = ['exposes', 'script', 'shared', 'integrity', 'browser', 'styles', 'node-build', 'render'] as const;

/** What is wrong with the manifest as a release of `section`, or undefined. */
function manifestProblem(manifest: Manifest, section: SectionId, nameProblem: string | undefined, rules: FetchRules): string | undefined {
  if (nameProblem) return nameProblem;
  const elsewhere = [
    ...new Set(
      listedFiles(manifest)
        .filter((url) => originProblem(url, rules))
        .map(originNamed),
    ),
  ];
  if (elsewhere.length > 0) {
    return `it names files on ${elsewhere.join(', ')}, not an allowed release origin of ${section} (see its publicPath): nothing was fetched from there`;
  }
  if (!manifest.build.id) return 'gives no build id (metaData.buildInfo.buildId)';
  if (!manifest.build.version) return 'gives no version (metaData.buildInfo.buildVersion)';
  return undefined;
}

function sharedDetail(manifest: Manifest, hostShared: Readonly<Record<string, string>>): string {
  const accepted = CHECKED_SHARES.flatMap((name) => {
    const share = manifest.shared.find((candidate) => candidate.name === name);
    return share ? [`${name} ${share.requiredVersion ?? '(any)'} accepts the host's ${hostShared[name] ?? '(none)'}`] : [];
  });
  return `${accepted.join('; ')}; all shared as singletons`;
}

/**
 * Why the server would leave the section to the browser for its
 * stylesheets (SECTION_STYLESHEET_LIMITS: how many, each one's size, all
 * together), counted on the bytes the integrity check fetched; undefined
 * when they are within.
 */
function stylesheetProblem(manifest: Manifest, files: FilesReport): string | undefined {
  const { perSection, maxBytes, sectionBytes } = SECTION_STYLESHEET_LIMITS;
  const sheets = manifest.stylesheets[EXPOSED_SECTION] ?? [];
  const over = `over what a section rendered on the server may have (${perSection} stylesheets, ${maxBytes / 1024} KB each, ${sectionBytes / 1024 / 1024} MB together): the server would leave it to the browser`;
  if (sheets.length > perSection) return `its manifest names ${sheets.length} stylesheets, ${over}`;
  const sizes = sheets.map((url) => files.sizes.get(url) ?? 0);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (Math.max(0, ...sizes) > maxBytes || total > sectionBytes)
    return `its stylesheets come to ${Math.ceil(total / 1024)} KB (the largest ${Math.ceil(Math.max(0, ...sizes) / 1024)} KB), ${over}`;
  return undefined;
}

/** How many of a build's stylesheet problems a refusal names; the rest are counted. */
const STYLE_PROBLEMS_NAMED = 5;

/**
 * What in the section's stylesheets would reach outside its slot (an
 * `@import`, a URL off its origin, a selector that reads the page: the
 * rules scopeSectionStylesheet leaves out), each with its file; read from
 * the bytes the integrity check fetched and matched.
 */
function styleProblems(section: SectionId, manifest: Manifest, files: FilesReport): string[] {
  // Read only within what a section may have: past that the render check refuses the build anyway, and reading 25 MB of CSS costs seconds.
  const { perSection, sectionBytes } = SECTION_STYLESHEET_LIMITS;
  const bytes = [...files.stylesheets.values()].reduce((sum, sheet) => sum + sheet.byteLength, 0);
  if (files.stylesheets.size > perSection || bytes > sectionBytes)
    return [`not read: ${files.stylesheets.size} stylesheets of ${Math.ceil(bytes / 1024)} KB are over what a section may have`];
  const origin = new URL(manifest.url).origin;
  const problems = [...files.stylesheets].flatMap(([url, bytes]) =>
    scopeSectionStylesheet(new TextDecoder().decode(bytes), { section, url, origin }).problems.map((problem) => `${url}: ${problem}`),
  );
  if (problems.length <= STYLE_PROBLEMS_NAMED) return problems;
  return [...problems.slice(0, STYLE_PROBLEMS_NAMED), `and ${problems.length - STYLE_PROBLEMS_NAMED} more`];
}

/**
 * Every check a build must pass before it may be stored as releasable,
 * each a named result in words. The manifest URL's origin comes first:
 * when it is not allowed, nothing is fetched. Every later fetch (the
 * manifest, remoteEntry.js, each listed file, the node build) is on an
 * allowed origin, follows no redirect, and is bounded in size and time;
 * what the page loads is fetched as the page's browser asks for it, and
 * its headers must be what that browser needs (the `browser` check).
 */
export async function runPublishChecks(options: PublishCheckOptions): Promise<PublishChecks> {
  const { section, manifestUrl, pageOrigin } = options;
  const rules: FetchRules = {
    allowedOrigins: originSet(options.allowedOrigins),
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    fetch: options.fetch ?? fetch,
    pageOrigin,
  };
  const results = new Results();

  const refused = originProblem(manifestUrl, rules);
  if (refused) {
    results.fail('reachable', `not fetched: ${refused}`);
    results.notRun(['manifest', ...AFTER_MANIFEST], 'the manifest was not fetched');
    return results.finish({ refusedOrigin: originNamed(manifestUrl), allowedOrigins: [...rules.allowedOrigins] });
  }

  const fetched = await fetchChecked(manifestUrl, MANIFEST_MAX_BYTES, rules, MANIFEST_TOO_LARGE);
  if ('problem' in fetched) {
    results.fail('reachable', fetched.problem);
    results.notRun(['manifest', ...AFTER_MANIFEST], 'the manifest was not fetched');
    return results.finish();
  }
  results.pass('reachable', `${manifestUrl} answered with ${fetched.bytes.byteLength} bytes`);

  const read = readManifest(fetched.bytes, manifestUrl);
  if ('problem' in read) {
    results.fail('manifest', `${manifestUrl} ${read.problem}`);
    results.notRun(AFTER_MANIFEST, 'no federation manifest to check');
    return results.finish();
  }
  const { manifest } = read;
  const checked: CheckedManifest = {
    integrity: `sha384-${createHash('sha384').update(fetched.bytes).digest('base64')}`,
    version: manifest.build.version ?? '',
    buildId: manifest.build.id ?? '',
  };
  const hostShared = options.hostShared ?? hostSharedVersions();
  const report = inspectSection(manifest, section, hostShared);
  const problem = manifestProblem(manifest, section, report.nameProblem, rules);
  if (problem) {
    results.fail('manifest', problem);
    results.notRun(AFTER_MANIFEST, `the manifest is not a release of ${section}`);
    return results.finish({ manifest: checked });
  }
  results.pass('manifest', `the federation manifest of ${remoteNameOf(section)}, build ${checked.buildId} (version ${checked.version})`);

  if (report.exposeProblem) results.fail('exposes', report.exposeProblem);
  else results.pass('exposes', `exposes ${EXPOSED_SECTION}`);
  const scriptProblem = grantProblem(section, manifest.hydration, options.grant ?? defaultGrantOf(section));
  if (scriptProblem) results.fail('script', scriptProblem);
  else results.pass('script', `declares hydration ${JSON.stringify(manifest.hydration)}, within the section's grant`);
  if (report.sharedProblems.length > 0) results.fail('shared', report.sharedProblems.join('; '));
  else results.pass('shared', sharedDetail(manifest, hostShared));

  const [files, node] = await Promise.all([checkFiles(manifest, rules), fetchNodeBuild(manifest, rules)]);
  if (files.problems.length > 0) results.fail('integrity', files.problems.join('; '));
  else results.pass('integrity', `remoteEntry.js and the ${files.matched - 1} other files the manifest lists match their hashes (${files.bytes} bytes)`);

  const browserProblems = [...headerProblems(manifestUrl, 'manifest', fetched.headers, pageOrigin), ...files.headerProblems];
  if (browserProblems.length > 0) results.fail('browser', describeHeaderProblems(browserProblems, manifestUrl).join('; '));
  else
    results.pass(
      'browser',
      `the manifest and the ${files.arrived} files that arrived admit a page on ${pageOrigin} (CORS) and are of their types (JSON, JavaScript, CSS)`,
    );

  const styles = styleProblems(section, manifest, files);
  if (styles.length > 0) results.fail('styles', `its stylesheets reach outside the section's slot, which the page would not apply: ${styles.join('; ')}`);
  else
    results.pass(
      'styles',
      `the ${files.stylesheets.size} stylesheets apply inside the ${section} section's slot: no @import, no URL off ${new URL(manifest.url).origin}, no selector reaching the page`,
    );

  if ('problem' in node) {
    results.fail('node-build', node.problem);
    results.notRun(['render'], 'no node build to render');
    return results.finish({ manifest: checked });
  }
  checked.nodeBuild = node.nodeBuild;
  results.pass('node-build', `${node.nodeBuild.url} matches its hash`);

  if (!options.renderCheck) {
    results.notRun(['render'], 'no render worker');
    return results.finish({ manifest: checked });
  }
  let renderProblems: string[];
  try {
    renderProblems = await options.renderCheck(section, node.nodeBuild);
  } catch (error) {
    renderProblems = [`the render check failed: ${(error as Error).message}`];
  }
  const overLimits = stylesheetProblem(manifest, files);
  if (overLimits) renderProblems.push(overLimits);
  if (renderProblems.length > 0) results.fail('render', renderProblems.join('; '));
  else results.pass('render', `${section} renders from its node build without a problem`);
  return results.finish({ manifest: checked });
}
