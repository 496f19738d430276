import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { BEACON_PATH, type VisitReport } from '@portico/contract/beacon';
import { signVisitId, VISIT_ID_MS } from '@portico/releases';
import { postgresMissing, startTestPostgres } from '@portico/platform/testing';
import { REPO_ROOT } from './paths';
import { startServeProgram, type ServeProgram } from './serve-program';

/**
 * `npm run bench:restart` (issue 51, "Restarts drop nothing"): two `npm run
 * serve` servers on one PostgreSQL server behind the generated nginx (two
 * upstreams), under a steady load of pages, config.json, visit reports and
 * contact posts (the contact rate limit lifted), each server restarted in
 * turn (SIGTERM, then started again). A connection error, a timeout, a 5xx
 * or a 429 is a failure; every message answered as stored must be stored
 * once. `npm run build` first; needs nginx and PostgreSQL (Debian's).
 */
const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '200' },
    steady: { type: 'string', default: '15' },
    port: { type: 'string', default: '9400' },
  },
});
const RATE = Number(args.rate);
const STEADY_S = Number(args.steady);
const PORT = Number(args.port);
/** After a restarted server's ready line, requests still count as "during the restart" this long. */
const SETTLE_MS = 2000;
const TIMEOUT_MS = 5000;
const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';

type Kind = 'page' | 'config' | 'beacon' | 'contact';

/**
 * A visit report as a page sends it, its id signed with a key no server
 * holds: the servers read it whole and answer 204, counting nothing (a
 * report that counted would need a page served for every one).
 */
function visitReport(): string {
  const releases = { home: 'home-1', about: 'about-1', contact: 'contact-1' };
  const report: VisitReport = {
    v: 2,
    visit: signVisitId(randomBytes(32), { releases, canaries: {} }, new Date(Date.now() + VISIT_ID_MS)),
    sections: {
      home: { release: releases.home, arrival: 'ssr' },
      about: { release: releases.about, arrival: 'ssr' },
      contact: { release: releases.contact, arrival: 'ssr' },
    },
    vitals: { lcp: 900, inp: 80, cls: 0, fcp: 800, ttfb: 100 },
  };
  return JSON.stringify(report);
}
interface Sent {
  kind: Kind;
  at: number;
  ms: number;
  failure?: string;
  storedKey?: string;
}

/** Which request the n-th is: half pages, a fifth config.json, a fifth visit reports, a tenth contact posts. */
function kindOf(n: number): Kind {
  const slot = n % 10;
  if (slot < 5) return 'page';
  if (slot < 7) return 'config';
  if (slot < 9) return 'beacon';
  return 'contact';
}

async function send(base: string, kind: Kind, n: number, run: string): Promise<Sent> {
  const at = performance.now();
  const key = `${run}-${String(n).padStart(8, '0')}`;
  const init: RequestInit =
    kind === 'contact'
      ? {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: base },
          body: JSON.stringify({
            name: 'Restart Visitor',
            telephone: '+91 98765 43210',
            message: `Message ${key}: please call me back.`,
            language: 'en',
            idempotencyKey: key,
          }),
        }
      : kind === 'beacon'
        ? { method: 'POST', headers: { 'content-type': 'text/plain;charset=UTF-8', origin: base }, body: visitReport() }
        : {};
  const url = `${base}${kind === 'page' ? '/' : kind === 'config' ? '/config.json' : kind === 'beacon' ? BEACON_PATH : '/api/contact'}`;
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    await response.arrayBuffer();
    const ms = performance.now() - at;
    if (response.status >= 500 || response.status === 429) return { kind, at, ms, failure: `HTTP ${response.status}` };
    if (response.status >= 400) return { kind, at, ms, failure: `HTTP ${response.status} (a refusal: the bench's request is wrong)` };
    return { kind, at, ms, storedKey: kind === 'contact' ? key : undefined };
  } catch (error) {
    const ms = performance.now() - at;
    return {
      kind,
      at,
      ms,
      failure:
        (error as Error).name === 'TimeoutError'
          ? 'timeout'
          : `connection: ${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message}`,
    };
  }
}

/** Sends RATE requests a second until `stop()`; what came back, once all are in. */
function steadyLoad(base: string, run: string): { stop: () => Promise<Sent[]> } {
  const started = performance.now();
  const pending: Promise<Sent>[] = [];
  let sent = 0;
  const timer = setInterval(() => {
    const due = Math.floor(((performance.now() - started) / 1000) * RATE);
    for (; sent < due; sent += 1) pending.push(send(base, kindOf(sent), sent, run));
  }, 5);
  return {
    stop: async () => {
      clearInterval(timer);
      return Promise.all(pending);
    },
  };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function startNginx(folder: string, configPath: string, upstreams: number[]): { stop: () => void } {
  const conf = path.join(folder, 'nginx.conf');
  const generated = spawnSync(
    'npm',
    [
      ...['run', '--silent', 'nginx:config', '--'],
      ...['--config', configPath, '--out', conf, '--port', String(PORT), '--host', '127.0.0.1', '--prefix', folder],
      ...upstreams.flatMap((port) => ['--upstream', `127.0.0.1:${port}`]),
    ],
    { cwd: REPO_ROOT, encoding: 'utf8' },
  );
  if (generated.status !== 0) throw new Error(`nginx:config failed: ${generated.stderr}`);
  const asRoot = userInfo().uid === 0 ? 'user root;' : '';
  const nginx = spawn(NGINX, ['-e', path.join(folder, 'error.log'), '-c', conf, '-p', folder, '-g', `daemon off; ${asRoot}`], { stdio: 'inherit' });
  return { stop: () => nginx.kill('SIGTERM') };
}

async function main(): Promise<void> {
  const missing = postgresMissing();
  if (missing) throw new Error(`bench:restart needs a PostgreSQL server: ${missing}`);
  const postgres = startTestPostgres();
  const folder = mkdtempSync(path.join(tmpdir(), 'portico-bench-restart-'));
  chmodSync(folder, 0o755);
  const upstreams = [PORT + 10, PORT + 15];
  const base = `http://127.0.0.1:${PORT}`;
  const config = {
    comName: 'Portico Credit',
    email: 'support@portico.example',
    address: '12 MG Road, Bengaluru 560001, India',
    copyright: '© 2026 Portico Credit. All rights reserved.',
    remotes: Object.fromEntries(['home', 'about', 'contact'].map((id, index) => [id, `http://127.0.0.1:${PORT + 1 + index}/mf-manifest.json`])),
  };
  const configPath = path.join(folder, 'config.json');
  writeFileSync(configPath, JSON.stringify(config));
  const nginx = startNginx(folder, configPath, upstreams);
  const servers: ServeProgram[] = [];
  const start = async (index: number) => {
    const own = path.join(folder, `server-${index}`);
    mkdirSync(own, { recursive: true });
    writeFileSync(path.join(own, 'config.json'), JSON.stringify(config));
    servers[index] = await startServeProgram({
      port: upstreams[index]!,
      folder: own,
      quiet: true,
      env: {
        DATABASE_URL: postgres.url,
        PORTICO_TRUST_PROXY: '1',
        PORTICO_HOSTS: `127.0.0.1:${PORT},127.0.0.1`,
        PORTICO_CONTACT_RATE_LIMIT: '0',
        PORTICO_WEBHOOK_URL: '',
        PORTICO_SMTP_URL: '',
      },
    });
  };
  const restarts: { from: number; to: number }[] = [];
  let sent: Sent[] = [];
  try {
    await start(0);
    await start(1);
    process.stderr.write(`two servers behind nginx on ${base}; ${RATE} requests/s\n`);
    const run = `restart-${Date.now()}`;
    const load = steadyLoad(base, run);
    await delay(STEADY_S * 1000);
    for (const index of [0, 1]) {
      const from = performance.now();
      process.stderr.write(`restarting server ${index + 1}...\n`);
      await servers[index]!.close();
      await start(index);
      restarts.push({ from, to: performance.now() + SETTLE_MS });
      process.stderr.write(`server ${index + 1} ready again after ${((performance.now() - from) / 1000).toFixed(1)} s\n`);
      await delay(STEADY_S * 1000);
    }
    sent = await load.stop();
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    // One row per key (the column is unique): a message stored twice would be a second row of the same text.
    const { rows } = await client.query<{ idempotency_key: string; message: string }>(
      'SELECT idempotency_key, message FROM contact_messages WHERE idempotency_key LIKE $1',
      [`${run}-%`],
    );
    await client.end();
    report(sent, restarts, rows);
  } finally {
    await Promise.all(servers.map((server) => server?.close()));
    nginx.stop();
    postgres.destroy();
    rmSync(folder, { recursive: true, force: true });
  }
}

function report(sent: Sent[], restarts: { from: number; to: number }[], rows: { idempotency_key: string; message: string }[]): void {
  const during = (request: Sent) => restarts.some(({ from, to }) => request.at >= from && request.at <= to);
  const failures = sent.filter((request) => request.failure !== undefined);
  const byReason = new Map<string, number>();
  for (const { kind, failure } of failures) byReason.set(`${kind}: ${failure}`, (byReason.get(`${kind}: ${failure}`) ?? 0) + 1);
  const ok = (request: Sent) => request.failure === undefined;
  const steadyP99 = percentile(
    sent.filter((request) => ok(request) && !during(request)).map(({ ms }) => ms),
    99,
  );
  const restartP99 = percentile(
    sent.filter((request) => ok(request) && during(request)).map(({ ms }) => ms),
    99,
  );
  const storedKeys = new Set(rows.map((row) => row.idempotency_key));
  const accepted = sent.flatMap((request) => (request.storedKey === undefined ? [] : [request.storedKey]));
  const lost = accepted.filter((key) => !storedKeys.has(key)).length;
  const twice = rows.length - new Set(rows.map((row) => row.message)).size;
  console.log(`\nnpm run bench:restart: ${sent.length} requests at ${RATE}/s, two servers behind nginx, each restarted once`);
  console.log(`failed: ${failures.length}${failures.length === 0 ? '' : ` (${[...byReason].map(([reason, count]) => `${count} ${reason}`).join('; ')})`}`);
  console.log(`p99: ${steadyP99.toFixed(1)} ms steady, ${restartP99.toFixed(1)} ms during the restarts (${(restartP99 / steadyP99).toFixed(2)}x)`);
  // Where the slow ones were: by kind, and how long after their restart began (stopping, or the new server's start).
  const duringOk = sent.filter((request) => ok(request) && during(request));
  const slow = duringOk.filter(({ ms }) => ms >= restartP99);
  const kinds = (['page', 'config', 'beacon', 'contact'] as const).map(
    (kind) =>
      `${kind} ${percentile(
        duringOk.filter((request) => request.kind === kind).map(({ ms }) => ms),
        99,
      ).toFixed(0)} ms`,
  );
  const after = slow.map((request) => {
    const restart = restarts.find(({ from, to }) => request.at >= from && request.at <= to)!;
    return ((request.at - restart.from) / 1000).toFixed(1);
  });
  console.log(`during the restarts, p99 by kind: ${kinds.join(', ')}; the slowest 1 % asked for at ${after.join(', ')} s after SIGTERM`);
  console.log(`messages: ${accepted.length} answered as stored, ${rows.length} stored; ${lost} lost, ${twice} stored twice`);
  if (failures.length > 0 || lost > 0 || twice > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
