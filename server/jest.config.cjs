const base = require('../jest.config.base.cjs')(__dirname, { environment: 'node' });

// PGlite's CommonJS build loads its files with `import()`, which jest's module
// sandbox refuses without --experimental-vm-modules; compiled by swc like
// our own code, those become require() calls.
module.exports = {
  ...base,
  transform: { ...base.transform, '^.+\\.cjs$': base.transform['^.+\\.(t|j)sx?$'] },
  transformIgnorePatterns: ['/node_modules/(?!@electric-sql/pglite/)'],
};
