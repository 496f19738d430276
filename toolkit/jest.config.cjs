const base = require('../jest.config.base.cjs')(__dirname);

// Coverage of the toolkit on its own (`npm test -w @portico/toolkit`). The
// root run takes the reporter and the threshold from the root config, since
// jest reads those two only from the configuration it was started with.
module.exports = {
  ...base,
  collectCoverage: true,
  collectCoverageFrom: ['src/**/*.{ts,tsx}', '!**/__tests__/**'],
  coverageReporters: ['text-summary'],
  coverageThreshold: { global: { lines: 90 } },
};
