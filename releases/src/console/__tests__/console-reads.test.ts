import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { contactSettings, startContactService, type ContactService } from '@portico/messages';
import { hourOf, HealthStore } from '../../health/health-store';
import type { PublishChecks } from '../../release';
import { ReleaseStore } from '../../store/release-store';
import { startControlApi, type ControlApi } from '../../control/control-api';
import { silentLogger } from '@portico/platform/logging';

// What the console's screens read beside the older routes: the audit's
// filters, pages and CSV, the inbox's search and pages, the tokens' list,
// the servers and a section's health hour by hour.

const TOKEN = 'the-integrator-token';
const noChecks: PublishChecks = () => Promise.resolve({ ok: false, checks: [] });

let folder: string;
let service: ContactService;
let store: ReleaseStore;
let health: HealthStore;
let api: ControlApi;

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'portico-console-reads-'));
  service = await startContactService({
    settings: contactSettings({ PORTICO_DATA_DIR: folder, PORTICO_CONTACT_RATE_LIMIT: '0' }, { rootDir: folder, invokedFrom: folder }),
    requestOrigin: () => ({ origin: undefined, address: '127.0.0.1' }),
    log: silentLogger,
  });
  store = await ReleaseStore.open(service.database, { environmentToken: TOKEN });
  health = await HealthStore.open(service.database);
  api = await startControlApi({
    store,
    port: 0,
    publishChecks: noChecks,
    messages: service.store,
    messageChannels: service.channels,
    health: health.health,
    healthSeries: health.series,
    publicUrl: 'http://localhost:8080',
    log: silentLogger,
  });
}, 60_000);

afterAll(async () => {
  await api?.close();
  await service?.close().catch(() => undefined);
  rmSync(folder, { recursive: true, force: true });
});

async function get<T = unknown>(route: string, token = TOKEN): Promise<{ status: number; headers: Headers; body: T; text: string }> {
  const response = await fetch(`${api.url}${route}`, { headers: { Authorization: `Bearer ${token}` } });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body: body as T, text };
}

interface Entry {
  at: string;
  actor: string;
  action: string;
  section: string | null;
  detail: string;
  cursor: string;
}

describe('the audit', () => {
  beforeAll(async () => {
    for (let n = 0; n < 12; n++)
      await store.audit.record({
        actor: n % 2 ? 'ci-home' : 'ci-contact',
        action: n % 3 ? 'preview' : 'activate',
        section: n % 2 ? 'home' : 'contact',
        detail: `entry ${n}`,
      });
    // Reads of messages, in their own log, interleaved.
    await service.store.operator('lender-staff').list({});
    await store.audit.record({ actor: 'ci-home', action: 'preview', section: 'home', detail: '=HYPERLINK("https://evil.example","click")' });
  });

  it('pages newest first through both logs with a cursor, each entry once', async () => {
    const all = (await get<Entry[]>('/api/audit?limit=1000')).body;
    const paged: Entry[] = [];
    let before: string | undefined;
    for (;;) {
      const page = (await get<Entry[]>(`/api/audit?limit=4${before ? `&before=${encodeURIComponent(before)}` : ''}`)).body;
      if (page.length === 0) break;
      paged.push(...page);
      before = page.at(-1)!.cursor;
    }
    expect(paged.map((entry) => entry.cursor)).toEqual(all.map((entry) => entry.cursor));
    expect(new Set(paged.map((entry) => entry.cursor)).size).toBe(paged.length);
    expect(paged.some((entry) => entry.action === 'message-read')).toBe(true);
    expect((await get('/api/audit?before=not-a-cursor')).status).toBe(400);
  });

  it('filters by section, actor, action and time', async () => {
    const home = (await get<Entry[]>('/api/audit?section=home&action=preview&actor=ci-home')).body;
    expect(home.length).toBeGreaterThan(0);
    expect(home.every((entry) => entry.section === 'home' && entry.action === 'preview' && entry.actor === 'ci-home')).toBe(true);
    expect((await get<Entry[]>('/api/audit?action=message-read')).body.map((entry) => entry.actor)).toEqual(['lender-staff']);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await get<Entry[]>(`/api/audit?since=${future}`)).body).toEqual([]);
    expect((await get<Entry[]>(`/api/audit?until=2000-01-01T00:00:00Z`)).body).toEqual([]);
    expect((await get('/api/audit?action=nonsense')).status).toBe(400);
  });

  it('exports the same filters as CSV that no spreadsheet runs', async () => {
    const csv = await get('/api/audit.csv?section=home');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="portico-audit.csv"');
    const [header, ...rows] = parse(csv.text, { record_delimiter: '\r\n' }) as string[][];
    expect(header).toEqual(['at', 'actor', 'action', 'section', 'release', 'from', 'detail', 'requestId']);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row[3] === 'home')).toBe(true);
    // Escaped as the messages' export is: a ' wherever a spreadsheet could start reading a formula.
    expect(rows.map((row) => row[6])).toContain(`'=HYPERLINK("https://evil.example",'"click")`);
    const { token } = await store.tokens.create({ name: 'about-team', section: 'about', actor: 'test' });
    expect((await get('/api/audit.csv?section=home', token)).status).toBe(403);
  });
});

describe('the inbox', () => {
  beforeAll(async () => {
    const people = [
      ['Asha Rao', '+91 98 7654 3210', 'How much can I borrow?'],
      ['Budi Santoso', '+62 21 555 0101', 'Berapa bunga pinjaman?'],
      ['Citra Dewi', '+62 21 555 0102', 'Asha told me about you'],
    ];
    for (const [index, [name, telephone, message]] of people.entries()) {
      await service.store.submit(
        { name: name!, telephone: telephone!, message: message!, language: 'en', idempotencyKey: `inbox-${index}` },
        { address: '127.0.0.1' },
      );
    }
  });

  // Issue 49: the inbox could not tell that messages go nowhere. (Checked: 404 before the route.)
  it('says where this server delivers messages: nowhere, with no channel set', async () => {
    const delivery = await get<{ channels: string[] }>('/api/messages/delivery');
    expect([delivery.status, delivery.body]).toEqual([200, { channels: [] }]);
  });

  it('finds messages by name, telephone or text, each word in any case', async () => {
    const names = async (q: string) => (await get<{ name: string }[]>(`/api/messages?q=${encodeURIComponent(q)}`)).body.map((message) => message.name).sort();
    expect(await names('asha')).toEqual(['Asha Rao', 'Citra Dewi']);
    expect(await names('555 0101')).toEqual(['Budi Santoso']);
    expect(await names('BUNGA')).toEqual(['Budi Santoso']);
    expect(await names('asha borrow')).toEqual(['Asha Rao']);
    expect(await names('100%')).toEqual([]);
  });

  it('pages newest first, and audits each page without the search words', async () => {
    const all = (await get<{ id: string }[]>('/api/messages')).body;
    const first = (await get<{ id: string }[]>('/api/messages?limit=2')).body;
    const second = (await get<{ id: string }[]>(`/api/messages?limit=2&before=${first.at(-1)!.id}`)).body;
    expect([...first, ...second].map((message) => message.id)).toEqual(all.map((message) => message.id));
    const [latest] = await service.store.accessLog({ limit: 1 });
    expect(latest!.detail).toMatch(/^listed 1 message\(s\)/);
    await get('/api/messages?q=Asha');
    const [search] = await service.store.accessLog({ limit: 1 });
    expect(search!.detail).toContain('found by a search');
    expect(search!.detail).not.toContain('Asha');
  });

  it('exports as a CSV file that a CSV parser reads and no spreadsheet runs, audited as what it sent', async () => {
    // Each hostile text and the cell a spreadsheet gets: a ' wherever it could start reading a formula (after a tab too).
    const cells = new Map([
      ["=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"],
      ['+1+1', "'+1+1"],
      ["-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"],
      ['@SUM(1+1)', "'@SUM(1+1)"],
      ['\t=1+1', "'\t'=1+1"],
      ['\r=1+1', "'\r'=1+1"],
    ]);
    const hostile = [...cells.keys()];
    const plain = 'Dewi "Ayu", dari Bandung; salam.\r\nbaris kedua\nbaris ketiga';
    for (const [index, text] of [...hostile, plain].entries()) {
      await service.store.submit(
        { name: `Spreadsheet ${index}`, telephone: '+62 21 555 0199', message: text, language: 'id', idempotencyKey: `inbox-csv-${index}` },
        { address: '127.0.0.1' },
      );
    }
    const csv = await get('/api/messages?export=csv&q=spreadsheet');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="portico-messages.csv"');
    const [header, ...rows] = parse(csv.text, { record_delimiter: '\r\n' }) as string[][];
    expect(header).toEqual(['id', 'receivedAt', 'language', 'name', 'telephone', 'message', 'delivery', 'attempts', 'deliveredAt', 'lastError']);
    const byName = new Map(rows.map((row) => [row[3], row]));
    expect(byName.size).toBe(hostile.length + 1);
    for (const [index, text] of hostile.entries()) {
      expect(byName.get(`Spreadsheet ${index}`)!.slice(4, 6)).toEqual(["'+62 21 555 0199", cells.get(text)]);
    }
    expect(byName.get(`Spreadsheet ${hostile.length}`)![5]).toBe(plain);
    const [exported] = await service.store.accessLog({ limit: 1 });
    expect(exported!.action).toBe('message-export');
    expect(exported!.detail).toMatch(new RegExp(`^exported ${rows.length} message\\(s\\) found by a search as csv`));

    const json = await get<unknown[]>('/api/messages?export=json&q=spreadsheet');
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(json.body).toHaveLength(rows.length);
    expect((await service.store.accessLog({ limit: 1 }))[0]!.detail).toMatch(/ as json/);
  });
});

describe("the tokens, the servers and a section's health", () => {
  it('lists the live tokens with their scopes and makers, never a token', async () => {
    const { token } = await store.tokens.create({ name: 'listed', section: 'contact', actor: 'test' });
    const listed = await get<{ name: string }[]>('/api/tokens');
    expect(listed.body).toContainEqual({
      name: 'listed',
      section: 'contact',
      scopes: ['section:contact'],
      createdAt: expect.any(String),
      createdBy: 'test',
      owner: false,
    });
    expect(listed.text).not.toContain(token);
    await store.tokens.revoke('listed', 'test');
    expect((await get<{ name: string }[]>('/api/tokens')).body.map((entry) => entry.name)).not.toContain('listed');
  });

  it('lists the servers from their heartbeats, with the releases each serves', async () => {
    await store.servers.beat({ id: 'server-a', host: 'web-1', port: 8080, pid: 4242, startedAt: new Date('2026-01-01T00:00:00Z'), releases: ['home-1'] });
    const servers = (await get<{ id: string }[]>('/api/servers')).body;
    expect(servers).toContainEqual({
      id: 'server-a',
      host: 'web-1',
      port: 8080,
      pid: 4242,
      startedAt: '2026-01-01T00:00:00.000Z',
      releases: ['home-1'],
      lastSeenAt: expect.any(String),
    });
    await store.servers.leave('server-a');
    expect((await get<{ id: string }[]>('/api/servers')).body.map((server) => server.id)).not.toContain('server-a');
  });

  it('answers the releases in view hour by hour', async () => {
    const { release } = await store.releases.publish({
      section: 'about',
      manifestUrl: 'https://cdn.example/about/v1/mf-manifest.json',
      integrity: 'sha384-a',
      version: '1.0.0',
      buildId: 'a',
      createdBy: 'ci',
      checks: [],
    });
    await store.history.activate('about', release.id, 'ci');
    const now = hourOf(Date.now());
    const before = new Date(now.getTime() - 3_600_000);
    await health.record([
      { hour: before, section: 'about', releaseId: release.id, key: 'visits', count: 10 },
      { hour: before, section: 'about', releaseId: release.id, key: 'arrival:failed', count: 1 },
      { hour: now, section: 'about', releaseId: release.id, key: 'visits', count: 4 },
    ]);
    const series = await get<{ releases: { release: string; state: string; points: { hour: string; visits: number; failureRate: number }[] }[] }>(
      '/api/sections/about/health/series?hours=3',
    );
    expect(series.status).toBe(200);
    expect(series.body.releases).toEqual([
      {
        release: release.id,
        state: 'active',
        points: [
          expect.objectContaining({ hour: before.toISOString(), visits: 10, failures: 1, failureRate: 0.1 }),
          expect.objectContaining({ hour: now.toISOString(), visits: 4, failures: 0, failureRate: 0 }),
        ],
      },
    ]);
    const { token } = await store.tokens.create({ name: 'home-only', section: 'home', actor: 'test' });
    expect((await get('/api/sections/about/health/series', token)).status).toBe(403);
  });
});
