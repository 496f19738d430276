import { sectionManifestPath } from '@portico/contract/manifest-relay';
import type { Page } from '@playwright/test';
import { expect, test, type Lab } from '../support/fault-lab';
import { rewriteEntryRequirement, rewriteManifest } from '../support/fault-server';
import { installClock, pauseClockNow, stopClock } from '../support/page-clock';

// Contact us is served by the fault server; Home and About by the site itself.

interface ReportedFailure {
  section: string;
  remote: string;
  stage: string;
  url: string;
  cause: string;
}

/** Records every `portico:remote-error` event and every console line the page prints. */
async function watchReports(page: Page) {
  await page.addInitScript(() => {
    const seen: unknown[] = [];
    Object.assign(window, { remoteErrors: seen });
    window.addEventListener('portico:remote-error', (event) => seen.push((event as CustomEvent).detail));
  });
  const console: { type: string; text: string }[] = [];
  page.on('console', (message) => console.push({ type: message.type(), text: message.text() }));
  return {
    events: () => page.evaluate(() => (window as unknown as { remoteErrors: ReportedFailure[] }).remoteErrors),
    /** The page's own reports (browser network lines left out). */
    errors: () => console.filter((line) => line.type === 'error' && line.text.startsWith('Portico:')).map((line) => line.text),
    warnings: () => console.filter((line) => line.type === 'warning' && line.text.startsWith('Portico:')).map((line) => line.text),
  };
}

const contactPanel = (page: Page) => page.getByRole('tabpanel', { name: 'Contact us' });

/** The calm alert in Contact's place, and the rest of the page still working. */
async function expectContactFailedCalmly(page: Page) {
  const alert = contactPanel(page).getByRole('alert');
  await expect(alert).toContainText('The Contact us section could not be loaded.');
  await expect(alert.getByRole('button', { name: 'Try again' })).toBeVisible();
  await expect(alert).not.toContainText(/\bat \S+:\d+/); // no stack trace

  await expect(page.getByRole('navigation')).toContainText('Portico Credit');
  await expect(page.getByRole('contentinfo')).toContainText('Company NamePortico Credit');
  await page.getByRole('tab', { name: 'Home' }).click();
  await expect(page.getByRole('heading', { name: 'A personal loan in three steps' })).toBeVisible();
  await page.getByRole('tab', { name: 'About Us' }).click();
  await expect(page.getByRole('tabpanel', { name: 'About Us' })).toContainText('Portico Credit offers');
  await page.getByRole('tab', { name: 'Contact us' }).click();
  await expect(contactPanel(page).getByRole('alert')).toBeVisible();
}

/** Exactly one report, on the console and as an event, with the same details. */
async function expectReportedOnce(reports: Awaited<ReturnType<typeof watchReports>>, expected: Partial<ReportedFailure>) {
  const events = await reports.events();
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({ section: 'contact', remote: 'portico_contact', ...expected });
  const errors = reports.errors();
  expect(errors).toHaveLength(1);
  const { stage, url, cause } = events[0]!;
  expect(errors[0]).toBe(`Portico: the contact section (remote portico_contact) failed at the ${stage} stage: ${url} ${cause}`);
}

const count = (lab: Lab, pathname: string) => lab.faults.requests.filter((path) => path === pathname).length;

test('(1) a manifest that answers 404 fails Contact alone, reported once, not retried', async ({ page, lab }) => {
  const reports = await watchReports(page);
  lab.faults.fault('/mf-manifest.json', { status: 404 });
  await page.goto(`${lab.site.url}/#contact`);
  await expectContactFailedCalmly(page);
  // The reason in words; the status is on the console.
  await expect(contactPanel(page).getByRole('alert')).toContainText('Its description could not be fetched from its server, or was not valid.');
  await expectReportedOnce(reports, { stage: 'manifest', url: lab.faults.manifestUrl, cause: 'answered HTTP 404' });
  expect(count(lab, '/mf-manifest.json')).toBe(1);
});

test('(2) a manifest that answers 500 is retried, then fails with the status', async ({ page, lab }) => {
  const reports = await watchReports(page);
  lab.faults.fault('/mf-manifest.json', { status: 500 });
  await page.goto(`${lab.site.url}/#contact`);
  await expectContactFailedCalmly(page);
  await expectReportedOnce(reports, { stage: 'manifest', url: lab.faults.manifestUrl, cause: 'answered HTTP 500' });
  expect(count(lab, '/mf-manifest.json')).toBe(3); // the first try and config's default 2 retries
  expect(reports.warnings()).toHaveLength(2);
});

for (const [what, body, cause] of [
  ['not JSON', '<!doctype html><p>Welcome to nginx!</p>', 'is not JSON'],
  ['JSON that is not a federation manifest', '{"name":"contact","version":"1.0.0"}', 'is not a Module Federation manifest (no metaData, exposes, shared)'],
] as const) {
  test(`(3) a manifest that is ${what} fails Contact with that reason`, async ({ page, lab }) => {
    const reports = await watchReports(page);
    lab.faults.fault('/mf-manifest.json', { body, contentType: 'application/json' });
    await page.goto(`${lab.site.url}/#contact`);
    await expectContactFailedCalmly(page);
    await expectReportedOnce(reports, { stage: 'manifest', url: lab.faults.manifestUrl, cause });
  });
}

test('(4) a remoteEntry.js that answers 404 fails at the entry stage', async ({ page, lab }) => {
  const reports = await watchReports(page);
  lab.faults.fault('/remoteEntry.js', { status: 404 });
  await page.goto(`${lab.site.url}/#contact`);
  await expectContactFailedCalmly(page);
  await expectReportedOnce(reports, {
    stage: 'entry',
    url: `${lab.faults.origin}/remoteEntry.js`,
    cause: 'could not be loaded (missing, unreachable or refused)',
  });
});

test('(5) an exposed chunk that answers 404 fails at the chunk stage', async ({ page, lab }) => {
  const reports = await watchReports(page);
  lab.faults.fault(lab.faults.exposedChunk, { status: 404 });
  await page.goto(`${lab.site.url}/#contact`);
  await expectContactFailedCalmly(page);
  await expectReportedOnce(reports, {
    stage: 'chunk',
    url: `${lab.faults.origin}${lab.faults.exposedChunk}`,
    cause: 'could not be loaded (missing, unreachable or refused)',
  });
});

test('(6) a manifest that never answers shows the alert at 9 s, by default', async ({ page, lab }) => {
  const reports = await watchReports(page);
  lab.faults.fault('/mf-manifest.json', { hang: true });
  // When the manifest fetch starts (Contact starts loading), on the page's
  // clock: the page asks its own origin, which relays the fault server's
  // manifest and, the origin never answering, holds the page's fetch past
  // the page's deadline (RELAY_TIMEOUT_MS), so the deadline tested is the page's.
  await page.addInitScript(
    (relayedPath) => {
      const times: { loadingAt?: number } = {};
      Object.assign(window, { hangTimes: times });
      const fetch = window.fetch.bind(window);
      window.fetch = (input, init) => {
        if (String(input instanceof Request ? input.url : input) === relayedPath) times.loadingAt ??= performance.now();
        return fetch(input, init);
      };
    },
    sectionManifestPath('contact', lab.faults.manifestUrl),
  );
  await installClock(page);

  await page.goto(lab.site.url);
  // Contact hanging delays nothing else: Home and About are there while it still loads.
  await expect(page.getByRole('heading', { name: 'A personal loan in three steps' })).toBeVisible();
  await expect(page.getByRole('tabpanel', { name: 'About Us', includeHidden: true })).toContainText('Portico Credit offers');
  await expect(page.getByRole('tabpanel', { name: 'Contact us', includeHidden: true })).toContainText('Loading Contact us…');
  await page.getByRole('tab', { name: 'Contact us' }).click();

  // The deadline is the page's own timer: with its clock stopped, it is
  // checked on that clock (to 0.1 s: the timer starts just before the fetch).
  const spent = await pauseClockNow(page, () => (window as unknown as { hangTimes: { loadingAt: number } }).hangTimes.loadingAt);
  expect(spent, 'the page took longer to load than the deadline it is tested for').toBeLessThan(8_900);
  await page.clock.runFor(8_900 - spent);
  await expect(contactPanel(page)).toContainText('Loading Contact us…');
  await page.clock.runFor(100);
  await expect(contactPanel(page).getByRole('alert')).toBeVisible();
  await page.clock.resume();
  await expectContactFailedCalmly(page);
  await expectReportedOnce(reports, { stage: 'manifest', url: lab.faults.manifestUrl, cause: 'did not load within 9 s' });
});

test('(6) a chunk that never answers fails at the chunk stage by the configured deadline, and Try again recovers', async ({ page, lab }) => {
  const reports = await watchReports(page);
  lab.configure({ remoteLoading: { deadlineMs: 2000 } });
  lab.faults.fault(lab.faults.exposedChunk, { hang: true });
  await installClock(page);
  // Sections start loading before the window's load event, so a chunk that
  // never answers holds that event open: wait only for the document.
  await page.goto(`${lab.site.url}/#contact`, { waitUntil: 'domcontentloaded' });
  // Once Home and About are shown (their own loads done) and Contact's chunk
  // is asked for, the page's clock jumps on: the deadline is the page's own
  // timer, so the alert comes however busy the machine is.
  await expect(page.getByRole('tabpanel', { name: 'Home', includeHidden: true })).toContainText('A personal loan in three steps');
  await expect(page.getByRole('tabpanel', { name: 'About Us', includeHidden: true })).toContainText('Portico Credit offers');
  await expect.poll(() => count(lab, lab.faults.exposedChunk)).toBeGreaterThan(0);
  await stopClock(page);
  await expect(contactPanel(page).getByRole('alert')).toBeVisible();
  await page.clock.resume();
  await expectContactFailedCalmly(page);
  await expectReportedOnce(reports, {
    stage: 'chunk',
    url: `${lab.faults.origin}${lab.faults.exposedChunk}`,
    cause: 'did not load within 2 s',
  });

  lab.faults.clear();
  await contactPanel(page).getByRole('button', { name: 'Try again' }).click();
  await expect(contactPanel(page).getByRole('button', { name: 'Send message' })).toBeVisible();
  expect(lab.faults.requests).toContain(lab.faults.exposedChunk);
});

test('(7) a section that throws while rendering fails at the render stage', async ({ page, lab }) => {
  const reports = await watchReports(page);
  lab.faults.fault(lab.faults.exposedChunk, {
    rewrite: (text) => text.replace(/Section:\(\)=>[\w$.]+/, 'Section:()=>function(){throw new Error("tampered section")}'),
  });
  await page.goto(`${lab.site.url}/#contact`);
  await expectContactFailedCalmly(page);
  await expectReportedOnce(reports, { stage: 'render', url: lab.faults.manifestUrl, cause: 'threw while rendering: tampered section' });
});

test('(8) a remote that no longer exposes ./section fails with that reason', async ({ page, lab }) => {
  const reports = await watchReports(page);
  // As a build whose expose was renamed: the manifest and the container agree.
  lab.faults.fault('/mf-manifest.json', {
    rewrite: rewriteManifest((manifest) => {
      manifest.exposes[0]!.name = 'form';
      manifest.exposes[0]!.path = './form';
    }),
  });
  lab.faults.fault('/remoteEntry.js', { rewrite: (text) => text.replace('"./section":', '"./form":') });
  await page.goto(`${lab.site.url}/#contact`);
  await expectContactFailedCalmly(page);
  await expectReportedOnce(reports, {
    stage: 'manifest',
    url: lab.faults.manifestUrl,
    cause: 'does not expose ./section (it exposes ./form)',
  });
});

test('(8) a container missing ./section that its manifest still lists fails at the entry stage', async ({ page, lab }) => {
  const reports = await watchReports(page);
  lab.faults.fault('/remoteEntry.js', { rewrite: (text) => text.replace('"./section":', '"./form":') });
  await page.goto(`${lab.site.url}/#contact`);
  await expectContactFailedCalmly(page);
  await expectReportedOnce(reports, { stage: 'entry', cause: 'does not expose ./section' });
});

test('a remote built for another React is refused before it loads, not crashed into', async ({ page, lab }) => {
  const reports = await watchReports(page);
  lab.faults.fault('/mf-manifest.json', {
    rewrite: rewriteManifest((manifest) => {
      for (const shared of manifest.shared) if (shared.name === 'react') shared.requiredVersion = '^17.0.0';
    }),
  });
  lab.faults.fault('/remoteEntry.js', { rewrite: rewriteEntryRequirement('react', '^17.0.0') });
  await page.goto(`${lab.site.url}/#contact`);
  await expectContactFailedCalmly(page);
  const [event] = await reports.events();
  expect(event?.cause).toMatch(/^needs react \^17\.0\.0 but the page shares 19\.\d+\.\d+$/);
  await expectReportedOnce(reports, { stage: 'manifest', url: lab.faults.manifestUrl });
  expect(lab.faults.requests).not.toContain('/remoteEntry.js');
});

test('a transient failure is retried with no click, and the section shows', async ({ page, lab }) => {
  const reports = await watchReports(page);
  lab.faults.fault('/mf-manifest.json', { status: 503, times: 1 });
  await page.goto(`${lab.site.url}/#contact`);
  await expect(contactPanel(page).getByRole('button', { name: 'Send message' })).toBeVisible();
  await expect(contactPanel(page).getByRole('alert')).toHaveCount(0);
  expect(count(lab, '/mf-manifest.json')).toBe(2);
  expect(reports.warnings()).toEqual([expect.stringContaining('answered HTTP 503); retry 1 of 2')]);
  expect(await reports.events()).toEqual([]);
});

test('Try again, once the fault is gone, loads Contact afresh', async ({ page, lab }) => {
  lab.faults.fault('/mf-manifest.json', { status: 404 });
  await page.goto(`${lab.site.url}/#contact`);
  await expect(contactPanel(page).getByRole('alert')).toBeVisible();

  lab.faults.clear();
  await contactPanel(page).getByRole('button', { name: 'Try again' }).click();
  await expect(contactPanel(page).getByRole('button', { name: 'Send message' })).toBeVisible();
  await expect(contactPanel(page).getByRole('alert')).toHaveCount(0);
  expect(lab.faults.requests).toEqual(expect.arrayContaining(['/mf-manifest.json', '/remoteEntry.js']));
});

test('Try again after a broken build drops the old remoteEntry and chunks and fetches them again', async ({ page, lab }) => {
  const reports = await watchReports(page);
  lab.faults.fault(lab.faults.exposedChunk, {
    rewrite: (text) => text.replace(/Section:\(\)=>[\w$.]+/, 'Section:()=>function(){throw new Error("tampered section")}'),
  });
  await page.goto(`${lab.site.url}/#contact`);
  await expect(contactPanel(page).getByRole('alert')).toContainText('It stopped with an error while showing its content.');
  await expect.poll(() => reports.errors().join('\n')).toContain('threw while rendering: tampered section');

  lab.faults.clear();
  await contactPanel(page).getByRole('button', { name: 'Try again' }).click();
  await expect(contactPanel(page).getByRole('button', { name: 'Send message' })).toBeVisible();
  expect(lab.faults.requests).toEqual(expect.arrayContaining(['/mf-manifest.json', '/remoteEntry.js', lab.faults.exposedChunk]));
});
