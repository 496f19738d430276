// jest's side of the embedded-database template (@portico/platform/testing,
// embedded-template.ts): the projects whose tests open PGlite make it in their
// global setup, and in each test file PGlite.create seeds a new folder from it.
// The PostgreSQL server's tests get the same from test-postgres.ts: one
// initdb a run, a copy of its cluster for each server a test starts.
const TEMPLATE = require.resolve('../platform/src/testing/embedded-template.ts');
const SERVER_TEMPLATE = require.resolve('../platform/src/testing/test-postgres.ts');
const MEMORY_TMPDIR = require.resolve('./src/memory-tmpdir.ts');

/** globalSetup: the templates, once per run (the first project that names this makes them). */
async function makeTemplate() {
  // First, so that the templates and every copy of them are in the run's scratch folder in memory.
  require(MEMORY_TMPDIR).useMemoryTmpdir();
  const remove = await require(TEMPLATE).makeEmbeddedTemplate();
  const removeServer = require(SERVER_TEMPLATE).makePostgresTemplate();
  process.on('exit', () => {
    remove();
    removeServer();
  });
}

/* global jest -- the setup file runs inside jest, which provides it */
/** setupFiles: PGlite.create on a missing or empty folder copies the template there first. */
function seedFromTemplate() {
  jest.mock('@electric-sql/pglite', () => {
    const pglite = jest.requireActual('@electric-sql/pglite');
    const { seedEmbeddedDatabase } = jest.requireActual(TEMPLATE);
    const create = pglite.PGlite.create.bind(pglite.PGlite);
    pglite.PGlite.create = (dataDir, ...rest) => {
      if (typeof dataDir === 'string') seedEmbeddedDatabase(dataDir);
      return create(dataDir, ...rest);
    };
    return pglite;
  });
}

module.exports = { makeTemplate, seedFromTemplate };
