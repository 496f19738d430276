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
// The run's template of new embedded databases (jest's side: testing/embedded-database-template.cjs).
export { makeEmbeddedTemplate, seedDataFolder } from './embedded-template';
// A logger whose lines a test reads (the request id on each, nothing private in any).
export { captureLog, linesLogger, type CapturedLog } from './captured-log';
