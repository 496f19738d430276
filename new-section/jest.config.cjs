const base = require('../jest.config.base.cjs')(__dirname);

// The template's own tests run here, in place, so what a new team starts
// from passes before anyone scaffolds it (its texts are placeholders then).
module.exports = { ...base, testMatch: [...base.testMatch, '<rootDir>/template/src/**/__tests__/**/*.test.{ts,tsx}'] };
