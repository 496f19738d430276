const { existsSync } = require('node:fs');
const path = require('node:path');

/**
 * Every workspace with a jest config (a section a team adds with
 * `npm run section:new` joins by being a workspace), and the benchmarks.
 */
const PACKAGES = [...require('./package.json').workspaces.filter((workspace) => existsSync(path.join(__dirname, workspace, 'jest.config.cjs'))), 'bench'];

// Jest reads these only from the configuration it was started with and warns
// when a project sets them, so each package's own coverage settings apply
// when it runs alone and the ones below apply here.
const STARTED_WITH_ONLY = ['coverageReporters', 'coverageThreshold'];

function project(name) {
  const config = { ...require(`./${name}/jest.config.cjs`) };
  for (const key of STARTED_WITH_ONLY) delete config[key];
  return config;
}

module.exports = {
  projects: PACKAGES.map(project),
  // The run's scratch files in memory where /dev/shm has room (testing/src/memory-tmpdir.ts).
  globalSetup: './testing/memory-tmpdir-setup.cjs',
  // shared-config is the code every app loads and the toolkit the code the
  // wider app builds on; each is held to 90 % of lines in the full run as in
  // its own.
  collectCoverage: true,
  collectCoverageFrom: ['{shared-config,toolkit}/src/**/*.{ts,tsx}', '!**/__tests__/**'],
  coverageReporters: ['text-summary'],
  coverageThreshold: { './shared-config/src/': { lines: 90 }, './toolkit/src/': { lines: 90 } },
};
