import { defineConfig } from '@playwright/test';
import base from '../playwright.config';

/**
 * The nginx smoke test (`npm run test:nginx`, which starts nginx first). Not
 * part of `npm test`: it needs nginx, which only .ci/run installs.
 */
export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../test-results/nginx',
  globalSetup: undefined,
  workers: 1,
});
