import { MANIFEST_TOO_LARGE, readManifest, type Manifest } from '@portico/contract/manifest';
import { sectionGrant, type RemoteLoading, type SectionModule, type SiteConfig } from '@portico/shared-config';
import { EXPOSED_SECTION, remoteNameOf, type SectionId } from '@portico/contract/sections';
import { BUILT_IN_SECTIONS } from '@portico/contract/section-entries';
import { checkManifest } from '@portico/contract/manifest-check';
import { RELAY_FAULT_HEADER, sectionManifestPath, type RelayFault } from '@portico/contract/manifest-relay';
import { pageStylesheets } from '@portico/contract/section-styles';
import { readManifestBody } from './read-manifest-body';
import { classifyFailure, isTransientStatus, RemoteFault, type FailureDetail } from './classify-failure';
import type { CheckedManifest, LoadProgress } from './checked-manifest';
import { manifestPins, sriMatches } from './remote-integrity';
import { reportFailure, type RemoteFailure } from './report-failure';
import { SectionLoadError } from './section-load-error';

/**
 * Used where config.json's `remoteLoading` says nothing. The deadline leaves a
 * second of the product's 10 s promise for the page to show the alert.
 */
const DEFAULT_REMOTE_LOADING: RemoteLoading = { deadlineMs: 9000, retries: 2 };

/** Why a section granted no script is not loaded (the server could not render it, so the page has nothing of it to show). */
const NOT_GRANTED = 'is not loaded: the integrator grants this section no script in the browser (static), and the server did not render it';

/** The first retry waits this long; each next one twice as long. */
const FIRST_BACKOFF_MS = 250;

export interface LoadSectionOptions extends Partial<RemoteLoading> {
  /** config.json's `remoteIntegrity` pin of this manifest, if any. */
  pin?: string;
  /**
   * The manifest's text as a server-rendered page carries it (as the server
   * fetched it): the first attempt checks and uses these bytes instead of
   * fetching the manifest, so the browser loads what the server rendered.
   */
  manifest?: string;
  /**
   * The integrator's grant (config.json's `sections`): false, and nothing of
   * the section is fetched or run in this page, whatever its build declares.
   */
  scriptGranted?: boolean;
}

/**
 * What the loader needs from the browser and from what runs a section's
 * code: Module Federation's runtime (federation-runtime.ts) or the island
 * scripts' loader (island-loader.ts); unit tests give fakes, so the retry
 * and deadline policy is tested without a network.
 */
export interface LoaderSeams {
  fetch: typeof fetch;
  /** The page's `location.search`: its preview token goes with the manifest's request (sectionManifestPath). */
  pageSearch?: () => string;
  pageShares: () => Record<string, string>;
  /** Hands over the checked manifest (its bytes, files, hashes, island script) before its code is loaded. */
  register: (remote: string, manifestUrl: string, manifest: CheckedManifest, progress: LoadProgress) => void;
  loadExposed: (remote: string) => Promise<Partial<SectionModule> | null | undefined>;
  settle: (remote: string, manifestUrl: string, progress: LoadProgress) => void;
  /** The remote's script still loading, if any, to name at a time-out. */
  pendingScript: (remote: string) => string | undefined;
}

interface Attempt {
  section: SectionId;
  remote: string;
  manifestUrl: string;
  pin: string | undefined;
  signal: AbortSignal;
  progress: LoadProgress & { url: string };
  /** The inlined manifest's bytes, until an attempt has used them. */
  inlined: Uint8Array<ArrayBuffer> | undefined;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

const manifestFault = (url: string, cause: string, transient = false) => new RemoteFault({ stage: 'manifest', url, cause, transient });

/**
 * What the page reports of an answer the relay made itself (its
 * RELAY_FAULT_HEADER): what it would have reported had it fetched the
 * manifest from its origin, where the origin is the cause.
 */
const RELAY_FAULTS: Record<Exclude<RelayFault, 'not-a-manifest'>, { cause: string; transient: boolean }> = {
  unreachable: { cause: 'could not be fetched (network error)', transient: true },
  busy: { cause: "could not be fetched (the page's server is relaying as many manifests as it will)", transient: true },
  'too-large': { cause: MANIFEST_TOO_LARGE, transient: false },
  redirected: { cause: 'answered with a redirect, which is not followed', transient: false },
  refused: { cause: "was refused by the page's server: the page may not load this section from it", transient: false },
};

/** The relay's words for an answer that is no manifest (`${url} ${problem}`, readManifest's problem), as the page would have said them; short, and only its own. */
async function relayReason(response: Response, url: string): Promise<string> {
  const text = await response.text().catch(() => '');
  const reason = text.startsWith(`${url} `) ? text.slice(url.length + 1).trim() : '';
  return reason === '' ? 'is not a Module Federation manifest' : reason.slice(0, 300);
}

/**
 * The manifest's bytes, fetched once for this attempt and read no further
 * than the size cap: through the page's own origin, which fetches it from
 * `url` (the page's CSP lets it connect nowhere else) and passes on the
 * origin's status and bytes.
 */
async function fetchManifest(seams: LoaderSeams, { section, manifestUrl: url, signal }: Attempt): Promise<Uint8Array<ArrayBuffer>> {
  const networkError = (error: unknown): never => {
    if (signal.aborted) throw error;
    throw manifestFault(url, 'could not be fetched (network error)', true);
  };
  const path = sectionManifestPath(section, url, seams.pageSearch?.());
  const response = await seams.fetch(path, { signal, headers: { Accept: 'application/json' } }).catch(networkError);
  const fault = response.headers.get(RELAY_FAULT_HEADER) ?? '';
  if (fault === 'not-a-manifest') throw manifestFault(url, await relayReason(response, url));
  if (Object.hasOwn(RELAY_FAULTS, fault)) {
    const { cause, transient } = RELAY_FAULTS[fault as keyof typeof RELAY_FAULTS];
    throw manifestFault(url, cause, transient);
  }
  if (!response.ok) throw manifestFault(url, `answered HTTP ${response.status}`, isTransientStatus(response.status));
  const body = await readManifestBody(response).catch(networkError);
  // Another try would download the same megabytes again.
  if ('tooLarge' in body) throw manifestFault(url, MANIFEST_TOO_LARGE);
  return body.bytes;
}

/** Refuses bytes that do not hash to config.json's pin: the very bytes Module Federation will parse. */
async function checkPin(url: string, bytes: Uint8Array<ArrayBuffer>, pin: string, manifest: Manifest): Promise<void> {
  let matches: boolean;
  try {
    matches = await sriMatches(bytes, pin);
  } catch (error) {
    throw manifestFault(url, `cannot be checked against its remoteIntegrity pin: ${(error as Error).message}`);
  }
  if (!matches) throw manifestFault(url, 'does not match its remoteIntegrity pin in config.json; refusing it');
  if (!manifest.entry.integrity) {
    throw manifestFault(url, 'matches its pin but gives no remoteEntry integrity, so its code could not be checked');
  }
}

/** One attempt: fetch, pin and check the manifest, then run the exposed module's code from those bytes (Module Federation's runtime, or its island script). */
async function loadOnce(seams: LoaderSeams, attempt: Attempt): Promise<SectionModule> {
  const { remote, manifestUrl, pin, progress } = attempt;
  progress.stage = 'manifest';
  progress.url = manifestUrl;
  const bytes = attempt.inlined ?? (await fetchManifest(seams, attempt));
  const read = readManifest(bytes, manifestUrl);
  if ('problem' in read) throw manifestFault(manifestUrl, read.problem);
  const { manifest } = read;
  if (pin) await checkPin(manifestUrl, bytes, pin, manifest);
  const problem = checkManifest(manifest, { expose: EXPOSED_SECTION, pageShares: seams.pageShares() });
  if (problem) throw manifestFault(manifestUrl, problem);

  // Its stylesheets only as the page's origin scopes them to its slot, linked before its code can add its own (issue 46).
  const stylesheets = pageStylesheets(attempt.section, manifest.stylesheets[EXPOSED_SECTION] ?? [], manifest.hashes);
  seams.register(remote, manifestUrl, { bytes, files: manifest.scripts, hashes: manifest.hashes, stylesheets, island: manifest.island }, progress);
  progress.stage = 'entry';
  progress.url = manifest.entry.url;
  const exposed = await seams.loadExposed(remote);
  if (!exposed || typeof exposed.Section !== 'function') {
    throw new RemoteFault({ stage: 'chunk', url: manifest.entry.url, cause: `${EXPOSED_SECTION} has no Section component`, transient: false });
  }
  return exposed as SectionModule;
}

/** Attempts until one works, the fault is not transient, the retries are spent or time is up. */
async function loadWithRetries(seams: LoaderSeams, attempt: Attempt, retries: number, deadlineAt: number): Promise<SectionModule> {
  for (let retry = 0; ; retry += 1) {
    const usedInlined = attempt.inlined !== undefined;
    try {
      return await loadOnce(seams, attempt);
    } catch (error) {
      if (attempt.signal.aborted) throw error;
      attempt.inlined = undefined;
      // The inlined manifest names an entry or chunk that is gone (the team
      // redeployed since the server rendered): the current manifest is
      // fetched at once, as a page without inlined data would have. That is
      // not a retry of the same fault. A manifest refused on its own bytes
      // (pin, checks) is refused as any fetched one.
      if (usedInlined && attempt.progress.stage !== 'manifest') {
        retry -= 1;
        continue;
      }
      const detail = classifyFailure(error, { stage: attempt.progress.stage, manifestUrl: attempt.manifestUrl });
      const wait = FIRST_BACKOFF_MS * 2 ** retry;
      if (!detail.transient || retry >= retries || performance.now() + wait >= deadlineAt) throw error;
      console.warn(
        `Portico: the ${attempt.section} section's ${detail.stage} failed (${detail.url} ${detail.cause}); retry ${retry + 1} of ${retries} in ${wait} ms`,
      );
      await sleep(wait, attempt.signal);
      if (attempt.signal.aborted) throw error;
    }
  }
}

/**
 * A section's loader. Each call loads afresh (a Try again forgets the earlier
 * attempt): the manifest is fetched once per attempt, transient faults are
 * retried with backoff, and everything, retries included, ends by the
 * deadline. A failure is reported once (console and a `portico:remote-error`
 * event) and rejects with a SectionLoadError.
 */
export function createSectionLoader(seams: LoaderSeams) {
  return async function loadSection(
    section: SectionId,
    manifestUrl: string | undefined,
    { deadlineMs = DEFAULT_REMOTE_LOADING.deadlineMs, retries = DEFAULT_REMOTE_LOADING.retries, pin, manifest, scriptGranted = true }: LoadSectionOptions = {},
  ): Promise<SectionModule> {
    const remote = remoteNameOf(section);
    const fail = (detail: FailureDetail): never => {
      const failure: RemoteFailure = { section, remote, ...detail };
      reportFailure(failure);
      throw new SectionLoadError(failure);
    };
    if (!manifestUrl) {
      return fail({ stage: 'manifest', url: '(none)', cause: `config.json gives no valid URL in remotes.${section}`, transient: false });
    }
    // The one way a section's code gets into the page: a section granted none is shown only as the server rendered it.
    if (!scriptGranted) {
      return fail({ stage: 'manifest', url: manifestUrl, cause: NOT_GRANTED, transient: false });
    }

    const controller = new AbortController();
    const progress: Attempt['progress'] = { stage: 'manifest', url: manifestUrl };
    const inlined = manifest === undefined ? undefined : new TextEncoder().encode(manifest);
    const attempt: Attempt = { section, remote, manifestUrl, pin, signal: controller.signal, progress, inlined };
    const deadlineAt = performance.now() + deadlineMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Module Federation waits 20 s for a script and webpack 120 s for a chunk;
    // the visitor's deadline is enforced here, over every attempt together.
    const timeUp = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const { stage, url } = attempt.progress;
        const culprit = stage === 'manifest' ? url : (seams.pendingScript(remote) ?? url);
        reject(new RemoteFault({ stage, url: culprit, cause: `did not load within ${deadlineMs / 1000} s`, transient: false }));
        controller.abort();
      }, deadlineMs);
    });
    const work = loadWithRetries(seams, attempt, retries, deadlineAt);
    // Once time is up the attempt's late outcome no longer matters.
    work.catch(() => undefined);
    try {
      return await Promise.race([work, timeUp]);
    } catch (error) {
      return fail(classifyFailure(error, { stage: attempt.progress.stage, manifestUrl }));
    } finally {
      clearTimeout(timer);
      seams.settle(remote, manifestUrl, attempt.progress);
    }
  };
}

/** A section's loader, made by createSectionLoader. */
export type SectionLoader = ReturnType<typeof createSectionLoader>;

/** A section's load as the page started it, and how to start it again (Try again). */
export interface SectionLoad {
  first: Promise<SectionModule>;
  again: () => Promise<SectionModule>;
}

/** The page's sections' loads, by id: one for each section the page lists. */
export type SectionLoads = Partial<Record<SectionId, SectionLoad>>;

/**
 * Starts each of `ids`' loads (the page's sections; the built-in ones when
 * not given) as soon as config.json names them, before React
 * renders, and hands the loads to the page. A manifest pinned in config.json
 * is checked against its pin; an override loads another build, so the pin of
 * the configured URL does not apply to it, nor does the configured manifest
 * a server-rendered page carries (`inlined`, used by the first load only:
 * Try again fetches afresh).
 */
export function startSections(
  config: SiteConfig,
  remotes: Partial<Record<SectionId, string>>,
  load: SectionLoader,
  inlined: Partial<Record<SectionId, string>> = {},
  ids: readonly SectionId[] = BUILT_IN_SECTIONS.map(({ id }) => id),
): SectionLoads {
  return Object.fromEntries(ids.map((section) => [section, startSection(section, config, remotes, load, inlined)]));
}

/** One section's load (startSections), for a page that starts each island only when it is due. */
export function startSection(
  section: SectionId,
  config: SiteConfig,
  remotes: Partial<Record<SectionId, string>>,
  load: SectionLoader,
  inlined: Partial<Record<SectionId, string>> = {},
): SectionLoad {
  const pins = manifestPins(config);
  const start = (first: boolean) => {
    const url = remotes[section];
    const manifest = first && url !== undefined && url === config.remotes[section] ? inlined[section] : undefined;
    const loading = load(section, url, {
      ...config.remoteLoading,
      pin: url === undefined ? undefined : pins.get(url),
      manifest,
      scriptGranted: sectionGrant(config, section).interactive,
    });
    // The section shows (and has reported) a failure; the page must not see an unhandled rejection.
    loading.catch(() => undefined);
    return loading;
  };
  return { first: start(true), again: () => start(false) };
}
