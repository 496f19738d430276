import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '../..');

function hasNodeBuild(dist: string): boolean {
  const manifest = path.join(dist, 'mf-manifest.json');
  if (!existsSync(manifest)) return false;
  const entry = (JSON.parse(readFileSync(manifest, 'utf8')) as { metaData?: { ssrRemoteEntry?: { path: string; name: string } } }).metaData
    ?.ssrRemoteEntry;
  return entry !== undefined && existsSync(path.join(dist, entry.path, entry.name));
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

/** The host's production build with its server workers (host/dist-node), built if missing: the repository root to serve. */
export function builtHost(): string {
  const workers = ['shell-worker.js', 'section-worker.js'].map((file) => path.join(REPO_ROOT, 'host', 'dist-node', file));
  if (!existsSync(path.join(REPO_ROOT, 'host', 'dist', 'index.html')) || !workers.every((file) => existsSync(file))) build('host');
  return REPO_ROOT;
}
