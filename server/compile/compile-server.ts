/**
 * `npm run build -w @portico/server`: the serving process compiled ahead of
 * time into one file, `server/dist/main.js`, so that `npm run serve` starts
 * plain JavaScript with no TypeScript compiler and no webpack loaded (issue
 * 47: with tsx and the publish checks' path to @portico/webpack the front
 * process took 8.9 s to be ready and 408 MB); and the release command into
 * `server/dist/release-cli.js` (`npm run release`, release.cjs), the command
 * every team's CI runs. The workspace packages are bundled in; every package
 * from node_modules stays a `require` of the installed copy, as it is for
 * the tests.
 *
 * Source files that find files beside themselves with `__dirname` or
 * `__filename` (the default config.json, the host's folder, the HTML
 * parser's thread file, a command's repository root) still find them: each
 * becomes the source file's own folder or path, relative to the bundle, so
 * the checkout can move as a whole.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { federationSemverPath } from '@portico/webpack/federation-semver';
import { build, type Plugin } from 'esbuild';
import { PROGRAMS, REPO_ROOT } from './compiled-server.cjs';

/** Workspace code bundled; everything installed under node_modules required at run time. */
const workspaceOnly: Plugin = {
  name: 'workspace-only',
  setup(compile) {
    compile.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@portico/') ? undefined : { path: args.path, external: true }));
  },
};

/**
 * The manifest check's one import from Module Federation, `satisfy`, taken
 * from the runtime's own semver module and bundled in, not the whole runtime
 * required for it (about 70-120 ms of every start, and its memory, in a
 * process that loads no remote: issue 47). Its own source, so the server
 * matches ranges exactly as the page does; a build fails if anything else is
 * imported from `@module-federation/enhanced/runtime` here (esbuild: no such
 * export), or if a new version moves the file.
 */
const federationSatisfyOnly: Plugin = {
  name: 'federation-satisfy-only',
  setup(compile) {
    compile.onResolve({ filter: /^@module-federation\/enhanced\/runtime$/ }, () => ({ path: FEDERATION_SEMVER }));
  },
};
const FEDERATION_SEMVER = federationSemverPath(REPO_ROOT);

/** `__dirname` and `__filename` in a source file bundled into `outDir`: that file's folder and path, found from the bundle's own. */
const sourceFolders = (outDir: string): Plugin => ({
  name: 'source-folders',
  setup(compile) {
    compile.onLoad({ filter: /\.tsx?$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const text = await readFile(args.path, 'utf8');
      if (!/\b__(dirname|filename)\b/.test(text)) return undefined;
      const fromBundle = (file: string) => `require('node:path').join(__dirname, ${JSON.stringify(path.relative(outDir, file).split(path.sep).join('/'))})`;
      return {
        contents: text.replace(/\b__dirname\b/g, fromBundle(path.dirname(args.path))).replace(/\b__filename\b/g, fromBundle(args.path)),
        loader: args.path.endsWith('x') ? 'tsx' : 'ts',
      };
    });
  },
});

/** Compiles one of PROGRAMS and writes what it was made from, which its launcher checks before running it. */
async function compileProgram(program: keyof typeof PROGRAMS): Promise<void> {
  const { entry, out, inputs: inputsFile } = PROGRAMS[program];
  const outfile = path.join(REPO_ROOT, out);
  const started = Date.now();
  const result = await build({
    entryPoints: [path.join(REPO_ROOT, entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
    plugins: [federationSatisfyOnly, workspaceOnly, sourceFolders(path.dirname(outfile))],
  });
  // What the bundle was made from: its launcher refuses (serve.cjs) or passes over (release.cjs) a bundle older than any of them.
  const inputs = Object.keys(result.metafile.inputs).map((input) => path.relative(REPO_ROOT, path.resolve(input)));
  writeFileSync(path.join(REPO_ROOT, inputsFile), `${JSON.stringify({ builtAt: started, inputs }, null, 1)}\n`);
  process.stdout.write(`compiled ${program} into ${out} from ${inputs.length} source files in ${Date.now() - started} ms\n`);
}

Promise.all([compileProgram('server'), compileProgram('release')]).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
