/**
 * The browser every script here drives: Debian's Chromium (browsers cannot be
 * downloaded on the build machines), or the one CHROMIUM_PATH names.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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
