import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { existingBuild } from '@portico/testing/built-apps';
import { serveDist, type DistServer } from '@portico/testing/serve-dist';

/**
 * The contact build on a static host of its own, its node build made
 * another by `marker` (renamed and re-hashed as a build names it): each
 * release of it is then another build, as a real release is, and switching
 * to it switches the section workers.
 */
export async function contactBuild(marker: string): Promise<DistServer> {
  const dist = existingBuild('remote-contact');
  const server = await serveDist(dist);
  const manifest = JSON.parse(readFileSync(path.join(dist, 'mf-manifest.json'), 'utf8')) as {
    metaData: { ssrRemoteEntry: { name: string; path: string; integrity: string } };
  };
  const entry = manifest.metaData.ssrRemoteEntry;
  const code = `${readFileSync(path.join(dist, entry.path, entry.name), 'utf8')}\n/* ${marker} */`;
  const name = `remoteEntry.${createHash('sha256').update(code).digest('hex').slice(0, 10)}.js`;
  manifest.metaData.ssrRemoteEntry = { ...entry, name, integrity: `sha384-${createHash('sha384').update(code).digest('base64')}` };
  server.overrides.set(`/${entry.path}/${name}`, { body: code });
  server.overrides.set('/mf-manifest.json', { body: JSON.stringify(manifest) });
  return server;
}
