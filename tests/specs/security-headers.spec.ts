import { sendWithBothToasts, serverStoresMessages } from '../support/contact-api';
import { expect, test } from '../support/fixtures';
import { installClock } from '../support/page-clock';

declare global {
  interface Window {
    cspViolations: string[];
    loadedElements: { url: string; integrity: string | null; crossorigin: string | null }[];
  }
}

test('a whole visit (three tabs, both contact toasts) raises no CSP violation and no console error', async ({ page, site }) => {
  await page.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.cspViolations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
    });
    // Module Federation removes its script elements once loaded: note each as it is added.
    window.loadedElements = [];
    new MutationObserver((mutations) => {
      for (const node of mutations.flatMap((mutation) => [...mutation.addedNodes])) {
        // A server-rendered page's hydration data is a script element with no src: data, not code.
        if ((node instanceof HTMLScriptElement && node.src) || (node instanceof HTMLLinkElement && node.rel === 'stylesheet')) {
          window.loadedElements.push({
            url: node instanceof HTMLScriptElement ? node.src : node.href,
            integrity: node.getAttribute('integrity'),
            crossorigin: node.getAttribute('crossorigin'),
          });
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
  await serverStoresMessages(page);
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));

  await installClock(page);
  const response = await page.goto(site.url);
  const csp = response?.headers()['content-security-policy'] ?? '';
  // Nothing inline but the page script, allowed by its hash; code only from Contact's origin (the one section granted script); connections to the page's own.
  expect(csp).toMatch(new RegExp(`script-src 'sha256-[A-Za-z0-9+/]+=*' 'self' ${site.origin(3)};`));
  expect(csp).toContain("connect-src 'self';");
  expect(csp).not.toContain('unsafe');

  await expect(page.getByRole('heading', { name: 'A personal loan in three steps' })).toBeVisible();
  await page.getByRole('tab', { name: 'About Us' }).click();
  await expect(page.getByRole('tabpanel', { name: 'About Us' }).getByRole('heading', { name: 'About Us' })).toBeVisible();
  await page.getByRole('tab', { name: 'Contact us' }).click();

  const contact = page.getByRole('tabpanel', { name: 'Contact us' });
  await sendWithBothToasts(page, contact);

  // Every script and stylesheet taken from a remote's origin was checked against its hash.
  const loaded = await page.evaluate(() => window.loadedElements);
  const fromRemotes = loaded.filter((element) => new URL(element.url).origin !== site.url);
  // Home and About are static: the server's HTML is final and their code never loads; Contact's does.
  expect(fromRemotes.filter((element) => /\/island\.[0-9a-f]{10}\.js$/.test(element.url)).map((element) => new URL(element.url).origin)).toEqual([
    site.origin(3),
  ]);
  // The sections' stylesheets are the page's copies, each with its hash, the three the server linked: Contact's island finds its own linked already (none from its origin).
  expect(fromRemotes.filter((element) => element.url.endsWith('.css'))).toEqual([]);
  const copies = loaded.filter((element) => new URL(element.url).pathname.startsWith('/section-styles/'));
  expect(copies).toHaveLength(3);
  for (const element of [...fromRemotes, ...copies]) {
    expect(element.integrity, element.url).toMatch(/^sha384-/);
    expect(element.crossorigin, element.url).toBe('anonymous');
  }

  expect(await page.evaluate(() => window.cspViolations)).toEqual([]);
  expect(errors).toEqual([]);
});

test("the page's CSP blocks an inline script injected into it, and says so", async ({ page, site }) => {
  // Only a browser enforces the policy; the server-level tests read the header (request-answers.test.ts).
  await page.goto(site.url);
  await expect(page.getByRole('heading', { name: 'A personal loan in three steps' })).toBeVisible();
  const outcome = await page.evaluate(
    () =>
      new Promise<{ ran: boolean; directive: string }>((resolve) => {
        const injected = window as unknown as { injectedRan?: boolean };
        document.addEventListener('securitypolicyviolation', (event) => resolve({ ran: injected.injectedRan === true, directive: event.effectiveDirective }), {
          once: true,
        });
        const script = document.createElement('script');
        script.textContent = 'window.injectedRan = true;';
        document.body.append(script);
        // An inline script that is allowed runs as it is added: fail at once, not at the test's timeout.
        if (injected.injectedRan) resolve({ ran: true, directive: '(none: no violation)' });
      }),
  );
  expect(outcome).toEqual({ ran: false, directive: 'script-src-elem' });
});
