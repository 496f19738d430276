import { rmSync } from 'node:fs';
import { makeEmbeddedTemplate } from '@portico/platform/testing';
import { useMemoryTmpdir } from '@portico/testing/memory-tmpdir';
import { changeContactText, copyRepository, SECOND_BUILD_APPS, SECOND_BUILD_ENV, SECOND_BUILD_PENDING_ENV, startSecondBuild } from './second-build';

/**
 * Before the browser tests: a copy of the repository whose remote-contact
 * shows a different text, with Contact and Home built there (SECOND_BUILD_APPS). The tests use it as
 * a team's second real build (swap, redeploy, integrity) and compare it with
 * the repository's own build (independent, reproducible builds). The builds
 * run beside the first specs, which do not need them (the machine has CPU to
 * spare then); a spec that does waits in secondBuildRoot. A developer may
 * keep the copy (PORTICO_KEEP_SECOND_BUILD=1) and point PORTICO_SECOND_BUILD
 * at it next time to skip the builds.
 */
export default async function globalSetup(): Promise<() => void> {
  if (process.env[SECOND_BUILD_ENV]) {
    const removeScratch = useMemoryTmpdir();
    const removeTemplate = await makeEmbeddedTemplate();
    return () => {
      removeTemplate();
      removeScratch();
    };
  }
  const started = Date.now();
  // On the disk, before the scratch folder moves to memory: the copy hard-links the repository's node_modules.
  const root = copyRepository();
  changeContactText(root);
  const removeScratch = useMemoryTmpdir();
  const build = startSecondBuild(root);
  build.done.then(
    (ended) =>
      ended === 'built' && console.log(`second build of ${SECOND_BUILD_APPS.join(' and ')} in ${root} (${((Date.now() - started) / 1000).toFixed(0)} s)`),
    (error: Error) => console.error(`the second build failed; the specs that use it fail with its reason:\n${error.message}`),
  );
  // Set before the workers start, which inherit them.
  process.env[SECOND_BUILD_ENV] = root;
  process.env[SECOND_BUILD_PENDING_ENV] = '1';
  // The servers the specs start (run-cli.ts) open their data folders' databases as copies of this template.
  const removeTemplate = await makeEmbeddedTemplate().catch((error: unknown) => {
    build.stop();
    removeScratch();
    throw error;
  });
  return () => {
    build.stop();
    removeTemplate();
    removeScratch();
    if (!process.env.PORTICO_KEEP_SECOND_BUILD) rmSync(root, { recursive: true, force: true });
  };
}
