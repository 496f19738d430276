// shared-config is the code every app loads: held to 90 % of lines.
module.exports = require('../jest.config.base.cjs')(__dirname, { coverage: true });
