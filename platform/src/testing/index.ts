// For every package's tests that need the databases the stores run on: the
// embedded one in a temp folder and a throwaway PostgreSQL server.
export {
  anyTestDatabase,
  embeddedTestDatabase,
  freshTestDatabase,
  serverTestDatabase,
  serverTestsRun,
  testDatabaseKinds,
  type TestDatabase,
} from './databases';
export { postgresMissing, postgresRequired, startTestPostgres, type TestPostgres } from './test-postgres';
export { EMBEDDED_TEMPLATE_ENV, makeEmbeddedTemplate, seedDataFolder, seedEmbeddedDatabase } from './embedded-template';
