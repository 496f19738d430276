import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './paths';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

/**
 * `npm run bench:server`: a bounded load test of the production server on
 * loopback. It starts `npm run serve` as an operator does (render worker
 * included, when the build has one) on the existing builds (`npm run build`
 * first), on ports 9400-9403 (BENCH_PORT moves them), and loads, one after
 * the other for BENCH_SECONDS each (10 by default), the page, config.json
 * and a hashed chunk, as a browser asks for them (brotli accepted).
 * `--no-cache` starts the server with PORTICO_SSR_CACHE=0, so every page is
 * rendered afresh. Not part of `npm test`: its numbers depend on the machine
 * (the load generator shares its cores with the server).
 */
const ROOT = REPO_ROOT;
const { values: args } = parseArgs({ options: { 'no-cache': { type: 'boolean', default: false } } });
const PORT = Number(process.env.BENCH_PORT ?? 9400);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const CACHE = !args['no-cache'];

interface Row {
  target: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  megabytesPerSecond: number;
}

async function load(url: string): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    timeout: 10,
    headers: { 'accept-encoding': 'br, gzip' },
  });
}

/** `npm run serve`'s program, on loopback, until close() ends it (SIGTERM, as Ctrl-C would). */
async function startServe(): Promise<{ close(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', ...(CACHE ? {} : { PORTICO_SSR_CACHE: '0' }) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Portico is serving at')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`npm run serve stopped (exit ${code}) before it was ready:\n${output}`)));
  });
  return {
    close: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function main(): Promise<void> {
  const chunk = readdirSync(path.join(ROOT, 'host/dist')).find((file) => /^main\.[0-9a-f]{10}\.js$/.test(file));
  if (!chunk) throw new Error('no build in host/dist: run npm run build first');
  const running = await startServe();
  const base = `http://127.0.0.1:${PORT}`;
  const page = await (await fetch(`${base}/`)).text();
  const rendering = /<main\b/.test(page) ? 'server-rendered' : 'client-rendered (no render worker)';
  const rows: Row[] = [];
  try {
    for (const target of ['/', '/config.json', `/${chunk}`]) {
      process.stderr.write(`loading ${target} for ${SECONDS} s with ${CONNECTIONS} connections...\n`);
      const result = await load(`${base}${target}`);
      rows.push({
        target,
        requestsPerSecond: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors + result.timeouts + result.non2xx,
        megabytesPerSecond: result.throughput.average / 1e6,
      });
    }
  } finally {
    await running.close();
  }

  const header = ['target', 'requests/s', 'p50 ms', 'p99 ms', 'errors', 'MB/s'];
  const cells = rows.map((row) => [
    row.target,
    row.requestsPerSecond.toFixed(0),
    row.p50.toFixed(1),
    row.p99.toFixed(1),
    String(row.errors),
    row.megabytesPerSecond.toFixed(1),
  ]);
  const widths = header.map((_, column) => Math.max(header[column]!.length, ...cells.map((row) => row[column]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  console.log(
    `\nnpm run serve on loopback, ${availableParallelism()} cores shared with the load generator, ${CONNECTIONS} connections, ` +
      `${SECONDS} s per target, Accept-Encoding: br, gzip; page ${rendering}, page cache ${CACHE ? 'on' : 'off (PORTICO_SSR_CACHE=0)'}\n`,
  );
  console.log(line(header));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const row of cells) console.log(line(row));
  if (rows.some((row) => row.errors > 0)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(`bench:server: ${(error as Error).message}`);
  process.exit(1);
});
