import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { openStore } from '../messages/src/contact-service';
import { contactSettings } from '../messages/src/settings';
import { openServerDatabase } from '@portico/platform/database';
import { startServerProcess } from '../messages/src/testing/server-process';
import { postgresMissing, startTestPostgres } from '@portico/platform/testing';

/**
 * `npm run bench:contact`: a bounded load test (BENCH_REQUESTS messages, 6000 by default) of POST /api/contact on
 * loopback, every request a new message (its own idempotency key), the rate
 * limit lifted. Once on the embedded database, once on a PostgreSQL server
 * (a throwaway cluster with fsync on, when the machine has PostgreSQL). The
 * server runs in its own process, as `npm run serve` does, so the load
 * generator does not share its event loop. Not part of `npm test`: its
 * numbers depend on the machine.
 */
/** Requests per database: a fixed count, so every answer is in before the rows are counted. */
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 6000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

interface Row {
  database: string;
  requestsPerSecond: number;
  storedPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  accepted: number;
  stored: number;
}

async function load(base: string, run: string): Promise<autocannon.Result> {
  let sent = 0;
  return autocannon({
    url: `${base}/api/contact`,
    method: 'POST',
    connections: CONNECTIONS,
    amount: REQUESTS,
    timeout: 10,
    headers: { 'content-type': 'application/json', origin: base },
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({
            name: 'Bench Visitor',
            telephone: '+91 98765 43210',
            message: 'A message of about the length a visitor writes: please call me back about a personal loan of 50,000 rupees.',
            language: 'en',
            idempotencyKey: `${run}-${String(sent++).padStart(8, '0')}`,
          }),
        }),
      },
    ],
  });
}

async function measure(database: string, env: Record<string, string>, countStored: () => Promise<number>): Promise<Row> {
  process.stderr.write(`${database}: starting the server...\n`);
  const server = await startServerProcess({ PORTICO_CONTACT_RATE_LIMIT: '0', PORTICO_WEBHOOK_URL: '', PORTICO_SMTP_URL: '', ...env }, 120_000);
  let result: autocannon.Result;
  try {
    // A short warm-up: the first requests compile the server's code paths.
    await autocannon({ url: `${server.base}/api/contact`, method: 'POST', amount: 10, connections: 1, headers: { origin: server.base } });
    process.stderr.write(`${database}: posting ${REQUESTS} messages with ${CONNECTIONS} connections...\n`);
    result = await load(server.base, `bench-${database.split(' ')[0]}`);
  } finally {
    await server.stop();
  }
  const stored = await countStored();
  return {
    database,
    requestsPerSecond: result.requests.average,
    storedPerSecond: stored / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    accepted: result['2xx'],
    stored,
  };
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  const folder = mkdtempSync(path.join(tmpdir(), 'portico-bench-contact-'));
  try {
    const env = { PORTICO_DATA_DIR: folder, DATABASE_URL: '' };
    rows.push(
      await measure('embedded (PGlite)', env, async () => {
        const { store, release } = await openStore(contactSettings(env, { rootDir: folder, invokedFrom: folder }));
        try {
          return (await store.counts()).messages;
        } finally {
          await store.close();
          release();
        }
      }),
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }

  const missing = postgresMissing();
  if (missing) {
    process.stderr.write(`PostgreSQL server: skipped, ${missing}\n`);
  } else {
    const postgres = startTestPostgres({ durable: true });
    try {
      rows.push(
        await measure('PostgreSQL server', { DATABASE_URL: postgres.url }, async () => {
          const db = openServerDatabase(postgres.url);
          try {
            return (await db.query<{ n: number }>('SELECT count(*)::integer AS n FROM contact_messages'))[0]!.n;
          } finally {
            await db.close();
          }
        }),
      );
    } finally {
      postgres.destroy();
    }
  }

  const header = ['database', 'requests/s', 'stored/s', 'p50 ms', 'p99 ms', 'errors', 'accepted (2xx)', 'rows stored'];
  const cells = rows.map((row) => [
    row.database,
    row.requestsPerSecond.toFixed(0),
    row.storedPerSecond.toFixed(0),
    row.p50.toFixed(1),
    row.p99.toFixed(1),
    String(row.errors),
    String(row.accepted),
    String(row.stored),
  ]);
  const widths = header.map((_, column) => Math.max(header[column]!.length, ...cells.map((row) => row[column]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  console.log(`\nPOST /api/contact on loopback, ${CONNECTIONS} connections, ${REQUESTS} messages per database, rate limit lifted, no delivery channel\n`);
  console.log(line(header));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const row of cells) console.log(line(row));
  if (rows.some((row) => row.errors > 0 || row.accepted !== row.stored)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(`bench:contact: ${(error as Error).message}`);
  process.exit(1);
});
