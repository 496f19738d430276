import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The documentation's own promises, held where a rename or a long addition
// would silently break them: the architecture map names files that exist,
// and every page stays short enough to read.
const ROOT = path.join(__dirname, '../../..');

/** `some/repo/path.ts` or `some/folder/` in backticks: a word with a slash, no spaces, no scheme; not `@scoped`, `/absolute` nor `./relative`. */
const REPO_PATH = /`(\w[\w.-]*(?:\/[\w.-]+)*\/[\w.-]*)`/g;

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(full);
    return entry.name.endsWith('.md') ? [full] : [];
  });
}

/** Lines as `wc -l` counts them. */
const lineCount = (file: string) => (readFileSync(file, 'utf8').match(/\n/g) ?? []).length;

test('every repository path docs/architecture.md names exists', () => {
  const text = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
  const named = [...new Set([...text.matchAll(REPO_PATH)].map((match) => match[1]!))];
  // The map walks both flows through dozens of modules: a pattern that found
  // none would pass whatever the document said.
  expect(named.length).toBeGreaterThan(50);
  expect(named.filter((name) => !existsSync(path.join(ROOT, name)))).toEqual([]);
});

test('no file in docs/ is over 700 lines, and the README is at most 300', () => {
  const over = markdownFiles(path.join(ROOT, 'docs'))
    .map((file) => ({ file: path.relative(ROOT, file), lines: lineCount(file) }))
    .filter(({ lines }) => lines > 700);
  expect(over).toEqual([]);
  expect(lineCount(path.join(ROOT, 'README.md'))).toBeLessThanOrEqual(300);
});
