// Preloaded into a program under test (NODE_OPTIONS=--require …): on SIGUSR2
// it writes the modules the program has loaded so far and its node options to
// the file named by PORTICO_TEST_LOADED_MODULES, so that a test can say what
// a running server holds (serve-process.test.ts: no build toolchain).
'use strict';
const { renameSync, writeFileSync } = require('node:fs');

const file = process.env.PORTICO_TEST_LOADED_MODULES;
if (file) {
  process.on('SIGUSR2', () => {
    // Written beside, then renamed: the test waits for the file to exist, and must never read it half-written.
    writeFileSync(`${file}.partial`, JSON.stringify({ execArgv: process.execArgv, modules: Object.keys(require.cache) }));
    renameSync(`${file}.partial`, file);
  });
}
