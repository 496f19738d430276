// Where the compiled Node programs are and whether they may be run: written
// by compile-server.ts, read by the launchers (serve.cjs, release.cjs).
// Plain JavaScript, so that a launcher needs nothing compiled to say that a
// program is missing.
'use strict';
const { existsSync, readFileSync, statSync } = require('node:fs');
const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '../..');

/**
 * The programs `npm run build -w @portico/server` compiles: the serving
 * process, and the release command an operator and every team's CI run (a
 * call 0.16 CPU-s instead of tsx's 0.47). `entry` and `out` from the
 * repository's root; `inputs` is `{ builtAt, inputs }`: when the build
 * started (ms since the epoch) and the source files it read.
 */
const PROGRAMS = {
  server: { what: 'the compiled server', entry: 'server/src/main.ts', out: 'server/dist/main.js', inputs: 'server/dist/inputs.json' },
  release: {
    what: 'the compiled release command',
    entry: 'releases/src/cli/release-cli.ts',
    out: 'server/dist/release-cli.js',
    inputs: 'server/dist/release-cli.inputs.json',
  },
};

const COMPILED_SERVER = path.join(REPO_ROOT, PROGRAMS.server.out);

/**
 * Why `program` (a key of PROGRAMS) must not be run as compiled (missing, or
 * older than a source it was made from), or undefined. A program older than
 * its sources would run yesterday's behaviour with no sign of it.
 * @param {keyof typeof PROGRAMS} program
 * @returns {string | undefined}
 */
function compiledProblem(program) {
  const { what, out, inputs: inputsFile } = PROGRAMS[program];
  if (!existsSync(path.join(REPO_ROOT, out)) || !existsSync(path.join(REPO_ROOT, inputsFile))) return `${what} is missing (${out})`;
  const { builtAt, inputs } = JSON.parse(readFileSync(path.join(REPO_ROOT, inputsFile), 'utf8'));
  for (const input of inputs) {
    const file = path.join(REPO_ROOT, input);
    if (!existsSync(file) || statSync(file).mtimeMs > builtAt) return `${what} is older than its sources (${input} changed since it was built)`;
  }
  return undefined;
}

module.exports = { REPO_ROOT, PROGRAMS, COMPILED_SERVER, compiledProblem };
