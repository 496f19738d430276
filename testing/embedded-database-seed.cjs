// jest setupFiles of the projects whose tests open PGlite (testing/embedded-database-template.cjs).
require('./embedded-database-template.cjs').seedFromTemplate();
