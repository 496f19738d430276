import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

interface Manifest {
  exposes: { name: string; assets: { js: { sync: string[] } } }[];
  metaData: { integrity: Record<string, string>; island?: { name: string; integrity: string } };
}

/**
 * A copy of a section's build that passes every publish check (the server
 * renders it: its node build is untouched) but fails in the browser: its
 * `./section` chunk throws as it runs, and so does its island script. Each one's hash in the manifest is made
 * anew, as a team's build would list it, and the precompressed copies of
 * the changed files are removed, so every byte served is the one listed.
 */
export function brokenInTheBrowser(dist: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'portico-broken-build-'));
  cpSync(dist, dir, { recursive: true });
  const manifestFile = path.join(dir, 'mf-manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  const chunk = manifest.exposes.find((expose) => expose.name === 'section')!.assets.js.sync[0]!;
  const broken = (file: string) => {
    const code = `throw new Error("this release fails in the browser");\n${readFileSync(path.join(dir, file), 'utf8')}`;
    writeFileSync(path.join(dir, file), code);
    return `sha384-${createHash('sha384').update(code).digest('base64')}`;
  };
  manifest.metaData.integrity[chunk] = broken(chunk);
  const { island } = manifest.metaData;
  if (island) island.integrity = broken(island.name);
  writeFileSync(manifestFile, JSON.stringify(manifest));
  for (const file of [chunk, ...(island ? [island.name] : []), 'mf-manifest.json'])
    for (const suffix of ['.br', '.gz']) rmSync(path.join(dir, file + suffix), { force: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
