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

/** A code symbol in backticks: camelCase or PascalCase (`pageFor`, `RequestBounds`), a CONSTANT_WITH_UNDERSCORES, or any name written as a call (`warm()`). */
const SYMBOL = /`([a-z][a-z0-9]*[A-Z][\w$]*|[A-Z][a-z0-9]+[A-Z]?[\w$]*|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Za-z_$][\w$]*(?=\(\)))(?:\(\))?`/g;

/** The document's blocks: each list item, table row and paragraph with its continuation lines. */
function blocksOf(text: string): string[] {
  const blocks: string[][] = [[]];
  for (const line of text.split('\n')) {
    if (/^\s*(?:\d+\.|-|\|)\s|^#/.test(line) || line.trim() === '') blocks.push([]);
    if (line.trim() !== '') blocks.at(-1)!.push(line);
  }
  return blocks.filter((block) => block.length > 0).map((block) => block.join('\n'));
}

/** Whether `source` defines `name`: a declaration, a method or property, or an export list naming it. */
function defines(source: string, name: string): boolean {
  const word = name.replace(/\$/g, '\\$');
  return new RegExp(
    `(?:function\\*?|const|let|var|class|interface|type|enum)\\s+${word}\\b|^\\s*(?:export\\s+)?(?:(?:public|private|protected|readonly|static|async|get|set)\\s+)*${word}\\s*[(<:?=]|export\\s*\\{[^}]*\\b${word}\\b`,
    'm',
  ).test(source);
}

test('every symbol docs/architecture.md names is defined in a file named beside it (the same step, item or row)', () => {
  const text = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
  let checked = 0;
  const wrong: string[] = [];
  for (const block of blocksOf(text)) {
    const files = [...block.matchAll(REPO_PATH)].map((match) => match[1]!).filter((name) => /\.(?:[cm]?[jt]sx?)$/.test(name));
    if (files.length === 0) continue;
    const sources = files.filter((name) => existsSync(path.join(ROOT, name))).map((name) => readFileSync(path.join(ROOT, name), 'utf8'));
    for (const name of new Set([...block.matchAll(SYMBOL)].map((match) => match[1]!))) {
      checked++;
      if (!sources.some((source) => defines(source, name))) wrong.push(`${name} (beside ${files.join(', ')})`);
    }
  }
  // A pattern that found few would pass whatever the document said.
  expect(checked).toBeGreaterThan(20);
  expect(wrong).toEqual([]);
});

test('no file in docs/ is over 700 lines, and the README is at most 300', () => {
  const over = markdownFiles(path.join(ROOT, 'docs'))
    .map((file) => ({ file: path.relative(ROOT, file), lines: lineCount(file) }))
    .filter(({ lines }) => lines > 700);
  expect(over).toEqual([]);
  expect(lineCount(path.join(ROOT, 'README.md'))).toBeLessThanOrEqual(300);
});
