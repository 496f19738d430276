// `npm run release`: the release command as `npm run build` compiled it
// (compile/compile-server.ts), when it is there and made from the sources as
// they are now; otherwise the sources themselves through tsx. Unlike the
// server, a missing or older build is no reason to refuse: a team's CI may
// publish from a clone it never built, and the sources are the command as it
// is now. The compiled command takes about 0.16 CPU-s a call, tsx's 0.47
// (issue 47; docs/decisions/performance.md).
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { PROGRAMS, REPO_ROOT, compiledProblem } = require('./compile/compiled-server.cjs');

const { entry, out } = PROGRAMS.release;
if (compiledProblem('release') === undefined) {
  require(path.join(REPO_ROOT, out));
} else {
  // tsx's loader found from this checkout, or from where the command runs (a copy of the launcher in a test).
  const tsx = require.resolve('tsx', { paths: [__dirname, process.cwd()] });
  const run = spawnSync(process.execPath, ['--import', pathToFileURL(tsx).href, path.join(REPO_ROOT, entry), ...process.argv.slice(2)], { stdio: 'inherit' });
  if (run.error) throw run.error;
  if (run.signal) process.kill(process.pid, run.signal);
  process.exitCode = run.status ?? 1;
}
