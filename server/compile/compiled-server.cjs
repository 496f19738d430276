// Where the compiled server is and whether it may be started: written by
// compile-server.ts, read by serve.cjs. Plain JavaScript, so that the
// launcher needs nothing compiled to say that the server is missing.
'use strict';
const { existsSync, readFileSync, statSync } = require('node:fs');
const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '../..');
const COMPILED_SERVER = path.join(REPO_ROOT, 'server/dist/main.js');
/** `{ builtAt, inputs }`: when the build started (ms since the epoch) and the source files it read, from the repository's root. */
const COMPILED_INPUTS = path.join(REPO_ROOT, 'server/dist/inputs.json');

/**
 * Why the compiled server must not be started (missing, or older than a
 * source it was made from), or undefined. A server older than its sources
 * would serve yesterday's behaviour with no sign of it.
 * @returns {string | undefined}
 */
function compiledServerProblem() {
  if (!existsSync(COMPILED_SERVER) || !existsSync(COMPILED_INPUTS)) return `the compiled server is missing (${path.relative(REPO_ROOT, COMPILED_SERVER)})`;
  const { builtAt, inputs } = JSON.parse(readFileSync(COMPILED_INPUTS, 'utf8'));
  for (const input of inputs) {
    const file = path.join(REPO_ROOT, input);
    if (!existsSync(file) || statSync(file).mtimeMs > builtAt) return `the compiled server is older than its sources (${input} changed since it was built)`;
  }
  return undefined;
}

module.exports = { REPO_ROOT, COMPILED_SERVER, COMPILED_INPUTS, compiledServerProblem };
