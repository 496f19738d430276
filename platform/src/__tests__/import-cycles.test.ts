import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

// `npm run lint`'s import-cycle check (.dependency-cruiser.cjs), run as lint
// runs it on small folders of modules: it must refuse a cycle made of
// `import type` alone, as it refuses one of values, and pass a folder with
// none. Without `tsPreCompilationDeps`
// in the config, the type-only case passes (checked).
const ROOT = path.join(__dirname, '../../..');
const CLI = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');
const run = promisify(execFile);

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'portico-cycles-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

function write(files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
    writeFileSync(path.join(folder, name), text);
  }
}

/** A type in a module of its own, which both the context and the API import: the way out of the first test's cycle. */
const ONE_WAY = {
  'one-way/types.ts': 'export interface Options { port: number }\n',
  'one-way/context.ts': "import type { Options } from './types';\nexport class Context { constructor(readonly options: Options) {} }\n",
  'one-way/api.ts':
    "import type { Options } from './types';\nimport { Context } from './context';\nexport const start = (options: Options) => new Context(options);\n",
};

/** The check's verdict on the folder: its exit code and what it printed. */
async function cycleCheck(): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run(process.execPath, [CLI, '--config', CONFIG, '--output-type', 'err', '.'], { cwd: folder, timeout: 60_000 });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

test('a cycle of `import type` alone fails the check, as one of values does, and each is named', async () => {
  write({
    'types/options.ts': "import type { Context } from './context';\nexport interface Options { make(): Context }\n",
    'types/context.ts': "import type { Options } from './options';\nexport class Context { constructor(readonly options: Options) {} }\n",
    'values/api.ts': "import { context } from './context';\nexport const api = () => context;\n",
    'values/context.ts': "import { route } from './routes/route';\nexport const context = { route };\n",
    'values/routes/route.ts': "import { api } from '../api';\nexport const route = () => api();\n",
    ...ONE_WAY,
  });
  const { code, output } = await cycleCheck();
  expect(code).not.toBe(0);
  const named = [...output.matchAll(/no-cycle: (\S+)/g)].map((match) => match[1]);
  expect(named).toEqual(expect.arrayContaining([expect.stringMatching(/^types\//), expect.stringMatching(/^values\//)]));
  expect(output).not.toContain('one-way/');
}, 90_000);

test('modules that import one way pass', async () => {
  write(ONE_WAY);
  const { code, output } = await cycleCheck();
  expect(output).toContain('no dependency violations found');
  expect(code).toBe(0);
}, 90_000);
