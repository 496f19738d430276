// The embedded database in the tests: a run opens some thirty new PGlite
// databases, and PGlite makes each with initdb in WASM, one to three seconds
// of CPU apiece. So jest's global setup (`makeTemplate`) makes one cluster per
// run, and every new database starts as a copy of it (`seedFromTemplate`, in
// each test file's setup): PGlite still opens it, so every query, migration
// and file mode the tests check is PGlite's own. A folder that is not empty is
// never touched, and without the template (a test file run by another runner)
// PGlite makes its databases itself.
const { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');

const TEMPLATE_ENV = 'PORTICO_TEST_EMBEDDED_TEMPLATE';

/** jest globalSetup: the template, once per run (each project that opens databases names this module; the first makes it). */
async function makeTemplate() {
  if (process.env[TEMPLATE_ENV]) return;
  const { PGlite } = require('@electric-sql/pglite');
  const folder = mkdtempSync(path.join(tmpdir(), 'portico-pglite-template-'));
  const cluster = path.join(folder, 'cluster');
  const db = await PGlite.create(cluster);
  await db.close();
  // Set before jest starts its workers, which inherit it.
  process.env[TEMPLATE_ENV] = cluster;
  process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
}

/** setupFiles: PGlite.create on a missing or empty folder copies the template there first. */
/* global jest -- the setup file runs inside jest, which provides it */
function seedFromTemplate() {
  jest.mock('@electric-sql/pglite', () => {
    const pglite = jest.requireActual('@electric-sql/pglite');
    const template = process.env[TEMPLATE_ENV];
    if (!template) return pglite;
    const create = pglite.PGlite.create.bind(pglite.PGlite);
    pglite.PGlite.create = (dataDir, ...rest) => {
      if (typeof dataDir === 'string' && (!existsSync(dataDir) || readdirSync(dataDir).length === 0)) cpSync(template, dataDir, { recursive: true });
      return create(dataDir, ...rest);
    };
    return pglite;
  });
}

module.exports = { makeTemplate, seedFromTemplate, TEMPLATE_ENV };
