/**
 * `npm run measure:start`: how soon `npm run serve` (the compiled server,
 * server/serve.cjs) is ready and how much memory its front process holds,
 * as an operator starts it: the time from the process's start to the ready
 * line (`Portico is serving at …`), and the front process's resident memory
 * 10 s after it (the render workers are processes of their own, not
 * counted). With a warm data folder (a start before made it) the median of
 * `--runs` starts (3); once with a fresh folder; with the embedded database,
 * and with DATABASE_URL on a throwaway PostgreSQL server when one can be
 * started here. Targets (issue 47): ready ≤ 2 s warm; ≤ 200 MB with the
 * embedded database, ≤ 120 MB with DATABASE_URL.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { postgresMissing, startTestPostgres } from '@portico/platform/testing';
import { builtServer, serveNodeArgs } from '@portico/testing/built-apps';
import { startNodeProgram, waitForOutput } from '@portico/testing/processes';

const REPO_ROOT = path.resolve(__dirname, '..');
const LAUNCHER = builtServer();
// PORT moves the five ports (PORT…PORT+4), for two checkouts measuring on one machine.
const PORT = Number(process.env.PORT) || 18_080;
const SETTLE_MS = 10_000;

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const runs = Number(values.runs);

interface Start {
  readyMs: number;
  rssMb: number;
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('VmRSS:'))!;
  return Number(line.replace(/\D+/g, '')) / 1024;
}

/** One `npm run serve` from its start to its ready line, then its memory after SETTLE_MS; stopped by SIGTERM. */
async function startOnce(dataDir: string, databaseUrl: string | undefined): Promise<Start> {
  const started = performance.now();
  const program = startNodeProgram(LAUNCHER, {
    nodeArgs: serveNodeArgs(),
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: String(PORT), PORTICO_DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
  });
  try {
    await waitForOutput(program, `Portico is serving at http://localhost:${PORT}`, { what: 'npm run serve', withinMs: 120_000 });
    const readyMs = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    return { readyMs, rssMb: rssMb(program.child.pid!) };
  } finally {
    program.child.kill('SIGTERM');
    await program.closed;
  }
}

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)]!;

async function measure(label: string, databaseUrl: string | undefined): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portico-start-'));
  try {
    const fresh = await startOnce(dataDir, databaseUrl);
    const warm: Start[] = [];
    for (let run = 0; run < runs; run++) warm.push(await startOnce(dataDir, databaseUrl));
    const ready = median(warm.map(({ readyMs }) => readyMs));
    const rss = median(warm.map(({ rssMb: mb }) => mb));
    console.log(
      `| ${label} | ${(fresh.readyMs / 1000).toFixed(2)} s | ${(ready / 1000).toFixed(2)} s (${warm.map(({ readyMs }) => (readyMs / 1000).toFixed(2)).join(', ')}) | ${rss.toFixed(0)} MB (${warm.map(({ rssMb: mb }) => mb.toFixed(0)).join(', ')}) |`,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The load average over the last minute, printed beside the figures: on a busy machine the times mean little. */
const load = () => loadavg()[0]!.toFixed(1);

async function main(): Promise<void> {
  console.log(`load average at the start: ${load()}`);
  console.log(`| database | ready, fresh data folder | ready, warm (median of ${runs}) | front process RSS ${SETTLE_MS / 1000} s after ready |`);
  console.log('|---|---|---|---|');
  await measure('embedded (PGlite)', undefined);
  const missing = postgresMissing();
  if (missing) {
    console.log(`| DATABASE_URL | not measured: ${missing} | | |`);
    return;
  }
  const postgres = startTestPostgres();
  try {
    await measure('DATABASE_URL (PostgreSQL)', postgres.url);
  } finally {
    postgres.destroy();
  }
  console.log(`load average at the end: ${load()}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
