// jest globalSetup of the projects whose tests open PGlite (testing/embedded-database-template.cjs).
module.exports = require('./embedded-database-template.cjs').makeTemplate;
