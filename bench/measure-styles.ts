import { fork, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { APP_DIRS, APP_NAMES } from '@portico/contract/sections';
import { sampleConfig } from '@portico/testing/sample-config';
import { serveDist, type DistServer } from '@portico/testing/serve-dist';
import { REPO_ROOT } from './paths';
import { eventually } from '@portico/testing/eventually';

/**
 * `npm run measure:styles [-- --rotate-seconds N] [--load-seconds N] [--rounds N] [--warm-seconds N] [--check]`:
 * what a section's stylesheets cost the front server (issue 34), after a
 * build. Home is served from a CDN on loopback with a manifest of our
 * making; the front servers are `startPortico` in processes of their own
 * (measure-styles-server.ts), from MEASURE_PORT (9600) on.
 *
 * 1. Throughput: `/` loaded by autocannon (10 connections) for
 *    --load-seconds (10) on a server whose Home manifest is plain (its one
 *    stylesheet), names 150 stylesheets of 500 KB, or names 30 of 30 KB
 *    (within the limits), one after the other, --rounds (3) times; the
 *    median requests per second of each, and how often the CDN was asked
 *    for each stylesheet.
 * 2. Memory: a server warmed for --warm-seconds (60) on a manifest naming 4 stylesheets of
 *    200 KB (requests to `/`, `/?type=2` and the page's stylesheets), its
 *    heap and stylesheet cache after full collections; then the manifest
 *    names 4 new stylesheets every second for --rotate-seconds (300), the
 *    same requests going on, its RSS every 10 s; then heap and cache after
 *    full collections again.
 *
 * `--check` exits 1 when a target is missed: 150 x 500 KB at 0.8 x the
 * plain manifest's requests per second or more, no stylesheet fetched
 * twice, the RSS of the last third of the rotation at most 16 MB over the
 * middle third's highest, and heap + stylesheet cache after it within 30 MB
 * of the warm run's.
 */
const PORT = Number(process.env.MEASURE_PORT ?? 9600);
const CONNECTIONS = 10;
const ROTATING_SHEETS = 4;
const ROTATING_BYTES = 200 * 1024;
const MB = 1024 * 1024;

const { values } = parseArgs({
  options: {
    'rotate-seconds': { type: 'string', default: '300' },
    'load-seconds': { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    'warm-seconds': { type: 'string', default: '60' },
    check: { type: 'boolean', default: false },
  },
});
const ROTATE_SECONDS = Number(values['rotate-seconds']);
const LOAD_SECONDS = Number(values['load-seconds']);
const ROUNDS = Number(values.rounds);
const WARM_SECONDS = Number(values['warm-seconds']);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sri = (bytes: string | Buffer) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const mb = (bytes: number) => (bytes / MB).toFixed(1);

/** The four builds and the server workers, copied: the servers run on these, not on the working tree. */
function copyBuilds(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'portico-measure-styles-'));
  for (const app of APP_NAMES) cpSync(path.join(REPO_ROOT, APP_DIRS[app], 'dist'), path.join(root, APP_DIRS[app], 'dist'), { recursive: true });
  cpSync(path.join(REPO_ROOT, 'host/dist-node'), path.join(root, 'host/dist-node'), { recursive: true });
  return root;
}

interface HomeManifest {
  metaData: { buildInfo: { buildId: string }; integrity: Record<string, string> };
  exposes: { path: string; assets: { css: { sync: string[] } } }[];
}

/**
 * A copy of Home's build under `variant` on the CDN, its manifest naming
 * `sheets` (file name: CSS) for its section in place of its own stylesheet
 * (none given: as built). Written then renamed, as an upload tool does.
 */
function publishHome(cdnRoot: string, variant: string, sheets?: Record<string, string | Buffer>, build?: string): string {
  const folder = path.join(cdnRoot, variant);
  if (!existsSync(folder)) cpSync(path.join(REPO_ROOT, 'remote-home/dist'), folder, { recursive: true });
  const file = path.join(folder, 'mf-manifest.json');
  const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'remote-home/dist/mf-manifest.json'), 'utf8')) as HomeManifest;
  if (sheets) {
    for (const [name, css] of Object.entries(sheets)) {
      writeFileSync(path.join(folder, name), css);
      manifest.metaData.integrity[name] = sri(css);
    }
    manifest.exposes.find((expose) => expose.path === './section')!.assets.css.sync = Object.keys(sheets);
  }
  if (build) manifest.metaData.buildInfo.buildId = build;
  // The copies the build compressed would be served in its place by a server that prefers them.
  for (const suffix of ['.br', '.gz']) rmSync(`${file}${suffix}`, { force: true });
  writeFileSync(`${file}.next`, JSON.stringify(manifest));
  renameSync(`${file}.next`, file);
  return `/${variant}/mf-manifest.json`;
}

interface Server {
  url: string;
  sandbox: string | undefined;
  log: string[];
  memory: (gc: boolean) => Promise<{ rss: number; heapUsed: number; styleBytes: number }>;
  stop: () => Promise<void>;
}

/** A front server in a process of its own, serving `config` (its Home from the CDN) on `port`..+3. */
async function startServer(root: string, port: number, home: string): Promise<Server> {
  const configFile = path.join(root, `config-${port}.json`);
  const local = (offset: number) => `http://127.0.0.1:${port + offset}/mf-manifest.json`;
  writeFileSync(configFile, JSON.stringify({ ...sampleConfig, remotes: { home, about: local(2), contact: local(3) } }));
  const child: ChildProcess = fork(path.join(__dirname, 'measure-styles-server.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, MEASURE_ROOT: root, MEASURE_PORT: String(port), MEASURE_CONFIG: configFile },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const log: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => log.push(...chunk.toString().split('\n').filter(Boolean)));
  const ready = await new Promise<{ url: string; sandbox: string | undefined }>((resolve, reject) => {
    child.once('message', (message: { url: string; sandbox: string | undefined }) => resolve(message));
    child.once('exit', (code) => reject(new Error(`the server on ${port} stopped (${code}):\n${log.join('\n')}`)));
  });
  return {
    ...ready,
    log,
    memory: (gc) =>
      new Promise((resolve) => {
        child.once('message', resolve as (message: unknown) => void);
        child.send({ type: 'memory', gc });
      }),
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.send({ type: 'stop' });
      }),
  };
}

const renderedHome = async (url: string) => /"rendered":\[[^\]]*"home"/.test(await (await fetch(url)).text());

async function load(url: string): Promise<{ rps: number; p99: number; errors: number }> {
  const result = await autocannon({
    url: `${url}/`,
    connections: CONNECTIONS,
    duration: LOAD_SECONDS,
    timeout: 10,
    headers: { 'accept-encoding': 'br, gzip' },
  });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.timeouts + result.non2xx };
}

/** CSS of about `bytes`, unlike any other (so its hash and its compressed size are its own). */
const sheet = (name: string, bytes: number) => `.${name} { content: "${randomBytes(Math.floor((bytes * 3) / 4)).toString('base64')}"; }\n`;

interface Throughput {
  name: string;
  rps: number[];
  p99: number[];
  errors: number;
  sheets: string[];
  server: Server;
}

async function measureThroughput(root: string, cdn: DistServer, cdnRoot: string): Promise<Throughput[]> {
  const heavy: Record<string, Buffer> = {};
  const body = Buffer.alloc(500 * 1024, 'a');
  for (let index = 0; index < 150; index += 1) heavy[`heavy-${index}.css`] = Buffer.concat([Buffer.from(`/* ${index} */`), body]);
  const within: Record<string, string> = {};
  for (let index = 0; index < 30; index += 1) within[`within-${index}.css`] = sheet(`w${index}`, 30 * 1024);
  const variants = [
    { name: 'plain (its one stylesheet)', manifest: publishHome(cdnRoot, 'plain'), sheets: [] as string[] },
    { name: '150 stylesheets of 500 KB', manifest: publishHome(cdnRoot, 'heavy', heavy), sheets: Object.keys(heavy).map((name) => `/heavy/${name}`) },
    {
      name: '30 stylesheets of 30 KB (within the limits)',
      manifest: publishHome(cdnRoot, 'within', within),
      sheets: Object.keys(within).map((name) => `/within/${name}`),
    },
  ];
  const rows: Throughput[] = [];
  for (const [index, variant] of variants.entries()) {
    const server = await startServer(root, PORT + 10 * index, `${cdn.origin}${variant.manifest}`);
    rows.push({ name: variant.name, rps: [], p99: [], errors: 0, sheets: variant.sheets, server });
  }
  // Settled: Home rendered on the server where it may be, and the heavy one refused in the log.
  await eventually(async () => (await renderedHome(rows[0]!.server.url)) && renderedHome(rows[2]!.server.url), {
    what: 'the plain and within manifests rendered',
    withinMs: 60_000,
    everyMs: 200,
  });
  await eventually(() => rows[1]!.server.log.some((line) => line.includes('the home section is rendered in the browser')), {
    what: 'the heavy manifest judged',
    withinMs: 60_000,
    everyMs: 200,
  });
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const row of rows) {
      process.stderr.write(`round ${round + 1}/${ROUNDS}: ${row.name}, ${LOAD_SECONDS} s\n`);
      const result = await load(row.server.url);
      row.rps.push(result.rps);
      row.p99.push(result.p99);
      row.errors += result.errors;
    }
  }
  return rows;
}

interface Rotation {
  warm: { heapUsed: number; styleBytes: number; rss: number };
  samples: { second: number; rss: number; styleBytes: number }[];
  after: { heapUsed: number; styleBytes: number; rss: number };
  rotations: number;
}

async function measureRotation(root: string, cdn: DistServer, cdnRoot: string): Promise<Rotation> {
  let rotation = 0;
  const publish = () => {
    const sheets: Record<string, string> = {};
    for (let index = 0; index < ROTATING_SHEETS; index += 1) sheets[`r${rotation}-${index}.css`] = sheet(`r${rotation}x${index}`, ROTATING_BYTES);
    publishHome(cdnRoot, 'rotating', sheets, `rotation-${rotation}`);
    // The CDN keeps the last ones (a page just sent may name them); older ones go, so the disk does not fill.
    for (let index = 0; index < ROTATING_SHEETS; index += 1) rmSync(path.join(cdnRoot, 'rotating', `r${rotation - 30}-${index}.css`), { force: true });
    rotation += 1;
  };
  publish();
  const server = await startServer(root, PORT + 40, `${cdn.origin}/rotating/mf-manifest.json`);
  let visiting = true;
  // Visitors meanwhile: the page in both languages, and the stylesheets it links, as a browser fetches them.
  const visits = (async () => {
    for (let visit = 0; visiting; visit += 1) {
      const html = await (await fetch(`${server.url}/${visit % 2 === 0 ? '' : '?type=2'}`)).text();
      if (visit % 10 === 0) {
        for (const [, href] of html.matchAll(/href="(\/section-styles\/[^"]+)"/g))
          await (await fetch(`${server.url}${href}`, { headers: { 'accept-encoding': 'br' } })).arrayBuffer();
      }
      await sleep(50);
    }
  })();
  try {
    await eventually(() => renderedHome(server.url), { what: 'Home rendered on the server', withinMs: 60_000, everyMs: 200 });
    process.stderr.write(`warm run, ${WARM_SECONDS} s without rotation\n`);
    await sleep(WARM_SECONDS * 1000);
    const warm = await server.memory(true);
    process.stderr.write(`rotating Home's stylesheets every second for ${ROTATE_SECONDS} s\n`);
    const samples: Rotation['samples'] = [];
    const started = performance.now();
    for (let second = 1; second <= ROTATE_SECONDS; second += 1) {
      publish();
      await sleep(Math.max(0, started + second * 1000 - performance.now()));
      if (second % 10 === 0) {
        const { rss, styleBytes } = await server.memory(false);
        samples.push({ second, rss, styleBytes });
      }
    }
    const after = await server.memory(true);
    return { warm, samples, after, rotations: rotation };
  } finally {
    visiting = false;
    await visits.catch(() => undefined);
    await server.stop();
  }
}

async function main(): Promise<void> {
  const root = copyBuilds();
  const cdnRoot = mkdtempSync(path.join(tmpdir(), 'portico-measure-styles-cdn-'));
  const cdn = await serveDist(cdnRoot);
  const missed: string[] = [];
  const before = loadavg();
  try {
    const rows = await measureThroughput(root, cdn, cdnRoot);
    await Promise.all(rows.map((row) => row.server.stop()));
    const plain = median(rows[0]!.rps);
    console.log(
      `\`npm run measure:styles\`: ${availableParallelism()} cores shared with the load generator; load average ${before.map((value) => value.toFixed(1)).join(' ')} at the start, ${loadavg()
        .map((value) => value.toFixed(1))
        .join(' ')} after the throughput runs; sandbox ${rows[0]!.server.sandbox ?? 'none (sections rendered in the browser)'}\n`,
    );
    console.log(`\`/\` with Home's manifest naming…, ${CONNECTIONS} connections, ${LOAD_SECONDS} s each, ${ROUNDS} rounds in turn (median):\n`);
    console.log("| Home's manifest | requests/s (median; each round) | x plain | p99 ms | errors | stylesheets asked of the CDN (distinct / requests) |");
    console.log('| --- | --- | --- | --- | --- | --- |');
    for (const row of rows) {
      const asked = cdn.requests.filter((request) => row.sheets.includes(request));
      const ratio = median(row.rps) / plain;
      console.log(
        `| ${row.name} | ${median(row.rps).toFixed(0)} (${row.rps.map((rps) => rps.toFixed(0)).join(', ')}) | ${ratio.toFixed(2)} | ${median(row.p99).toFixed(0)} | ${row.errors} | ${row.sheets.length === 0 ? '-' : `${new Set(asked).size} / ${asked.length}`} |`,
      );
      if (asked.length !== new Set(asked).size) missed.push(`${row.name}: a stylesheet was fetched more than once`);
      if (row.sheets.length > 0 && ratio < 0.8) missed.push(`${row.name}: ${ratio.toFixed(2)} x the plain manifest's requests per second, under 0.8`);
    }
    const heavyLog = rows[1]!.server.log.filter((line) => line.includes('/heavy/'));
    console.log(`\nThe heavy manifest's log lines: ${heavyLog.length} (${heavyLog[0] ?? 'none'})\n`);

    const rotation = await measureRotation(root, cdn, cdnRoot);
    const third = Math.floor(rotation.samples.length / 3);
    const middle = Math.max(...rotation.samples.slice(third, 2 * third).map(({ rss }) => rss));
    const last = Math.max(...rotation.samples.slice(2 * third).map(({ rss }) => rss));
    const warmTotal = rotation.warm.heapUsed + rotation.warm.styleBytes;
    const afterTotal = rotation.after.heapUsed + rotation.after.styleBytes;
    console.log(
      `Home's manifest naming ${ROTATING_SHEETS} new stylesheets of ${ROTATING_BYTES / 1024} KB every second for ${ROTATE_SECONDS} s (${rotation.rotations} manifests), \`/\` and \`/?type=2\` asked in turn meanwhile:\n`,
    );
    console.log('| second | front server RSS MB | stylesheets kept MB |\n| --- | --- | --- |');
    for (const { second, rss, styleBytes } of rotation.samples.filter((_, index) => index % 3 === 2 || index === rotation.samples.length - 1))
      console.log(`| ${second} | ${mb(rss)} | ${mb(styleBytes)} |`);
    console.log(`\nRSS: highest ${mb(middle)} MB in the middle third, ${mb(last)} MB in the last third.`);
    console.log(
      `After full collections: warm run without rotation heap ${mb(rotation.warm.heapUsed)} + stylesheets ${mb(rotation.warm.styleBytes)} = ${mb(warmTotal)} MB (RSS ${mb(rotation.warm.rss)}); after the rotation heap ${mb(rotation.after.heapUsed)} + stylesheets ${mb(rotation.after.styleBytes)} = ${mb(afterTotal)} MB (RSS ${mb(rotation.after.rss)}): ${afterTotal >= warmTotal ? '+' : ''}${mb(afterTotal - warmTotal)} MB.`,
    );
    console.log(
      `Load average at the end: ${loadavg()
        .map((value) => value.toFixed(1))
        .join(' ')}`,
    );
    if (last > middle + 16 * MB) missed.push(`RSS still growing: ${mb(last)} MB in the last third, over ${mb(middle)} MB + 16`);
    if (afterTotal - warmTotal > 30 * MB) missed.push(`heap + stylesheets ${mb(afterTotal - warmTotal)} MB over the warm run's, more than 30`);
    if (missed.length > 0) console.log(`\nmissed: ${missed.join('; ')}`);
    if (values.check && missed.length > 0) process.exitCode = 1;
  } finally {
    await cdn.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(cdnRoot, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
