import { defineConfig } from '@playwright/test';

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
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'off',
  },
});
