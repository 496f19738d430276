import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EMBEDDED_DATABASE_FOLDER } from '../data-folder';

/**
 * New embedded databases in the tests. A test run opens some forty PGlite
 * databases, in jest and in the servers the tests start, and PGlite makes
 * each with initdb in WASM: 1.2–1.8 s of CPU apiece, about 3 s of a
 * server's start-up. So a run's global setup makes one cluster
 * (`makeEmbeddedTemplate`), and a new database starts as a copy of it
 * (`seedEmbeddedDatabase`). PGlite still opens the copy, so every migration,
 * query, notification and file mode a test checks is PGlite's own.
 *
 * The template's folder travels in this variable: set in the global setup's
 * process, inherited by the test workers and the processes they start.
 */
export const EMBEDDED_TEMPLATE_ENV = 'PORTICO_TEST_EMBEDDED_TEMPLATE';

/** Makes the run's template unless one is named already; returns what removes it. */
export async function makeEmbeddedTemplate(): Promise<() => void> {
  if (process.env[EMBEDDED_TEMPLATE_ENV]) return () => undefined;
  // Loaded here, not at the top: jest's setup replaces PGlite.create with one that seeds from this module.
  const { PGlite } = await import('@electric-sql/pglite');
  const folder = mkdtempSync(path.join(tmpdir(), 'portico-pglite-template-'));
  const cluster = path.join(folder, 'cluster');
  const db = await PGlite.create(cluster);
  await db.close();
  process.env[EMBEDDED_TEMPLATE_ENV] = cluster;
  return () => rmSync(folder, { recursive: true, force: true });
}

/**
 * Copies the run's template into `folder` when there is one and the folder
 * is missing or empty; a folder with anything in it is never touched, and
 * without a template PGlite makes the database itself.
 */
export function seedEmbeddedDatabase(folder: string): void {
  const template = process.env[EMBEDDED_TEMPLATE_ENV];
  if (!template || (existsSync(folder) && readdirSync(folder).length > 0)) return;
  cpSync(template, folder, { recursive: true });
}

/** The same for the embedded database of a data folder (PORTICO_DATA_DIR) a test gives a server. */
export function seedDataFolder(dataDir: string): void {
  seedEmbeddedDatabase(path.join(dataDir, EMBEDDED_DATABASE_FOLDER));
}
