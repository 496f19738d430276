// One jest setup for every package: swc strips the types (tsc -b checks them
// separately in `npm test`), jsdom for React, jest-dom matchers.
const path = require('node:path');

/**
 * @param {string} dir the package folder
 * @param {{ environment?: 'jsdom' | 'node', coverage?: boolean }} [options] `coverage`: held to 90 % of lines when the package's tests run alone
 *   (`npm test -w <package>`); the root run takes the reporter and the threshold from the root config, since jest reads those two only from the
 *   configuration it was started with.
 */
module.exports = function jestConfig(dir, options = {}) {
  return {
    displayName: path.basename(dir),
    rootDir: dir,
    testEnvironment: options.environment ?? 'jsdom',
    testMatch: ['<rootDir>/src/**/__tests__/**/*.test.{ts,tsx}'],
    transform: {
      '^.+\\.(t|j)sx?$': [
        '@swc/jest',
        {
          jsc: {
            parser: { syntax: 'typescript', tsx: true },
            transform: { react: { runtime: 'automatic' } },
            target: 'es2022',
          },
        },
      ],
    },
    moduleNameMapper: {
      '\\.css$': path.join(__dirname, 'testing/style-stub.cjs'),
      '\\.(svg|png|webp|jpg)$': path.join(__dirname, 'testing/file-stub.cjs'),
    },
    setupFilesAfterEnv: options.environment === 'node' ? [] : [path.join(__dirname, 'testing/jest-setup.ts')],
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
