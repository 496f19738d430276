import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium';

/**
 * Browser tests against the production build (`npm run build` first). Each
 * worker serves the built apps on its own ports; Debian's Chromium is used
 * because browsers cannot be downloaded on the build machines.
 */
export default defineConfig({
  testDir: 'specs',
  globalSetup: './support/global-setup.ts',
  outputDir: 'test-results',
  timeout: 30_000,
  expect: { timeout: 5_000 },
  workers: 2,
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
    trace: 'off',
  },
});
