import { existsSync } from 'node:fs';

/**
 * The browser the benchmarks and screenshots drive: Debian's Chromium
 * (browsers cannot be downloaded on the build machines), or the one
 * CHROMIUM_PATH names.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Debian's build of Chromium's headless shell (`apt-get install
 * chromium-headless-shell`): the same Chromium, Blink and V8, without the
 * desktop browser around them. Playwright's own headless Chromium is this
 * shell; with it Chromium's share of the browser tests' CPU is half what
 * the full browser's was (docs/decisions/testing.md).
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/**
 * The browser the browser tests drive: CHROMIUM_PATH when set, else the
 * headless shell when installed (`bash .ci/run` installs it), else the full
 * Chromium.
 */
export const TEST_CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM_PATH);

/** Headless, and no background traffic: the machines reach no network but loopback. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
