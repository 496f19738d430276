import { launch } from 'chrome-launcher';
import type { Config } from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/support/chromium';

export interface PageFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /**
   * JavaScript transferred before any interaction: every script the page
   * loaded until Lighthouse found it idle, as it travelled (compressed as
   * served, headers included: Lighthouse's transfer size).
   */
  jsBeforeInteractionBytes: number;
  /**
   * Of that, the scripts the page asked for before its largest paint (by
   * when the renderer requested them, against the observed LCP, both on
   * Lighthouse's unthrottled clock), and those it asked for after it.
   */
  jsBeforeLcpBytes: number;
  jsAfterLcpBytes: number;
  /** Lighthouse's main-thread work (parsing, style, layout, script...), as its 4x slower CPU would take it. */
  mainThreadMs: number;
  /**
   * Of that, the time spent compiling, evaluating and running script:
   * Lighthouse's "bootup-time" with its 50 ms floor per script removed
   * (`EVERY_SCRIPT`), so every script the page ran counts.
   */
  scriptMs: number;
  requests: number;
  /** Requests in the longest staircase before LCP, each waiting for the one before. */
  chainLength: number;
  /** When that staircase ends, from the first request, unthrottled. */
  chainMs: number;
}

interface NetworkEvent {
  method: string;
  params: { requestId: string; request?: { url: string }; timestamp?: number };
}

/**
 * The staircase before the largest paint: the longest run of requests each
 * of which started only after the one before it had finished, all done by
 * the LCP. For a federated page: document -> main.js -> bootstrap ->
 * config.json -> manifest -> remoteEntry -> section chunk.
 */
function longestChain(events: readonly NetworkEvent[], lcpSeconds: number): { length: number; endMs: number } {
  const requests = new Map<string, { start: number; end?: number }>();
  for (const { method, params } of events) {
    if (method === 'Network.requestWillBeSent' && params.request && !params.request.url.startsWith('data:')) {
      if (params.timestamp !== undefined && !requests.has(params.requestId)) requests.set(params.requestId, { start: params.timestamp });
    }
    if (method === 'Network.loadingFinished' && params.timestamp !== undefined) {
      const request = requests.get(params.requestId);
      if (request) request.end = params.timestamp;
    }
  }
  const done = [...requests.values()]
    .filter((request): request is { start: number; end: number } => request.end !== undefined && request.end <= lcpSeconds)
    .sort((a, b) => a.start - b.start);
  const navigationStart = done[0]?.start ?? 0;
  // depth[i]: the longest staircase that ends with request i.
  const depth = done.map(() => 1);
  done.forEach((request, i) => {
    for (let j = 0; j < i; j += 1) if (done[j]!.end <= request.start) depth[i] = Math.max(depth[i]!, depth[j]! + 1);
  });
  let best = { length: 0, endMs: 0 };
  done.forEach((request, i) => {
    const endMs = (request.end - navigationStart) * 1000;
    if (depth[i]! > best.length || (depth[i] === best.length && endMs < best.endMs)) best = { length: depth[i]!, endMs };
  });
  return best;
}

type Lhr = {
  categories: Record<string, { score: number | null }>;
  audits: Record<
    string,
    {
      numericValue?: number;
      details?: {
        items?: {
          resourceType?: string;
          mimeType?: string;
          transferSize?: number;
          rendererStartTime?: number;
          observedLargestContentfulPaint?: number;
          observedLargestContentfulPaintTs?: number;
        }[];
      };
    }
  >;
};

function figuresOf(lhr: Lhr, devtoolsLog: NetworkEvent[]): PageFigures {
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const value = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const requests = lhr.audits['network-requests']?.details?.items ?? [];
  // The observed (unthrottled) LCP, on the same monotonic clock as the log.
  const lcpTs = lhr.audits.metrics?.details?.items?.[0]?.observedLargestContentfulPaintTs ?? Number.POSITIVE_INFINITY;
  const chain = longestChain(devtoolsLog, lcpTs / 1e6);
  // Scripts, and scripts fetched ahead (a prefetch is of type "Other" to Lighthouse): by their MIME type too.
  const scripts = requests.filter((item) => item.resourceType === 'Script' || /javascript/.test(item.mimeType ?? ''));
  const bytesOf = (items: typeof scripts) => items.reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
  // The observed LCP from the navigation's start; the requests' times from the first request's (the document's), near enough the same.
  const lcpMs = lhr.audits.metrics?.details?.items?.[0]?.observedLargestContentfulPaint ?? Number.POSITIVE_INFINITY;
  const beforeLcp = scripts.filter((item) => (item.rendererStartTime ?? 0) < lcpMs);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    fcpMs: value('first-contentful-paint'),
    lcpMs: value('largest-contentful-paint'),
    tbtMs: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    jsBeforeInteractionBytes: bytesOf(scripts),
    jsBeforeLcpBytes: bytesOf(beforeLcp),
    jsAfterLcpBytes: bytesOf(scripts) - bytesOf(beforeLcp),
    mainThreadMs: value('mainthread-work-breakdown'),
    scriptMs: value('bootup-time'),
    requests: requests.length,
    chainLength: chain.length,
    chainMs: chain.endMs,
  };
}

/**
 * Lighthouse's default mobile run, with one change: "bootup-time" counts
 * every script. By default it adds up only the scripts whose main-thread
 * time reaches 50 ms each, so a script just over or under that line moved
 * the "of which script" row by 50 ms or more from one run to the next
 * (161 to 286 ms within one build), and a page of small scripts (the
 * federated SSR page's) was measured on a different footing from a page of
 * one large bundle. Nothing in the scores depends on this audit.
 */
const EVERY_SCRIPT: Config = {
  extends: 'lighthouse:default',
  audits: [{ path: 'bootup-time', options: { thresholdInMs: 0 } }],
};

/** Lighthouse's mobile run (`EVERY_SCRIPT`), `runs` times, in one Chromium. */
export async function runLighthouse(url: string, runs: number): Promise<PageFigures[]> {
  const { default: lighthouse } = await import('lighthouse');
  const chrome = await launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_ARGS });
  try {
    const results: PageFigures[] = [];
    // A run Lighthouse itself failed (a timeout on a busy machine: no paint
    // metric, score 0) says nothing about the page: it is run again, twice
    // at most per run, and named.
    let failures = 0;
    while (results.length < runs) {
      const result = await lighthouse(url, { port: chrome.port, logLevel: 'error', output: 'json' }, EVERY_SCRIPT);
      if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
      const lhr = result.lhr as unknown as Lhr & { runtimeError?: { code: string } };
      const artifacts = result.artifacts as unknown as { DevtoolsLog?: NetworkEvent[]; devtoolsLogs?: Record<string, NetworkEvent[]> };
      const log = artifacts.DevtoolsLog ?? artifacts.devtoolsLogs?.defaultPass ?? [];
      const figures = figuresOf(lhr, log);
      if (lhr.runtimeError || Number.isNaN(figures.lcpMs)) {
        failures += 1;
        process.stdout.write(` [a run failed: ${lhr.runtimeError?.code ?? 'no LCP'}, run again]`);
        if (failures > 2 * runs) throw new Error(`Lighthouse failed ${failures} times on ${url}`);
        continue;
      }
      results.push(figures);
    }
    return results;
  } finally {
    chrome.kill();
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The median of each figure over the runs. */
export function medianFigures(runs: readonly PageFigures[]): PageFigures {
  const keys = Object.keys(runs[0]!) as (keyof PageFigures)[];
  return Object.fromEntries(keys.map((key) => [key, median(runs.map((run) => run[key]))])) as unknown as PageFigures;
}
