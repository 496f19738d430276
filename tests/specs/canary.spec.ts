import path from 'node:path';
import type { Browser, BrowserContext } from '@playwright/test';
import { VISIT_PATH } from '@portico/contract/beacon';
import { APP_DIRS } from '@portico/contract/sections';
import { brokenInTheBrowser } from '../support/broken-build';
import { expect, test, workerPorts, writeConfig } from '../support/fixtures';
import { runRelease, runServe, waitForOutput, type ServeProcess } from '../support/run-cli';
import { SECOND_BUILD_LABEL, secondBuildRoot } from '../support/second-build';
import { untilSettled } from '../support/section-settled';
import { serveUnderPath, type StaticServer } from '../support/static-server';

const TOKEN = 'the-integrators-canary-token';
/** Bounds on the number of visits a decision may take: far above what the thresholds need. */
const MAX_VISITS = 60;

// Canaries judged by what real browsers report (docs/releases.md, "Canaries"):
// `npm run serve` with its canary judge, visits from fresh browser contexts
// (fresh cohorts), each leaving its page so the page sends its visit report.
// Port slot 16 (the control API on slot 17's first port, unused meanwhile).
// Every visit comes from this one machine, one network: the canaries run with
// minNetworks 1, which lifts the network bounds (tested in @portico/releases
// and server/src/__tests__/canary-attack.test.ts) so they decide as before.
// The slowdown rule is left out here (maxSlowdown 10: ten times slower): headless visits have
// no INP and a p75 LCP over a dozen visits is noise; it is unit-tested.

// Each decision takes the visits its thresholds need, a flush (2 s) and a judge's round (5 s).
test.describe.configure({ mode: 'serial', timeout: 240_000 });

let serve: ServeProcess;
let port: number;
let healthy: StaticServer;
let broken: StaticServer;
let removeBroken: () => void;
/** Contact's first release, active from the start. */
let firstRelease: string;

// eslint-disable-next-line no-empty-pattern -- Playwright needs the destructuring
test.beforeAll(async ({}, testInfo) => {
  port = workerPorts(testInfo.parallelIndex, 16);
  const secondDist = path.join(await secondBuildRoot(), APP_DIRS.contact, 'dist');
  const brokenBuild = brokenInTheBrowser(secondDist);
  removeBroken = brokenBuild.remove;
  healthy = await serveUnderPath(secondDist, '/contact/healthy/', workerPorts(testInfo.parallelIndex, 13));
  broken = await serveUnderPath(brokenBuild.dir, '/contact/broken/', workerPorts(testInfo.parallelIndex, 13) + 1);
  const configPath = writeConfig(port, {
    allowedRemoteOrigins: [new URL(healthy.url).origin, new URL(broken.url).origin],
    // A failed section is not tried again: each visit is decided quickly.
    remoteLoading: { retries: 0 },
  });
  serve = runServe({
    PORT: String(port),
    PORTICO_CONFIG: configPath,
    PORTICO_CONTROL_TOKEN: TOKEN,
    // Every visit here comes from this one machine: past the default 30 per 10 minutes, its reports would not count.
    PORTICO_BEACON_REPORTS_PER_NETWORK: '1000',
  });
  await waitForOutput(serve);
  firstRelease = /contact-\d+/.exec(await release('publish', 'contact', `http://localhost:${port + 3}/mf-manifest.json`))![0];
  await release('activate', 'contact', firstRelease);
});

test.afterAll(async () => {
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  await Promise.all([healthy?.close(), broken?.close()]);
  removeBroken?.();
});

async function release(...args: string[]): Promise<string> {
  return runRelease(args, { port: port, token: TOKEN });
}

async function control(method: string, route: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`http://127.0.0.1:${port + 4}${route}`, {
    method,
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} ${route}`).toBeLessThan(300);
  return response.json();
}

type Seen = 'before' | 'after' | 'failed';

/** One visit to Contact in `context`: which build the visitor saw; the page is then left, so it reports. */
async function visit(context: BrowserContext): Promise<Seen> {
  const page = await context.newPage();
  await page.goto(`http://localhost:${port}/#contact`);
  const contact = page.getByRole('tabpanel', { name: 'Contact us' });
  // Settled: the section hydrated, or its code failed (a candidate broken in
  // the browser is server-rendered first: its fields show before it fails).
  await untilSettled(contact, 'contact');
  const before = contact.getByRole('textbox', { name: SECOND_BUILD_LABEL.en.before, exact: true });
  const after = contact.getByRole('textbox', { name: SECOND_BUILD_LABEL.en.after, exact: true });
  const alert = contact.getByRole('alert');
  await expect(before.or(after).or(alert).first()).toBeVisible({ timeout: 15_000 });
  const seen: Seen = (await alert.count()) ? 'failed' : (await after.count()) ? 'after' : 'before';
  // Closing with its unload handlers is not waited for by Playwright: a context closed before the page has gone loses its report.
  const gone = page.waitForEvent('close');
  await page.close({ runBeforeUnload: true });
  await gone;
  return seen;
}

/**
 * Until this server serves the canary: it warms the candidate's build first
 * (up to 1.2 s) and swaps it in when warm, so a visit right after the
 * command may still get the page without cohorts (no cookie).
 */
async function untilCanaryServed(): Promise<void> {
  await expect.poll(async () => (await fetch(`http://localhost:${port}/`)).headers.get('set-cookie') ?? '', { timeout: 15_000 }).toContain('portico_cohort=');
}

/** The judge's decision is in the store at once; the server serves it once it has heard of it and warmed the release it now serves: no cohort cookie then. */
async function untilCanaryOver(): Promise<void> {
  await expect
    .poll(async () => (await fetch(`http://localhost:${port}/`)).headers.get('set-cookie') ?? '', { timeout: 15_000 })
    .not.toContain('portico_cohort=');
}

/** Fresh browsers visiting at once: a batch of visitors, each a new cohort. */
const BATCH = 4;

/** From a candidate's last reported visit to the judge's entry: the server's flush (every 2 s) and the judge's round (every 5 s), with room. */
const JUDGED_WITHIN_MS = 10_000;

/**
 * Visits from fresh browsers (each a new cohort), a batch at a time, until the
 * audit log has `action`: the visits it took, and the entry. Once `enough`
 * says the candidate has the visits the decision needs, no more visits are
 * made while the judge may still be deciding (more would only cost time);
 * visiting goes on if it has not decided then (a report lost on the way).
 * `seenAlready` counts visits made before (they are in the judge's window too).
 */
async function visitUntil(
  browser: Browser,
  action: string,
  enough: (seen: Record<Seen, number>) => boolean,
  seenAlready: Record<Seen, number> = { before: 0, after: 0, failed: 0 },
): Promise<{ visits: number; seen: Record<Seen, number>; entry: { detail: string; actor: string } }> {
  const seen = { ...seenAlready };
  const find = async () =>
    ((await control('GET', '/api/audit?section=contact')) as { action: string; detail: string; actor: string }[]).find((item) => item.action === action);
  let entry: Awaited<ReturnType<typeof find>>;
  // The visits made before may be all the decision needs: the judge is then asked before any batch.
  for (let visits = 0; ; visits += BATCH) {
    if (enough(seen)) {
      await expect
        .poll(async () => (entry = await find()), { timeout: JUDGED_WITHIN_MS })
        .toBeDefined()
        .catch(() => undefined);
    } else {
      entry = await find();
    }
    if (entry) return { visits, seen, entry };
    if (visits >= MAX_VISITS) throw new Error(`no ${action} after ${MAX_VISITS} visits (seen ${JSON.stringify(seen)})`);
    const outcomes = await Promise.all(
      Array.from({ length: BATCH }, async () => {
        const context = await browser.newContext();
        try {
          return await visit(context);
        } finally {
          await context.close();
        }
      }),
    );
    for (const outcome of outcomes) seen[outcome] += 1;
  }
}

test('a page comes with its visit id: a reload (a 304) with a new one, a page from the history cache asks for one; each report counts once', async ({
  browser,
}) => {
  const visitsOfFirst = async () =>
    ((await control('GET', '/api/sections')) as { contact: { health: Record<string, { visits: number }> } }).contact.health[firstRelease]?.visits ?? 0;
  const before = await visitsOfFirst();
  const context = await browser.newContext();
  const asked: string[] = [];
  context.on('request', (request) => {
    if (new URL(request.url()).pathname === VISIT_PATH) asked.push(request.url());
  });
  const page = await context.newPage();
  // Each visit counts once Contact's code has run (left before, a page reports nothing of it).
  const contactReady = () => untilSettled(page.getByRole('tabpanel', { name: 'Contact us' }), 'contact');
  expect((await page.goto(`http://localhost:${port}/#contact`))!.status()).toBe(200);
  await contactReady();
  // Reloading revalidates the page: the server's 304 carries a new id, which replaces the one the browser kept with the page
  // (The browser shows the page it kept, with the 304's headers: the status Playwright sees is the kept 200's.)
  const reloaded = (await page.reload())!;
  expect(await reloaded.request().headerValue('if-none-match')).toBe(await reloaded.headerValue('etag'));
  await contactReady();
  // Away, then back: the browser takes the page from its cache without asking, so its id is the first one's, reported already; it asks for one.
  await page.goto(`http://localhost:${port}/robots.txt`);
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === VISIT_PATH);
  await page.goBack();
  expect((await answered).status()).toBe(200);
  await contactReady();
  await page.close({ runBeforeUnload: true });
  expect(asked).toHaveLength(1);
  // Three reports, each with an id of its own (an id counts once): three visits for the active release.
  await expect.poll(visitsOfFirst, { timeout: JUDGED_WITHIN_MS }).toBe(before + 3);
  await context.close();
});

test('a visitor keeps their cohort across ten visits; a healthy candidate is promoted by the judge once it has its visits', async ({ browser }, testInfo) => {
  const candidate = /contact-\d+/.exec(await release('publish', 'contact', `${healthy.url}mf-manifest.json`))![0];
  await release('canary', 'contact', candidate, '--percent', '50', '--min-visits', '1000', '--max-slowdown', '10', '--min-networks', '1');
  await untilCanaryServed();

  // The first visit draws the cohort; the nine after it, at once, carry its cookie.
  const context = await browser.newContext();
  const cohortVisits = [await visit(context), ...(await Promise.all(Array.from({ length: 9 }, () => visit(context))))];
  await context.close();
  const seen = new Set<Seen>(cohortVisits);
  expect(seen.size, `one browser saw ${[...seen].join(' and ')}`).toBe(1);

  // The same canary, now asking for promotion after five healthy visits (its window kept). The ten visits above count:
  // when they were the candidate's, the judge has its five already and no fresh visitor is needed; when they were
  // not, 90 % of the fresh visitors get the candidate (at 50 % its five took twice the visitors).
  const promoteAfterVisits = 5;
  await control('POST', '/api/sections/contact/canary', { release: candidate, percent: 90, minVisits: 5, promoteAfterVisits, maxSlowdown: 10 });
  const cohortSeen: Record<Seen, number> = { before: 0, after: 0, failed: 0 };
  for (const outcome of cohortVisits) cohortSeen[outcome] += 1;
  const { visits, seen: counts, entry } = await visitUntil(browser, 'promote', (seen) => seen.after >= promoteAfterVisits, cohortSeen);
  testInfo.annotations.push({ type: 'promoted', description: `after ${visits} more visits (${JSON.stringify(counts)}): ${entry.detail}` });
  process.stdout.write(`canary promoted after ${visits} more visits ${JSON.stringify(counts)}: ${entry.detail}\n`);
  expect(entry.actor).toBe('canary-judge');
  expect(counts.failed).toBe(0);
  await untilCanaryOver();
  for (let count = 0; count < 3; count++) {
    const fresh = await browser.newContext();
    expect(await visit(fresh)).toBe('after');
    await fresh.close();
  }
});

test('a candidate that fails in the browser is rolled back by the judge, with the numbers; then every visit gets the active release', async ({
  browser,
}, testInfo) => {
  const candidate = /contact-\d+/.exec(await release('publish', 'contact', `${broken.url}mf-manifest.json`))![0];
  const minVisits = 10;
  // 90 %: nearly every visit is one of the candidate's ten the judge needs (at 50 % it took twice the visitors for the same ten).
  await control('POST', '/api/sections/contact/canary', { release: candidate, percent: 90, minVisits, maxSlowdown: 10, minNetworks: 1 });
  // Visits before the server serves the canary all get the active release: a batch that counts for nothing.
  await untilCanaryServed();

  const { visits, seen, entry } = await visitUntil(browser, 'auto-rollback', (seen) => seen.failed >= minVisits);
  testInfo.annotations.push({ type: 'rolled back', description: `after ${visits} visits (${JSON.stringify(seen)}): ${entry.detail}` });
  process.stdout.write(`canary rolled back after ${visits} visits ${JSON.stringify(seen)}: ${entry.detail}\n`);
  expect(entry.actor).toBe('canary-judge');
  expect(entry.detail).toMatch(new RegExp(`candidate ${candidate}: \\d+ visits, \\d+ failures`));
  expect(seen.failed).toBeGreaterThanOrEqual(10);

  // The canary is over: no cohort cookie, the active (promoted) release for everyone.
  await untilCanaryOver();
  for (let count = 0; count < 5; count++) {
    const fresh = await browser.newContext();
    expect(await visit(fresh)).toBe('after');
    expect(await fresh.cookies()).toEqual([]);
    await fresh.close();
  }
});
