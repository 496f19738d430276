import type { Page } from '@playwright/test';
import { CONTACT_ISLAND, HYDRATED_ISLAND, HYDRATED_PAGE, mobilePage, SERVER_RENDERED, watchNetwork } from './contact-visit';
import { median } from './lighthouse-runs';

/**
 * The bench's "tap to ready" row (issue 50): a visitor on a slow phone taps
 * the "Contact us" tab; how long until its send button works? Measured in
 * Chromium under applied throttling (CDP's network emulation with
 * Lighthouse's slow 4G figures, and its CPU 4x slower), not Lighthouse's
 * simulation, which knows nothing of what a tap starts.
 */

/** How long one step may take under throttling before the visit is called failed. */
const STEP_TIMEOUT_MS = 60_000;

/** How the page says its form works: which marker, on top of the send button being on screen. */
type ReadySignal = 'island' | 'page' | 'browser';

/**
 * The marker that says the Contact form's handlers are attached, as
 * contact-visit.ts reads it: the island's container marked hydrated (the
 * host sets it once the section's React root has committed), the one-root
 * SSR page's `<main>` enhanced, or, for a page drawn in the browser, the
 * form itself (React drew it live).
 */
async function readySignalOf(page: Page): Promise<ReadySignal> {
  if ((await page.locator(CONTACT_ISLAND).count()) === 0) return 'page';
  return (await page.locator(SERVER_RENDERED).count()) === 0 ? 'browser' : 'island';
}

/**
 * Resolves with the milliseconds from the visitor's first pointerdown to the
 * first moment the send button is on screen and the form's code is
 * attached (`signal`), on the page's own clock: a poll from Node would add
 * its round trips to a page whose CPU is slowed 4x.
 */
function tapToReadyInPage(page: Page, signal: ReadySignal): Promise<number> {
  const marker = signal === 'island' ? HYDRATED_ISLAND : signal === 'page' ? HYDRATED_PAGE : null;
  // A string, not a function: tsx would wrap the function's inner functions in a helper the page does not have.
  return page.evaluate(`new Promise((resolve, reject) => {
    const marker = ${JSON.stringify(marker)};
    let tapAt;
    const check = () => {
      const send = [...document.querySelectorAll('[role="tabpanel"] button')].find((button) => button.textContent.trim() === 'Send message');
      if (tapAt === undefined || (marker && !document.querySelector(marker)) || !send || !send.checkVisibility()) return;
      observer.disconnect();
      clearInterval(poll);
      resolve(performance.now() - tapAt);
    };
    const observer = new MutationObserver(check);
    observer.observe(document, { attributes: true, childList: true, subtree: true });
    // A change no mutation shows (a stylesheet arriving): checked a few times a second too.
    const poll = setInterval(check, 50);
    document.addEventListener('pointerdown', () => { tapAt ??= performance.now(); check(); }, { capture: true });
    setTimeout(() => reject(new Error('the send button did not work within ${STEP_TIMEOUT_MS / 1000} s of the tap')), ${STEP_TIMEOUT_MS});
  })`) as Promise<number>;
}

/**
 * One visit under throttling: open `url`, wait until the network has been
 * quiet for a second (a visitor reading the first screen), tap "Contact us",
 * and time it until the form works.
 */
async function oneTap(url: string, blocked: readonly string[]): Promise<{ ms: number; signal: ReadySignal; errors: string[] }> {
  const { throttling } = await import('lighthouse/core/config/constants.js');
  const slow4g = throttling.mobileSlow4G;
  const { page, cdp, errors, close } = await mobilePage();
  try {
    const network = watchNetwork(cdp);
    await cdp.send('Network.enable');
    if (blocked.length > 0) await cdp.send('Network.setBlockedURLs', { urls: [...blocked] });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: slow4g.requestLatencyMs ?? 562.5,
      downloadThroughput: ((slow4g.downloadThroughputKbps ?? 1474.56) * 1024) / 8,
      uploadThroughput: ((slow4g.uploadThroughputKbps ?? 675) * 1024) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: slow4g.cpuSlowdownMultiplier ?? 4 });
    await page.goto(url, { timeout: STEP_TIMEOUT_MS });
    await network.idle();
    const signal = await readySignalOf(page);
    const ready = tapToReadyInPage(page, signal);
    await page.getByRole('tab', { name: 'Contact us' }).tap({ timeout: STEP_TIMEOUT_MS });
    return { ms: await ready, signal, errors };
  } finally {
    await close();
  }
}

export interface TapFigures {
  /** The median of the runs, ms. */
  tapToReadyMs: number;
  runsMs: number[];
  signal: ReadySignal;
}

/**
 * `runs` throttled visits, each in a fresh browser (nothing cached), and
 * their median. `blocked`: URL patterns the browser refuses (CDP's
 * `Network.setBlockedURLs`), to measure the page without one of its parts.
 */
export async function measureTapToReady(url: string, runs: number, blocked: readonly string[] = []): Promise<TapFigures> {
  const runsMs: number[] = [];
  let signal: ReadySignal = 'browser';
  for (let run = 0; run < runs; run += 1) {
    const tap = await oneTap(url, blocked);
    if (tap.errors.length > 0) console.log(`  the page logged ${tap.errors.length} error(s) on a tap visit, the first: ${tap.errors[0]}`);
    runsMs.push(Math.round(tap.ms));
    signal = tap.signal;
  }
  return { tapToReadyMs: median(runsMs), runsMs, signal };
}
