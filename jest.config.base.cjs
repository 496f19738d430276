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
    // Compiled by swc like our own code, where jest's module sandbox cannot
    // load a file as it is: PGlite's CommonJS build loads its files with
    // `import()` (refused without --experimental-vm-modules, those become
    // require() calls), and Fastify's `inject` (light-my-request) requires
    // `cookie` 2, which is ESM only (Node 20 requires it; jest cannot).
    transformIgnorePatterns: [
      `^(?!.*/node_modules/(${[...(options.embeddedDatabase ? ['@electric-sql/pglite'] : []), 'light-my-request/node_modules/cookie'].join('|')})/).*/node_modules/`,
    ],
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
