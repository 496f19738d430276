// PostgreSQL, embedded or a server, and the numbered schema steps each package applies to it.
export { openEmbeddedDatabase, openServerDatabase, type Database, type Listening, type Sql } from './database';
export { applyMigrations, type MigrationPlan } from './migrations';
