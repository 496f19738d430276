import type { Page } from '@playwright/test';

/**
 * What went wrong in a visit, as it happens: console errors (React's
 * recoverable errors among them), uncaught errors and CSP violations. Call
 * before the page is opened; the list fills as the visit goes on.
 */
export async function watchProblems(page: Page): Promise<string[]> {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return problems;
}
