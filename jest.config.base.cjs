// One jest setup for every package: swc strips the types (tsc -b checks them
// separately in `npm test`), jsdom for React, jest-dom matchers.
const path = require('node:path');

/**
 * @param {string} dir the package folder
 * @param {{ environment?: 'jsdom' | 'node', coverage?: boolean, embeddedDatabase?: boolean }} [options] `embeddedDatabase`: the tests open PGlite
 *   (@portico/platform/database); `coverage`: held to 90 % of lines when the package's tests run alone
 *   (`npm test -w <package>`); the root run takes the reporter and the threshold from the root config, since jest reads those two only from the
 *   configuration it was started with.
 */
module.exports = function jestConfig(dir, options = {}) {
  const swc = [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', tsx: true },
        transform: { react: { runtime: 'automatic' } },
        target: 'es2022',
      },
    },
  ];
  return {
    displayName: path.basename(dir),
    rootDir: dir,
    testEnvironment: options.environment ?? 'jsdom',
    testMatch: ['<rootDir>/src/**/__tests__/**/*.test.{ts,tsx}'],
    transform: { '^.+\\.(t|j)sx?$': swc, ...(options.embeddedDatabase ? { '^.+\\.cjs$': swc } : {}) },
    // PGlite's CommonJS build loads its files with `import()`, which jest's
    // module sandbox refuses without --experimental-vm-modules; compiled by
    // swc like our own code, those become require() calls.
    ...(options.embeddedDatabase ? { transformIgnorePatterns: ['/node_modules/(?!@electric-sql/pglite/)'] } : {}),
    moduleNameMapper: {
      '\\.css$': path.join(__dirname, 'testing/style-stub.cjs'),
      '\\.(svg|png|webp|jpg)$': path.join(__dirname, 'testing/file-stub.cjs'),
    },
    setupFilesAfterEnv: options.environment === 'node' ? [] : [path.join(__dirname, 'testing/jest-setup.ts')],
    // A new PGlite database starts as a copy of one made once per run (testing/embedded-database-template.cjs).
    ...(options.embeddedDatabase
      ? { globalSetup: path.join(__dirname, 'testing/embedded-database-setup.cjs'), setupFiles: [path.join(__dirname, 'testing/embedded-database-seed.cjs')] }
      : {}),
    clearMocks: true,
    restoreMocks: true,
    ...(options.coverage
      ? {
          collectCoverage: true,
          collectCoverageFrom: ['src/**/*.{ts,tsx}', '!**/__tests__/**'],
          coverageReporters: ['text-summary'],
          coverageThreshold: { global: { lines: 90 } },
        }
      : {}),
  };
};
