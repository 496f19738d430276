import { rmSync } from 'node:fs';
import { makeEmbeddedTemplate } from '@portico/platform/testing';
import { buildSecond, changeContactText, copyRepository, SECOND_BUILD_APPS, SECOND_BUILD_ENV } from './second-build';

/**
 * Before the browser tests: a copy of the repository whose remote-contact
 * shows a different text, with Contact and Home built there (SECOND_BUILD_APPS). The tests use it as
 * a team's second real build (swap, redeploy, integrity) and compare it with
 * the repository's own build (independent, reproducible builds). A developer
 * may keep the copy (PORTICO_KEEP_SECOND_BUILD=1) and point
 * PORTICO_SECOND_BUILD at it next time to skip the ~1 minute.
 */
export default async function globalSetup(): Promise<() => void> {
  if (process.env[SECOND_BUILD_ENV]) return makeEmbeddedTemplate();
  const started = Date.now();
  const root = copyRepository();
  changeContactText(root);
  const building = buildSecond(root);
  // The servers the specs start (run-cli.ts) open their data folders' databases as copies of this template, made
  // while webpack builds in processes of its own.
  const removeTemplate = await makeEmbeddedTemplate();
  await building.catch((error: unknown) => {
    removeTemplate();
    throw error;
  });
  process.env[SECOND_BUILD_ENV] = root;
  console.log(`second build of ${SECOND_BUILD_APPS.join(' and ')} in ${root} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  if (process.env.PORTICO_KEEP_SECOND_BUILD) return removeTemplate;
  return () => {
    removeTemplate();
    rmSync(root, { recursive: true, force: true });
  };
}
