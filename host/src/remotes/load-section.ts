import { loadRemote, registerPlugins } from '@module-federation/enhanced/runtime';
import {
  EXPOSED_SECTION,
  remoteNameOf,
  SECTION_IDS,
  type RemoteLoading,
  type SectionId,
  type SectionModule,
  type SiteConfig,
} from '@portico/shared-config';
import { checkManifest, filesOfManifest } from './check-manifest';
import { classifyFailure, isTransientStatus, RemoteFault, type FailureDetail } from './classify-failure';
import { pageShares, pendingScriptOf, registerCheckedRemote, settleRemote, type LoadProgress } from './federation-runtime';
import { remoteIntegrityPlugin } from './integrity-plugin';
import { reportFailure, type RemoteFailure } from './report-failure';
import { SectionLoadError } from './section-load-error';

/**
 * Used where config.json's `remoteLoading` says nothing. The deadline leaves a
 * second of the product's 10 s promise for the page to show the alert.
 */
export const DEFAULT_REMOTE_LOADING: RemoteLoading = { deadlineMs: 9000, retries: 2 };

/** The first retry waits this long; each next one twice as long. */
const FIRST_BACKOFF_MS = 250;

export interface LoadSectionOptions extends Partial<RemoteLoading> {
  /** Forget any earlier attempt and load again (Try again). */
  fresh?: boolean;
}

interface Attempt {
  section: SectionId;
  remote: string;
  manifestUrl: string;
  signal: AbortSignal;
  progress: LoadProgress & { url: string };
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

async function fetchManifest({ manifestUrl: url, signal }: Attempt): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { signal, headers: { Accept: 'application/json' } });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new RemoteFault({ stage: 'manifest', url, cause: 'could not be fetched (network error)', transient: true });
  }
  if (!response.ok) {
    throw new RemoteFault({ stage: 'manifest', url, cause: `answered HTTP ${response.status}`, transient: isTransientStatus(response.status) });
  }
  return response.text();
}

/** One attempt: fetch and check the manifest, then let Module Federation load the exposed module. */
async function loadOnce(attempt: Attempt): Promise<SectionModule> {
  const { remote, manifestUrl, progress } = attempt;
  progress.stage = 'manifest';
  progress.url = manifestUrl;
  const text = await fetchManifest(attempt);
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    throw new RemoteFault({ stage: 'manifest', url: manifestUrl, cause: 'is not JSON', transient: false });
  }
  const problem = checkManifest(manifest, { expose: EXPOSED_SECTION, pageShares: pageShares() });
  if (problem) throw new RemoteFault({ stage: 'manifest', url: manifestUrl, cause: problem, transient: false });

  const files = filesOfManifest(manifest as Record<string, unknown>, manifestUrl);
  registerCheckedRemote(remote, manifestUrl, { text, files: files.scripts }, progress);
  progress.stage = 'entry';
  progress.url = files.entry;
  const exposed = await loadRemote<Partial<SectionModule>>(`${remote}/${EXPOSED_SECTION.replace(/^\.\//, '')}`);
  if (!exposed || typeof exposed.Section !== 'function') {
    throw new RemoteFault({ stage: 'chunk', url: files.entry, cause: `${EXPOSED_SECTION} has no Section component`, transient: false });
  }
  return exposed as SectionModule;
}

/** Attempts until one works, the fault is not transient, the retries are spent or time is up. */
async function loadWithRetries(attempt: Attempt, retries: number, deadlineAt: number): Promise<SectionModule> {
  for (let retry = 0; ; retry += 1) {
    try {
      return await loadOnce(attempt);
    } catch (error) {
      if (attempt.signal.aborted) throw error;
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

async function load(section: SectionId, manifestUrl: string | undefined, { deadlineMs, retries }: RemoteLoading): Promise<SectionModule> {
  const remote = remoteNameOf(section);
  const fail = (detail: FailureDetail): never => {
    const failure: RemoteFailure = { section, remote, ...detail };
    reportFailure(failure);
    throw new SectionLoadError(failure);
  };
  if (!manifestUrl) {
    return fail({ stage: 'manifest', url: '(none)', cause: `config.json gives no valid URL in remotes.${section}`, transient: false });
  }

  const controller = new AbortController();
  const attempt: Attempt = { section, remote, manifestUrl, signal: controller.signal, progress: { stage: 'manifest', url: manifestUrl } };
  const deadlineAt = performance.now() + deadlineMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Module Federation waits 20 s for a script and webpack 120 s for a chunk;
  // the visitor's deadline is enforced here, over every attempt together.
  const timeUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const { stage, url } = attempt.progress;
      const culprit = stage === 'manifest' ? url : (pendingScriptOf(remote) ?? url);
      reject(new RemoteFault({ stage, url: culprit, cause: `did not load within ${deadlineMs / 1000} s`, transient: false }));
      controller.abort();
    }, deadlineMs);
  });
  const work = loadWithRetries(attempt, retries, deadlineAt);
  // Once time is up the attempt's late outcome no longer matters.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, timeUp]);
  } catch (error) {
    return fail(classifyFailure(error, { stage: attempt.progress.stage, manifestUrl }));
  } finally {
    clearTimeout(timer);
    settleRemote(remote, manifestUrl, attempt.progress);
  }
}

const loads = new Map<SectionId, { manifestUrl: string | undefined; promise: Promise<SectionModule> }>();

/**
 * Loads the one module a section's remote exposes, from its manifest URL.
 * Transient faults are retried with backoff; everything, retries included,
 * ends by the deadline. A failure is reported once (console and a
 * `portico:remote-error` event) and rejects with a SectionLoadError. Without
 * `fresh` a second call for the same section and URL shares the first load.
 */
export function loadSection(
  section: SectionId,
  manifestUrl: string | undefined,
  { fresh = false, deadlineMs = DEFAULT_REMOTE_LOADING.deadlineMs, retries = DEFAULT_REMOTE_LOADING.retries }: LoadSectionOptions = {},
): Promise<SectionModule> {
  const previous = loads.get(section);
  if (!fresh && previous && previous.manifestUrl === manifestUrl) return previous.promise;
  const promise = load(section, manifestUrl, { deadlineMs, retries });
  loads.set(section, { manifestUrl, promise });
  return promise;
}

/**
 * Starts every section's load as soon as config.json names them, before React
 * renders. Manifests pinned in config.json are checked, and every remote file
 * is loaded with the hash its manifest gives, from the first request on.
 */
export function startSections(config: SiteConfig, remotes: Partial<Record<SectionId, string>>): void {
  registerPlugins([remoteIntegrityPlugin(config)]);
  for (const section of SECTION_IDS) {
    // Each section's RemoteSection picks up this same load; a failure is
    // handled (and reported) there, not here.
    loadSection(section, remotes[section], config.remoteLoading).catch(() => undefined);
  }
}
