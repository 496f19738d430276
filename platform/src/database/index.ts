// PostgreSQL, embedded or a server, and the numbered schema steps each package applies to it.
export { openEmbeddedDatabase, openServerDatabase, type Database, type DatabaseStats, type Listening, type Sql } from './database';
export { applyMigrations, type MigrationPlan } from './migrations';
export { CONSOLE_CHANNEL, CONSOLE_NOTIFY_FUNCTION } from './console-changes';
export { AUDIT_CURSOR_COLUMNS, auditPageSql, type AuditFilter } from './audit-filter';
