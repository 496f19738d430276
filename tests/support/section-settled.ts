import type { Locator } from '@playwright/test';
import { ISLAND_ATTRIBUTE, ISLAND_STATE_ATTRIBUTE } from '@portico/contract/page-parts';
import { expect } from './fixtures';

/**
 * Until a visit to `section` (shown in `panel`) has an outcome its visit
 * report tells: its code ran (a server-rendered island hydrated, or the
 * section rendered in the browser) or failed (its alert). A server-rendered
 * island shows its fields before its code arrives, and a page left then
 * reports nothing of the section (it was still loading): a visit that
 * should count waits for this, not for the fields. (On a busy machine the
 * code can arrive after the network has been idle for a while.)
 */
export async function untilSettled(panel: Locator, section: string, timeout = 15_000): Promise<void> {
  const island = `[${ISLAND_ATTRIBUTE}="${section}"]`;
  const hydrated = panel.locator(`${island}[${ISLAND_STATE_ATTRIBUTE}="hydrated"]`);
  // Rendered in the browser: no page script marks the island, and its fields appear only once its code has run
  // (a visible one: the no-JavaScript form's hidden language field comes first).
  const rendered = panel.locator(`${island}:not([${ISLAND_STATE_ATTRIBUTE}]) input:not([type="hidden"])`);
  await expect(panel.getByRole('alert').or(hydrated).or(rendered).first()).toBeVisible({ timeout });
}
