// The toolkit is the code the wider app builds on: held to 90 % of lines.
module.exports = require('../jest.config.base.cjs')(__dirname, { coverage: true });
