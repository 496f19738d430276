// jest's side of the embedded-database template (@portico/platform/testing,
// embedded-template.ts): the projects whose tests open PGlite make it in their
// global setup, and in each test file PGlite.create seeds a new folder from it.
const TEMPLATE = require.resolve('../platform/src/testing/embedded-template.ts');
const MEMORY_TMPDIR = require.resolve('./src/memory-tmpdir.ts');

/** globalSetup: the template, once per run (the first project that names this makes it). */
async function makeTemplate() {
  // First, so that the template and every copy of it are in the run's scratch folder in memory.
  require(MEMORY_TMPDIR).useMemoryTmpdir();
  const remove = await require(TEMPLATE).makeEmbeddedTemplate();
  process.on('exit', remove);
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
