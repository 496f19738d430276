import { expect, type Locator, type Page } from '@playwright/test';

const START = new Date('2026-01-05T09:00:00Z');

/**
 * The page's clock, installed before the page loads: it starts at a fixed
 * time and flows as real time does, so the page starts as usual.
 */
export async function installClock(page: Page): Promise<void> {
  await page.clock.install({ time: START });
}

/**
 * Waits until `control` takes input from the section's own code: enabled, and
 * its section's island hydrated (before that, the page script holds a submit
 * and makes it again after hydration, which runs on the page's timers).
 */
export async function expectHydrated(control: Locator): Promise<void> {
  await expect(control).toBeEnabled();
  const island = control.locator('xpath=ancestor::*[@data-section-island][1]');
  // Two steps, each its own wait on a busy machine: the page script asks for
  // the island after its first paint, then the island hydrates. (The send
  // button, enabled in the server's HTML since issue 49, no longer says that
  // the page script has run.)
  await expect(island).toHaveAttribute('data-island-state', /^(requested|hydrated)$/);
  await expect(island).toHaveAttribute('data-island-state', 'hydrated');
}

/**
 * Stops the page's clock (an hour after the start, so real time spent loading
 * can never have passed it). From here on only `page.clock.runFor` moves it:
 * a duration the specification sets (a toast's second, a deadline) is then
 * measured on the page's own timers, never by the wall clock between polls,
 * and a 1 s toast stays for as long as a busy machine takes to look at it.
 * `ready` (a button) is waited for first: the page's start-up and hydration
 * run on timers, so the clock stops only once the page takes input.
 */
export async function stopClock(page: Page, ready?: Locator): Promise<void> {
  if (ready) await expectHydrated(ready);
  await page.clock.pauseAt(new Date(START.getTime() + 3_600_000));
}

/**
 * Stops the page's clock about where it is (a second on, so the request can
 * never land in its past), and returns how long ago, on that clock,
 * `since()` (a `performance.now()` the page noted) was: the part of a
 * deadline already spent.
 */
export async function pauseClockNow(page: Page, since: () => number): Promise<number> {
  for (;;) {
    const now = await page.evaluate(() => Date.now());
    try {
      await page.clock.pauseAt(new Date(now + 1000));
      break;
    } catch (error) {
      // A very busy machine took over a second between the two calls: again.
      if (!String(error).includes('past')) throw error;
    }
  }
  const noted = await page.evaluate(since);
  return (await page.evaluate(() => performance.now())) - noted;
}

/**
 * Checks that `durationMs` is how long something lasts on the page's stopped
 * clock: still there 1 ms before, gone at `durationMs`.
 */
export async function expectLastsExactly(page: Page, durationMs: number, stillThere: () => Promise<void>, gone: () => Promise<void>): Promise<void> {
  await page.clock.runFor(durationMs - 1);
  await stillThere();
  await page.clock.runFor(1);
  await gone();
}
