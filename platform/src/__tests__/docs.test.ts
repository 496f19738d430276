import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The documentation's own promises, held where a rename or a long addition
// would silently break them: the architecture map names files that exist,
// and every page stays short enough to read.
const ROOT = path.join(__dirname, '../../..');

/** `some/repo/path.ts` or `some/folder/` in backticks: a word with a slash, no spaces, no scheme; not `@scoped`, `/absolute` nor `./relative`. */
const REPO_PATH = /`(\w[\w.-]*(?:\/[\w.-]+)*\/[\w.-]*)`/g;

test('every repository path docs/architecture.md names exists', () => {
  const text = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
  const named = [...new Set([...text.matchAll(REPO_PATH)].map((match) => match[1]!))];
  // The map walks both flows through dozens of modules: a pattern that found
  // none would pass whatever the document said.
  expect(named.length).toBeGreaterThan(50);
  expect(named.filter((name) => !existsSync(path.join(ROOT, name)))).toEqual([]);
});
