import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { BEACON_PATH, type VisitReport } from '@portico/contract/beacon';
import { openEmbeddedDatabase, openServerDatabase, type Database } from '@portico/platform/database';
import { postgresMissing, startTestPostgres, linesLogger } from '@portico/platform/testing';
import { HealthStore, ReleaseStore, signVisitId, VISIT_ID_MS, type TakenReport } from '@portico/releases';
import { beaconEndpoint, startPortico } from '@portico/server';
import { REPO_ROOT } from './paths';

/**
 * `npm run bench:beacon`: a bounded load run (BENCH_REPORTS valid visit
 * reports, 20000 by default, BENCH_CONNECTIONS 10) of POST /api/beacon on
 * loopback, through the page server's own routing, into the health store
 * on a throwaway PostgreSQL server (fsync on) when the machine has one,
 * else (or with BENCH_EMBEDDED=1) the embedded database. Every report is
 * distinct (a visit id of its own, signed as POST /api/visit signs them,
 * each counted once through the shared record of ids) for three section
 * releases; the per-network cap is
 * lifted for this run through the endpoint's `limits` option (every report
 * comes from 127.0.0.1), which no server does. The server runs in its own
 * process, so the load generator does not share its event loop. Needs the
 * apps built (`npm run build`): the page server starts on them. Not part of
 * `npm test`: its numbers depend on the machine.
 */
const REPORTS = Number(process.env.BENCH_REPORTS ?? 20_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const RELEASES = { home: 'home-1', about: 'about-1', contact: 'contact-1' } as const;

/** The server side, in the child process: `listening <url> <secret>` once ready (a throwaway database's); SIGTERM flushes and prints what was written. */
async function serve(): Promise<void> {
  const url = process.env.BENCH_DATABASE_URL;
  const db: Database = url ? openServerDatabase(url) : await openEmbeddedDatabase(process.env.BENCH_DATA_DIR!);
  const releases = await ReleaseStore.open(db);
  const store = await HealthStore.open(db);
  const written = { statements: 0, rows: 0 };
  const endpoint = beaconEndpoint({
    health: {
      recordReports: (batch: readonly TakenReport[]) => {
        written.statements++;
        written.rows += batch.length;
        return store.recordReports(batch);
      },
    },
    secret: () => releases.previewSecret(),
    log: linesLogger((line) => process.stderr.write(`${line}\n`)),
    limits: { perNetwork: Number.POSITIVE_INFINITY, perBlock: Number.POSITIVE_INFINITY },
  });
  const running = await startPortico({
    rootDir: REPO_ROOT,
    basePort: 0,
    host: '127.0.0.1',
    ssr: false,
    beacon: endpoint,
    log: linesLogger((line) => process.stderr.write(`${line}\n`)),
  });
  process.stdout.write(`listening http://127.0.0.1:${running.ports[0]} ${(await releases.previewSecret()).toString('base64url')}\n`);
  process.once('SIGTERM', () => {
    void (async () => {
      await running.close();
      await endpoint.close();
      await db.close();
      process.stdout.write(`written ${written.statements} ${written.rows}\n`);
      process.exit(0);
    })();
  });
}

/** A report as a page sends it, with vitals spread as real visits' are. */
function reportBody(secret: Buffer, index: number): string {
  const failed = index % 50 === 0;
  const report: VisitReport = {
    v: 2,
    visit: signVisitId(secret, { releases: RELEASES, canaries: {} }, new Date(Date.now() + VISIT_ID_MS)),
    sections: {
      home: { release: RELEASES.home, arrival: 'ssr' },
      about: { release: RELEASES.about, arrival: 'csr' },
      contact: failed ? { release: RELEASES.contact, arrival: 'failed', failure: 'render' } : { release: RELEASES.contact, arrival: 'ssr' },
    },
    vitals: {
      lcp: 800 + ((index * 37) % 4000),
      inp: 40 + ((index * 13) % 400),
      cls: ((index * 7) % 300) / 1000,
      fcp: 500 + ((index * 11) % 2000),
      ttfb: 80 + ((index * 5) % 600),
    },
  };
  return JSON.stringify(report);
}

async function main(): Promise<void> {
  const missing = process.env.BENCH_EMBEDDED === '1' ? 'BENCH_EMBEDDED=1' : postgresMissing();
  const postgres = missing ? undefined : startTestPostgres({ durable: true });
  const folder = mkdtempSync(path.join(tmpdir(), 'portico-bench-beacon-'));
  const database = postgres ? 'PostgreSQL server' : `embedded (PGlite; no server: ${missing})`;
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'bench/bench-beacon.ts'), '--serve'], {
      cwd: REPO_ROOT,
      env: { ...process.env, BENCH_DATABASE_URL: postgres?.url ?? '', BENCH_DATA_DIR: folder },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    const [, base, secretText] = await new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setInterval(() => {
        const ready = /listening (\S+) (\S+)/.exec(output);
        if (ready) {
          clearInterval(timer);
          resolve(ready);
        }
      }, 20);
      void exited.then(() => reject(new Error(`the bench server stopped before it listened:\n${output}`)));
    });

    const secret = Buffer.from(secretText!, 'base64url');
    let sent = 0;
    /** A run of `amount` reports, and the time from its start to its last answer (autocannon's own duration ends on its next 1 s tick). */
    const load = (amount: number, connections: number) =>
      new Promise<{ result: autocannon.Result; seconds: number }>((resolve, reject) => {
        const started = performance.now();
        let last = started;
        const instance = autocannon(
          {
            url: `${base}${BEACON_PATH}`,
            method: 'POST',
            connections,
            amount,
            timeout: 10,
            headers: { 'content-type': 'text/plain;charset=UTF-8', origin: base! },
            requests: [{ setupRequest: (request) => ({ ...request, body: reportBody(secret, sent++) }) }],
          },
          (error, result) => (error ? reject(error as Error) : resolve({ result, seconds: (last - started) / 1000 })),
        );
        instance.on('response', () => (last = performance.now()));
      });
    // A short warm-up: the first requests compile the server's code paths (its reports are counted too).
    const { result: warmUp } = await load(50, 1);
    process.stderr.write(`${database}: sending ${REPORTS} reports with ${CONNECTIONS} connections...\n`);
    const { result, seconds } = await load(REPORTS, CONNECTIONS);
    child.kill('SIGTERM');
    await exited;
    const [, statements, rowsUpserted] = /written (\d+) (\d+)/.exec(output) ?? [];

    const db = postgres ? openServerDatabase(postgres.url) : await openEmbeddedDatabase(folder);
    const [counted] = await db.query<{ rows: number; visits: string }>(
      "SELECT count(*)::integer AS rows, coalesce(sum(count) FILTER (WHERE key = 'visits'), 0)::text AS visits FROM release_health",
    );
    await db.close();

    // Every report taken counts a visit for each of its 3 sections.
    const expectedVisits = (result['2xx'] + warmUp['2xx']) * 3;
    const header = [
      'database',
      'reports/s',
      'p50 ms',
      'p99 ms',
      'errors',
      'accepted (204)',
      'visits counted',
      'batches',
      'reports in batches',
      'rows in table',
    ];
    const cells = [
      database.split(';')[0]!.replace(/ \(PGlite$/, ' (PGlite)'),
      (result['2xx'] / seconds).toFixed(0),
      result.latency.p50.toFixed(1),
      result.latency.p99.toFixed(1),
      String(result.errors + result.timeouts + result.non2xx),
      String(result['2xx']),
      `${counted!.visits} of ${expectedVisits}`,
      statements ?? '?',
      rowsUpserted ?? '?',
      String(counted!.rows),
    ];
    const widths = header.map((name, column) => Math.max(name.length, cells[column]!.length));
    const line = (row: string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
    console.log(
      `\nPOST ${BEACON_PATH} on loopback, ${CONNECTIONS} connections, ${REPORTS} reports (3 sections and 5 vitals each), per-network cap lifted, ${database}\n`,
    );
    console.log(line(header));
    console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
    console.log(line(cells));
    if (result.errors + result.timeouts + result.non2xx > 0 || Number(counted!.visits) !== expectedVisits) process.exitCode = 1;
  } finally {
    postgres?.destroy();
    rmSync(folder, { recursive: true, force: true });
  }
}

if (process.argv.includes('--serve')) {
  serve().catch((error: unknown) => {
    process.stderr.write(`bench:beacon server: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
} else {
  main().catch((error: unknown) => {
    console.error(`bench:beacon: ${(error as Error).message}`);
    process.exit(1);
  });
}
