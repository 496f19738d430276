import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readManifest } from '@portico/contract/manifest';

const REPO_ROOT = path.resolve(__dirname, '../..');

/** Where a dist/ would be served from, for the manifest reader (it reads only http(s) manifests). */
const SERVED_AT = 'http://localhost/mf-manifest.json';

function hasNodeBuild(dist: string): boolean {
  const manifest = path.join(dist, 'mf-manifest.json');
  if (!existsSync(manifest)) return false;
  const read = readManifest(readFileSync(manifest), SERVED_AT);
  const node = 'manifest' in read ? read.manifest.nodeEntry : undefined;
  return node !== undefined && 'url' in node && existsSync(path.join(dist, decodeURIComponent(new URL(node.url).pathname)));
}

function build(folder: string): void {
  execFileSync('npm', ['run', 'build', '-w', `@portico/${folder}`], { cwd: REPO_ROOT, stdio: 'ignore', timeout: 300_000 });
}

/**
 * A remote's real production dist/, built with `npm run build` if it is
 * missing or predates the node build (`npm test` builds before the unit
 * tests; a test run alone may come first).
 */
export function builtRemote(folder: 'remote-home' | 'remote-about' | 'remote-contact'): string {
  const dist = path.join(REPO_ROOT, folder, 'dist');
  if (!hasNodeBuild(dist)) build(folder);
  return dist;
}

/**
 * A remote's production dist/ as `npm run build` left it, for tests with a
 * time budget that must not build (a build takes minutes); throws, saying
 * what to run, when it is missing.
 */
export function existingBuild(folder: 'remote-home' | 'remote-about' | 'remote-contact'): string {
  const dist = path.join(REPO_ROOT, folder, 'dist');
  if (!hasNodeBuild(dist)) {
    throw new Error(
      `${folder}/dist has no complete build (mf-manifest.json and its node build): run \`npm run build\` first (\`npm test\` builds before the unit tests)`,
    );
  }
  return dist;
}

/** The host's production build with its server workers (host/dist-node), built if missing: the repository root to serve. */
export function builtHost(): string {
  const workers = ['shell-worker.js', 'section-worker.js'].map((file) => path.join(REPO_ROOT, 'host', 'dist-node', file));
  if (!existsSync(path.join(REPO_ROOT, 'host', 'dist', 'index.html')) || !workers.every((file) => existsSync(file))) build('host');
  return REPO_ROOT;
}

/**
 * `npm run serve`'s program, server/serve.cjs, its compiled server made again
 * with `npm run build -w @portico/server` if it is missing or older than its
 * sources (the launcher's own `--check`), as a test runs it alone after an edit.
 */
export function builtServer(): string {
  const launcher = path.join(REPO_ROOT, 'server', 'serve.cjs');
  try {
    execFileSync(process.execPath, [launcher, '--check'], { stdio: 'ignore' });
  } catch {
    execFileSync('npm', ['run', 'build', '-w', '@portico/server'], { cwd: REPO_ROOT, stdio: 'ignore', timeout: 120_000 });
  }
  return launcher;
}

/**
 * `npm run release`'s program, server/release.cjs: the release command as
 * `npm run build` compiled it, or its sources through tsx when that build is
 * missing or older than them. A test runs `node <this> <args>`, as npm does.
 */
export function releaseCommand(): string {
  return path.join(REPO_ROOT, 'server', 'release.cjs');
}

/**
 * The node flags `npm run serve` starts the front process with, read from
 * server/package.json's `serve` script (`node <flags> serve.cjs`), the one
 * place they are written: V8's heap is sized when the process starts, so
 * they cannot be set from inside (docs/server.md). A test or a measurement
 * that starts builtServer() passes them, to run what an operator runs.
 */
export function serveNodeArgs(): string[] {
  const { scripts } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'server', 'package.json'), 'utf8')) as { scripts: { serve: string } };
  const words = scripts.serve.trim().split(/\s+/);
  const launcher = words.indexOf('serve.cjs');
  if (words[0] !== 'node' || launcher < 0) throw new Error(`server/package.json's serve script is not \`node [flags] serve.cjs\`: ${scripts.serve}`);
  return words.slice(1, launcher);
}
