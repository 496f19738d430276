// For other packages' tests that need the databases the store runs on: the
// embedded one in a temp folder and a throwaway PostgreSQL server.
export { embeddedTestDatabase, serverTestDatabase, serverTestsRun, type TestDatabase } from './databases';
export { postgresMissing, postgresRequired, startTestPostgres, type TestPostgres } from './test-postgres';
export { serveApi } from './api-server';
export { directOrigin } from './direct-origin';
export { formBody, postContact } from './http-client';
