import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { brotliCompressSync } from 'node:zlib';
import { contactSettings, startContactService } from '@portico/messages';
import { apiClient, CONTROL_API } from '@portico/control-contract';
import { HealthStore, ReleaseStore, startControlApi } from '@portico/releases';
import { silentLogger } from '@portico/platform/logging';

// What issue 36 asks to measure, on this machine: the overview's API
// answers at p95 (at most 300 ms) over a database seeded with 1,000
// releases, 100,000 audit entries and 10,000 messages (the embedded
// database, as a fresh install runs; the control API in this process), and
// the console's first-load JavaScript as served (brotli, at most 150 KB)
// when console/dist exists. `npm run measure:console [-- --requests N]
// [--console-dist DIR]` (another build of the console than console/dist).

const REPO_ROOT = path.resolve(__dirname, '..');
const TOKEN = 'measure-console-token';
const REQUESTS = (() => {
  const at = process.argv.indexOf('--requests');
  return at === -1 ? 60 : Number(process.argv[at + 1]);
})();
const P95_BUDGET_MS = 300;
const FIRST_LOAD_BUDGET_BYTES = 150 * 1024;

const percentile = (values: readonly number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(p * values.length) - 1)]!;

/** The console's first load: the scripts index.html loads, as the server sends them (the build's .br, or brotli made here). */
function firstLoadBytes(): { bytes: number; files: string[] } | undefined {
  const given = process.argv.indexOf('--console-dist');
  const dist = given === -1 ? path.join(REPO_ROOT, 'console', 'dist') : path.resolve(process.argv[given + 1]!);
  const index = path.join(dist, 'index.html');
  if (!existsSync(index)) return undefined;
  const files = [...readFileSync(index, 'utf8').matchAll(/<script[^>]*\ssrc=["']?\/?([^"'\s>]+)/g)].map((match) => match[1]!);
  let bytes = 0;
  for (const file of files) {
    const plain = path.join(dist, file);
    bytes += existsSync(`${plain}.br`) ? statSync(`${plain}.br`).size : brotliCompressSync(readFileSync(plain)).length;
  }
  return { bytes, files };
}

async function seed(db: ReleaseStore['db']): Promise<void> {
  await db.query(
    `INSERT INTO releases (section, manifest_url, integrity, version, build_id, created_by, created_at)
     SELECT (ARRAY['home', 'about', 'contact'])[1 + i % 3], 'https://cdn.example/' || i || '/mf-manifest.json', 'sha384-' || i, '1.0.' || i, 'b' || i, 'ci-' || (i % 7), now() - make_interval(mins => 1000 - i)
     FROM generate_series(1, 1000) AS i`,
  );
  await db.query(
    `INSERT INTO release_audit (at, actor, action, section, release, detail)
     SELECT now() - make_interval(secs => i), 'ci-' || (i % 20), (ARRAY['publish', 'activate', 'rollback', 'preview'])[1 + i % 4], (ARRAY['home', 'about', 'contact'])[1 + i % 3], 'home-' || (1 + i % 1000), 'seeded'
     FROM generate_series(1, 100000) AS i`,
  );
  await db.query(
    `WITH made AS (
       INSERT INTO contact_messages (id, idempotency_key, body_hash, name, telephone, message, language, received_at)
       SELECT gen_random_uuid(), 'seed-' || i, 'h' || i, 'Visitor ' || i, '+62 21 ' || lpad(i::text, 6, '0'), 'A question about loan ' || i, (ARRAY['en', 'id'])[1 + i % 2], now() - make_interval(mins => i)
       FROM generate_series(1, 10000) AS i
       RETURNING id)
     INSERT INTO contact_outbox (message_id, status, attempts) SELECT id, 'delivered', 1 FROM made`,
  );
}

async function main(): Promise<void> {
  const folder = mkdtempSync(path.join(tmpdir(), 'portico-measure-console-'));
  const service = await startContactService({
    settings: contactSettings({ PORTICO_DATA_DIR: folder, PORTICO_CONTACT_RATE_LIMIT: '0' }, { rootDir: folder, invokedFrom: folder }),
    requestOrigin: () => ({ origin: undefined, address: '127.0.0.1' }),
    log: silentLogger,
  });
  const store = await ReleaseStore.open(service.database, { environmentToken: TOKEN });
  const health = await HealthStore.open(service.database);
  const seeding = performance.now();
  await seed(store.db);
  // Each section's last release active, a server's heartbeat, as a running site has them.
  for (const section of ['home', 'about', 'contact'] as const) {
    const [last] = await store.db.query<{ id: string }>('SELECT id FROM releases WHERE section = $1 ORDER BY n DESC LIMIT 1', [section]);
    await store.history.activate(section, last!.id, 'seed');
  }
  await store.servers.beat({ id: 'measure', host: 'localhost', port: 8080, pid: process.pid, startedAt: new Date(), releases: [] });
  console.log(`seeded 1,000 releases, 100,000 audit entries and 10,000 messages in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);

  const api = await startControlApi({
    store,
    health: health.health,
    healthSeries: health.series,
    port: 0,
    publishChecks: () => Promise.resolve({ ok: false, checks: [] }),
    messages: service.store,
    publicUrl: 'http://localhost:8080',
    log: silentLogger,
  });
  const client = apiClient({ base: api.url, token: TOKEN });
  const answers = {
    'GET /api/sections': () => client.call(CONTROL_API.sections.status, { query: {} }),
    'GET /api/servers': () => client.call(CONTROL_API.servers.list, {}),
    'GET /api/audit (first page)': () => client.call(CONTROL_API.audit.list, { query: { limit: '50' } }),
    'GET /api/messages (first page)': () => client.call(CONTROL_API.messages.list, { query: { limit: '50' } }),
    'GET /api/sections/contact/health/series': () => client.call(CONTROL_API.health.series, { params: { section: 'contact' }, query: {} }),
  };
  let over = false;
  try {
    for (const [name, call] of Object.entries(answers)) {
      await call();
      const times: number[] = [];
      for (let request = 0; request < REQUESTS; request++) {
        const started = performance.now();
        await call();
        times.push(performance.now() - started);
      }
      const p95 = percentile(times, 0.95);
      over ||= p95 > P95_BUDGET_MS;
      console.log(`${name.padEnd(42)} p50 ${percentile(times, 0.5).toFixed(1).padStart(6)} ms  p95 ${p95.toFixed(1).padStart(6)} ms  (${REQUESTS} requests)`);
    }
    const load = firstLoadBytes();
    if (load) {
      over ||= load.bytes > FIRST_LOAD_BUDGET_BYTES;
      console.log(
        `the console's first-load JavaScript, brotli: ${(load.bytes / 1024).toFixed(1)} KB (${load.files.join(', ')}; budget ${FIRST_LOAD_BUDGET_BYTES / 1024} KB)`,
      );
    } else {
      console.log('the console is not built (no console/dist/index.html): its first load is not measured');
    }
  } finally {
    await api.close();
    await service.close();
    rmSync(folder, { recursive: true, force: true });
  }
  console.log(over ? `OVER BUDGET (p95 ${P95_BUDGET_MS} ms, first load ${FIRST_LOAD_BUDGET_BYTES / 1024} KB)` : 'within budget');
  if (over) process.exitCode = 1;
}

void main();
