import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Sends a remote's production build to a folder of its own instead of
 * `<app>/dist/`: on a machine that runs `npm run serve`, `<app>/dist/` is
 * what the server serves as config.json's URL of that section, so a build
 * there reaches every visitor of a section with no active release, with no
 * publish or activation (docs/deploy.md, "1. Build").
 */
const OUT_DIR_ENV = 'PORTICO_OUT_DIR';

/**
 * Where a remote's production build is written: `PORTICO_OUT_DIR` when set,
 * else `<dir>/dist/`. Webpack empties the folder first, so a chosen one
 * must be new, empty or an earlier build (its mf-manifest.json): pointed at
 * a home folder by mistake, the build refuses rather than deletes it.
 */
export function remoteOutDir(dir: string, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = env[OUT_DIR_ENV];
  if (!chosen) return path.join(dir, 'dist');
  const folder = path.resolve(chosen);
  if (existsSync(folder) && readdirSync(folder).length > 0 && !existsSync(path.join(folder, 'mf-manifest.json')))
    throw new Error(
      `${OUT_DIR_ENV}=${chosen}: ${folder} holds files and no earlier build (mf-manifest.json); the build empties its folder first, so name a new or empty one`,
    );
  return folder;
}
