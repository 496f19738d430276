// The benchmark's own logic (the redeploy verdict); its measurements are scripts, not tests.
const base = require('../jest.config.base.cjs')(__dirname, { environment: 'node' });

module.exports = { ...base, testMatch: ['<rootDir>/__tests__/**/*.test.ts'] };
