import { launch } from 'chrome-launcher';

/** The flags every Chromium run here needs: headless, and no background traffic. */
export const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface PageFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** JavaScript bytes on the wire (compressed as served). */
  jsBytes: number;
  requests: number;
  /** Requests in the longest chain of requests each started by the one before. */
  chainLength: number;
  /** When the last request of that chain finished, from navigation start. */
  chainMs: number;
}

interface NetworkEvent {
  method: string;
  params: {
    requestId: string;
    request?: { url: string };
    initiator?: { type: string; url?: string; stack?: { callFrames: { url: string }[]; parent?: unknown } };
    timestamp?: number;
  };
}

/**
 * The longest chain of requests in which each was started by a script or
 * document fetched by the one before: for a federated page the staircase
 * document -> main.js -> config.json -> manifest -> remoteEntry -> chunk.
 */
export function longestChain(events: readonly NetworkEvent[]): { length: number; endMs: number } {
  const parentOf = new Map<string, string | undefined>();
  const finishedAt = new Map<string, number>();
  const urlOf = new Map<string, string>();
  let start: number | undefined;
  for (const event of events) {
    if (event.method === 'Network.requestWillBeSent' && event.params.request) {
      const url = event.params.request.url;
      if (url.startsWith('data:')) continue;
      start ??= event.params.timestamp;
      urlOf.set(event.params.requestId, url);
      const initiator = event.params.initiator;
      const frames = initiator?.stack?.callFrames ?? [];
      parentOf.set(url, initiator?.url ?? frames.find((frame) => frame.url)?.url);
    }
    if (event.method === 'Network.loadingFinished' && event.params.timestamp !== undefined) {
      const url = urlOf.get(event.params.requestId);
      if (url) finishedAt.set(url, event.params.timestamp);
    }
  }
  const depth = (url: string, seen = new Set<string>()): number => {
    const parent = parentOf.get(url);
    if (!parent || parent === url || seen.has(parent) || !parentOf.has(parent)) return 1;
    seen.add(url);
    return 1 + depth(parent, seen);
  };
  let best = { length: 0, endMs: 0 };
  for (const url of parentOf.keys()) {
    const length = depth(url);
    const endMs = ((finishedAt.get(url) ?? 0) - (start ?? 0)) * 1000;
    if (length > best.length || (length === best.length && endMs > best.endMs)) best = { length, endMs };
  }
  return best;
}

type Lhr = {
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { numericValue?: number; details?: { items?: { resourceType?: string; transferSize?: number }[] } }>;
};

function figuresOf(lhr: Lhr, devtoolsLog: NetworkEvent[]): PageFigures {
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const value = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const requests = lhr.audits['network-requests']?.details?.items ?? [];
  const chain = longestChain(devtoolsLog);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    fcpMs: value('first-contentful-paint'),
    lcpMs: value('largest-contentful-paint'),
    tbtMs: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    jsBytes: requests.filter((item) => item.resourceType === 'Script').reduce((sum, item) => sum + (item.transferSize ?? 0), 0),
    requests: requests.length,
    chainLength: chain.length,
    chainMs: chain.endMs,
  };
}

/** Lighthouse's default mobile run, `runs` times, in one Chromium. */
export async function runLighthouse(url: string, runs: number): Promise<PageFigures[]> {
  const { default: lighthouse } = await import('lighthouse');
  const chrome = await launch({ chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', chromeFlags: CHROME_FLAGS });
  try {
    const results: PageFigures[] = [];
    for (let run = 0; run < runs; run += 1) {
      const result = await lighthouse(url, { port: chrome.port, logLevel: 'error', output: 'json' });
      if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
      const artifacts = result.artifacts as unknown as { DevtoolsLog?: NetworkEvent[]; devtoolsLogs?: Record<string, NetworkEvent[]> };
      const log = artifacts.DevtoolsLog ?? artifacts.devtoolsLogs?.defaultPass ?? [];
      results.push(figuresOf(result.lhr as unknown as Lhr, log));
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
