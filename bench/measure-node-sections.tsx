/**
 * `npm run measure:node-sections`: for each built remote, the size of
 * its node build, and on loopback the time to load it (fetch, SHA-384 check,
 * evaluation, init/get) plus its first render, then a warm render.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { readManifest } from '@portico/contract/manifest';
import { loadNodeSection } from '@portico/node-sections';
import { builtRemote } from '@portico/testing/built-apps';
import { hostShared } from '../node-sections/src/testing/host-shared';
import { renderSection } from '../node-sections/src/testing/render-section';
import { serveDist } from '@portico/testing/serve-dist';

const RUNS = Number(process.env.RUNS ?? 30);
const REMOTES = ['remote-home', 'remote-about', 'remote-contact'] as const;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${value.toFixed(2)} ms`;

async function measure(folder: (typeof REMOTES)[number]) {
  const dist = builtRemote(folder);
  const manifest = readFileSync(path.join(dist, 'mf-manifest.json'));
  const server = await serveDist(dist);
  const read = readManifest(manifest, `${server.origin}/mf-manifest.json`);
  const node = 'manifest' in read ? read.manifest.nodeEntry : undefined;
  if (!node || !('url' in node)) throw new Error(`${folder} has no node build to measure`);
  const entryFile = path.join(dist, decodeURIComponent(new URL(node.url).pathname));
  const loads: number[] = [];
  const firstRenders: number[] = [];
  const warmRenders: number[] = [];
  try {
    for (let run = 0; run < RUNS; run += 1) {
      const started = performance.now();
      const section = await loadNodeSection({ manifestUrl: `${server.origin}/mf-manifest.json`, manifest, shared: hostShared() });
      const loaded = performance.now();
      await renderSection(section);
      const rendered = performance.now();
      await renderSection(section);
      loads.push(loaded - started);
      firstRenders.push(rendered - loaded);
      warmRenders.push(performance.now() - rendered);
    }
  } finally {
    await server.close();
  }
  return [
    folder,
    `${statSync(entryFile).size} B`,
    `${gzipSync(readFileSync(entryFile), { level: 9 }).length} B`,
    ms(loads[0]! + firstRenders[0]!),
    ms(median(loads)),
    ms(median(firstRenders)),
    ms(median(loads.map((load, run) => load + firstRenders[run]!))),
    ms(median(warmRenders)),
  ];
}

async function main() {
  const rows = [['remote', 'node build', 'gzip -9', 'very first load+render', 'load+verify p50', 'first render p50', 'load+render p50', 'warm render p50']];
  for (const folder of REMOTES) rows.push(await measure(folder));
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const lines = rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd(),
  );
  process.stdout.write(`Node ${process.version}, ${RUNS} runs per remote, loopback, each run a fresh load\n\n${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String((error as Error).stack ?? error)}\n`);
  process.exit(1);
});
