import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { eventually } from '@portico/testing/eventually';
import { pipelinedFlood } from '@portico/testing/pipelined-flood';
import { sampleConfig } from '@portico/testing/sample-config';
import { REPO_ROOT } from './paths';
import { startServeProgram } from './serve-program';

/**
 * `npm run bench:flood`: issue 46's flood against `npm run serve`'s program
 * (the existing builds: `npm run build` first) on BENCH_PORT (9460) and the
 * next four ports, loopback only. From 127.0.0.2, `--connections` (40)
 * keep-alive connections each write `--requests` (20,000) pipelined
 * `GET /` (41 bytes each: 32 MB in all) and never read an answer; meanwhile
 * a visitor from 127.0.0.1 asks for `/` on a new connection every 500 ms for
 * `--seconds` (60). It prints the share of the visitor's pages answered
 * within 2 s, their median and slowest, the front process's RSS before and
 * at its peak (sampled every 250 ms), the bytes of the flood the server let
 * in, and how many EMFILE lines its log holds. Exit 1 when under 90 % of the
 * pages came within 2 s.
 */
const { values: args } = parseArgs({
  options: { connections: { type: 'string', default: '40' }, requests: { type: 'string', default: '20000' }, seconds: { type: 'string', default: '60' } },
});
const PORT = Number(process.env.BENCH_PORT ?? 9460);
const CONNECTIONS = Number(args.connections);
const REQUESTS = Number(args.requests);
const SECONDS = Number(args.seconds);
const FLOODER = '127.0.0.2';
const EVERY_MS = 500;
const WITHIN_MS = 2_000;
const TARGET_SHARE = 0.9;

/** One `GET /` on a connection of its own from 127.0.0.1: its time, or undefined when it failed or took past `giveUpMs`. */
function visit(giveUpMs: number): Promise<number | undefined> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port: PORT, path: '/', localAddress: '127.0.0.1', agent: false, headers: { 'Accept-Encoding': 'br, gzip' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 200 ? performance.now() - started : undefined));
        res.on('error', () => resolve(undefined));
      },
    );
    req.setTimeout(giveUpMs, () => {
      req.destroy();
      resolve(undefined);
    });
    req.on('error', () => resolve(undefined));
    req.end();
  });
}

/** The resident memory of a process, in MB, from /proc. */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) / 1024;
}

const percentile = (sorted: readonly number[], share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? NaN;

async function main(): Promise<void> {
  if (!existsSync(path.join(REPO_ROOT, 'host/dist/index.html'))) throw new Error('no build in host/dist: run npm run build first');
  const folder = mkdtempSync(path.join(tmpdir(), 'portico-bench-flood-'));
  writeFileSync(
    path.join(folder, 'config.json'),
    JSON.stringify({
      ...sampleConfig,
      remotes: Object.fromEntries(['home', 'about', 'contact'].map((section, index) => [section, `http://127.0.0.1:${PORT + 1 + index}/mf-manifest.json`])),
    }),
  );
  const serve = await startServeProgram({ port: PORT, folder, quiet: true });
  const pid = serve.child.pid!;
  try {
    await eventually(async () => (await visit(5_000)) !== undefined, { what: 'the page', withinMs: 60_000, everyMs: 200 });
    const before = rssMb(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 250);
    const flood = await pipelinedFlood({
      port: PORT,
      localAddress: FLOODER,
      connections: CONNECTIONS,
      requestsPerConnection: REQUESTS,
      request: `GET / HTTP/1.1\r\nHost: 127.0.0.1:${PORT}\r\n\r\n`,
    });
    const times: (number | undefined)[] = [];
    /** When each page slower than WITHIN_MS was asked for, in seconds from the flood's start. */
    const slowAt: string[] = [];
    const visits: Promise<void>[] = [];
    const start = performance.now();
    const end = start + SECONDS * 1000;
    while (performance.now() < end) {
      // Each on time, whatever the one before takes: the visitor does not wait for the server.
      const at = ((performance.now() - start) / 1000).toFixed(1);
      visits.push(
        visit(30_000).then((ms) => {
          times.push(ms);
          if (ms === undefined || ms > WITHIN_MS) slowAt.push(`${at} s (${ms === undefined ? 'failed' : `${(ms / 1000).toFixed(1)} s`})`);
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
    }
    await Promise.all(visits);
    const sent = flood.sent();
    flood.stop();
    clearInterval(sampler);
    const answered = times.filter((ms): ms is number => ms !== undefined).sort((a, b) => a - b);
    const inTime = answered.filter((ms) => ms <= WITHIN_MS).length;
    const share = inTime / times.length;
    const emfile = (serve.log().match(/EMFILE/g) ?? []).length;
    process.stdout.write(
      [
        `bench:flood (load average ${loadavg()[0]!.toFixed(2)}): ${CONNECTIONS} connections x ${REQUESTS} pipelined GET / from ${FLOODER}, never read, for ${SECONDS} s`,
        `  visitor: ${inTime} of ${times.length} pages within ${WITHIN_MS / 1000} s (${(share * 100).toFixed(1)} %), ${times.length - answered.length} failed or past 30 s; p50 ${percentile(answered, 0.5).toFixed(1)} ms, p90 ${percentile(answered, 0.9).toFixed(1)} ms, max ${(answered.at(-1) ?? NaN).toFixed(1)} ms`,
        `  pages past ${WITHIN_MS / 1000} s, asked for at: ${slowAt.slice(0, 12).join(', ') || 'none'}${slowAt.length > 12 ? `, and ${slowAt.length - 12} more` : ''}`,
        `  front process RSS: ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB at its peak`,
        `  flood bytes the server let in: ${(sent / 1024 / 1024).toFixed(1)} MB of ${((CONNECTIONS * REQUESTS * 41) / 1024 / 1024).toFixed(1)} MB; EMFILE in its log: ${emfile}`,
      ].join('\n') + '\n',
    );
    if (share < TARGET_SHARE) process.exitCode = 1;
  } finally {
    await serve.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
