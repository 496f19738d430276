import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '../../..');

function hasNodeBuild(dist: string): boolean {
  const manifest = path.join(dist, 'mf-manifest.json');
  if (!existsSync(manifest)) return false;
  const entry = (JSON.parse(readFileSync(manifest, 'utf8')) as { metaData?: { ssrRemoteEntry?: { path: string; name: string } } }).metaData
    ?.ssrRemoteEntry;
  return entry !== undefined && existsSync(path.join(dist, entry.path, entry.name));
}

/**
 * A remote's real production dist/, built with `npm run build` if it is
 * missing or predates the node build (the unit tests run before the build
 * in `npm test`).
 */
export function builtRemote(folder: 'remote-home' | 'remote-about' | 'remote-contact'): string {
  const dist = path.join(REPO_ROOT, folder, 'dist');
  if (!hasNodeBuild(dist)) {
    execFileSync('npm', ['run', 'build', '-w', `@portico/${folder}`], { cwd: REPO_ROOT, stdio: 'ignore', timeout: 300_000 });
  }
  return dist;
}
