import { chromium, type CDPSession, type Page } from '@playwright/test';
import { PAGE_DATA_ID } from '@portico/contract/page-data';
import { ISLAND_ATTRIBUTE } from '../host/src/remotes/island-contract';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/support/chromium';

/** The container of the Contact section's island, in every page whose sections are islands. */
export const CONTACT_ISLAND = `[${ISLAND_ATTRIBUTE}="contact"]`;
/** What the host sets on a server-rendered island's container once its React root has hydrated (or rendered the section afresh). */
export const HYDRATED_ISLAND = `${CONTACT_ISLAND}[data-island-state="hydrated"]`;
/** The hydration data only a server-rendered page carries. */
export const SERVER_RENDERED = `#${PAGE_DATA_ID}`;
/**
 * A one-root page (the single bundle SSR, which has no page script): the
 * shell's `<main>` once the App's effect has started the shell's behaviour,
 * which is when the whole tree, the form too, has hydrated.
 */
export const HYDRATED_PAGE = 'main[data-enhanced]';

/** No request for this long: the network is idle, as Lighthouse's own network-quiet threshold has it. */
const QUIET_MS = 1000;
const STEP_TIMEOUT_MS = 30_000;

export interface ContactVisit {
  /**
   * Script bytes transferred from the start of the visit until the Contact
   * form had hydrated and the network was idle again: as they travelled
   * (compressed, headers included), counted as Lighthouse counts its
   * `transferSize`, so the figure adds to its "before interaction" one.
   */
  jsBytes: number;
  /** How the visit knew the form had hydrated. */
  hydratedBy: string;
  /** Errors the page logged (a hydration mismatch shows here). */
  errors: string[];
}

/**
 * Scripts and requests in flight, from Chromium's own network events: a
 * script's bytes are its `encodedDataLength` at the end of its load, the
 * number Lighthouse reports as its transfer size.
 */
export function watchNetwork(cdp: CDPSession) {
  const inFlight = new Map<string, string>();
  const scripts = new Set<string>();
  let scriptBytes = 0;
  let lastChange = Date.now();
  cdp.on('Network.requestWillBeSent', ({ requestId, request }) => {
    if (request.url.startsWith('data:')) return;
    inFlight.set(requestId, request.url);
    lastChange = Date.now();
  });
  // Scripts, and scripts fetched ahead (a prefetch is of type "Other"): by their MIME type too. A script
  // later served from the cache a prefetch filled adds its few bytes of headers, as Lighthouse counts it.
  cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
    if (type === 'Script' || /javascript/.test(response.mimeType)) scripts.add(requestId);
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    if (scripts.has(requestId)) scriptBytes += encodedDataLength;
    inFlight.delete(requestId);
    lastChange = Date.now();
  });
  cdp.on('Network.loadingFailed', ({ requestId }) => {
    inFlight.delete(requestId);
    lastChange = Date.now();
  });
  return {
    scriptBytes: () => scriptBytes,
    /** Resolves once nothing has been in flight for QUIET_MS. */
    async idle(): Promise<void> {
      const deadline = Date.now() + STEP_TIMEOUT_MS;
      while (inFlight.size > 0 || Date.now() - lastChange < QUIET_MS) {
        if (Date.now() > deadline) throw new Error(`the network was not idle within ${STEP_TIMEOUT_MS / 1000} s: ${[...inFlight.values()].join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}

/** Waits for the Contact form, on screen, to be interactive; says how it knew. */
async function contactHydrated(page: Page): Promise<string> {
  if ((await page.locator(CONTACT_ISLAND).count()) === 0) {
    await page.locator(HYDRATED_PAGE).waitFor({ state: 'attached', timeout: STEP_TIMEOUT_MS });
    return HYDRATED_PAGE;
  }
  // Drawn by React in the browser, the form is live as soon as it is shown.
  if ((await page.locator(SERVER_RENDERED).count()) === 0) return 'rendered in the browser';
  await page.locator(HYDRATED_ISLAND).waitFor({ state: 'attached', timeout: STEP_TIMEOUT_MS });
  return HYDRATED_ISLAND;
}

/** A Chromium page with Lighthouse's mobile screen and user agent, the errors it logs collected; closed by `close`. */
export async function mobilePage(): Promise<{ page: Page; cdp: CDPSession; errors: string[]; close(): Promise<void> }> {
  const { screenEmulationMetrics, userAgents } = await import('lighthouse/core/config/constants.js');
  const screen = screenEmulationMetrics.mobile;
  if (!screen) throw new Error("Lighthouse's constants name no mobile screen");
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({
      viewport: { width: screen.width, height: screen.height },
      deviceScaleFactor: screen.deviceScaleFactor,
      isMobile: screen.mobile,
      hasTouch: screen.mobile,
      userAgent: userAgents.mobile,
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text().slice(0, 300));
    });
    page.on('pageerror', (error) => errors.push(error.message.slice(0, 300)));
    const cdp = await context.newCDPSession(page);
    return { page, cdp, errors, close: () => browser.close() };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/**
 * One visit, as a visitor who wants to write to the company: open `url`
 * with Lighthouse's mobile screen and user agent, wait for the network to be
 * idle, select the "Contact us" tab, wait until the Contact form has
 * hydrated and the network is idle again, and add up every script
 * transferred.
 */
export async function visitContact(url: string): Promise<ContactVisit> {
  const { page, cdp, errors, close } = await mobilePage();
  try {
    const network = watchNetwork(cdp);
    await cdp.send('Network.enable');

    await page.goto(url);
    await network.idle();
    await page.getByRole('tab', { name: 'Contact us' }).click();
    await page.getByRole('button', { name: 'Send message' }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
    const hydratedBy = await contactHydrated(page);
    await network.idle();
    return { jsBytes: network.scriptBytes(), hydratedBy, errors };
  } finally {
    await close();
  }
}
