const PACKAGES = ['webpack', 'shared-config', 'host', 'remote-home', 'remote-about', 'remote-contact', 'messages', 'server', 'deploy'];

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
  // shared-config is the code every app loads; its coverage is held to 90 %
  // of lines in the full run as in its own.
  collectCoverage: true,
  collectCoverageFrom: ['shared-config/src/**/*.{ts,tsx}', '!shared-config/src/testing/**', '!**/__tests__/**'],
  coverageReporters: ['text-summary'],
  coverageThreshold: { './shared-config/src/': { lines: 90 } },
};
