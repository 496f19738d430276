import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openEmbeddedDatabase } from '../database/database';
import { EMBEDDED_TEMPLATE_ENV, seedEmbeddedDatabase } from '../testing/embedded-template';

// The run's template (jest's global setup) is what new test databases are
// copied from: a folder gets it only when it has nothing in it.
const folder = mkdtempSync(path.join(tmpdir(), 'portico-template-test-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

test("jest's run made a template, and a new folder opens as a database of its own from it", async () => {
  expect(existsSync(path.join(process.env[EMBEDDED_TEMPLATE_ENV] ?? '', 'PG_VERSION'))).toBe(true);
  const fresh = path.join(folder, 'fresh');
  seedEmbeddedDatabase(fresh);
  expect(existsSync(path.join(fresh, 'PG_VERSION'))).toBe(true);
  const db = await openEmbeddedDatabase(fresh);
  try {
    await db.exec('CREATE TABLE written_here (id int)');
  } finally {
    await db.close();
  }
  // The copy is the test's own: the template has no such table.
  const again = await openEmbeddedDatabase(path.join(folder, 'another'));
  try {
    expect(await again.query("SELECT to_regclass('written_here') AS found")).toEqual([{ found: null }]);
  } finally {
    await again.close();
  }
  // Two PGlite opens: a bound for a busy machine (jest's 5 s default failed once beside a busy core), not a speed claim.
}, 60_000);

test('a folder with anything in it is left as it is', () => {
  const used = path.join(folder, 'used');
  mkdirSync(used);
  writeFileSync(path.join(used, 'notes.txt'), 'not a database');
  seedEmbeddedDatabase(used);
  expect(readdirSync(used)).toEqual(['notes.txt']);
});
