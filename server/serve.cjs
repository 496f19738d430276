// `npm run serve`: the compiled server (compile/compile-server.ts, made by
// `npm run build`), started only when it is there and made from the sources
// as they are now; otherwise the reason, and exit code 1. `--check`: only
// that test, exit code 0 when the server may be started.
'use strict';
const { COMPILED_SERVER, compiledProblem } = require('./compile/compiled-server.cjs');
const { lowerForStart } = require('./compile/start-priority.cjs');

const problem = compiledProblem('server');
if (problem) {
  console.error(`Portico: ${problem}; run \`npm run build\` (or \`npm run build -w @portico/server\`) first.`);
  process.exit(1);
}
if (!process.argv.includes('--check')) {
  // The start (loading the server's modules included) yields the CPU to what
  // already serves, a restarted server's neighbour above all, until the
  // page's port opens (PORTICO_START_NICE; compile/start-priority.cjs).
  const start = lowerForStart();
  require(COMPILED_SERVER).servePortico({ onReady: start.restore });
}
