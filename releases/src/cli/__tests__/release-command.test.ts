import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { embeddedTestDatabase, type TestDatabase } from '@portico/platform/testing';
import { startControlApi, type ControlApi } from '../../control/control-api';
import { HealthStore } from '../../health/health-store';
import { bucketOf } from '../../health/vital-histogram';
import type { PublishChecks } from '../../release';
import { ReleaseStore } from '../../store/release-store';
import { recordCanaryVisits } from '../../testing/canary-visits';
import { releaseCommand } from '../release-command';
import { PROCESS_START_MS } from '@portico/testing/processes';
import { silentLogger } from '@portico/platform/logging';

const TOKEN = 'the-integrator-token';

/** Passes every build but one whose URL says `broken`, which fails two checks, and one that says `missing`, whose manifest is not there. */
const checks: PublishChecks = ({ section, manifestUrl }) =>
  Promise.resolve(
    manifestUrl.includes('missing')
      ? {
          ok: false,
          checks: [
            { name: 'reachable', ok: false, detail: `${manifestUrl} answered HTTP 404` },
            { name: 'manifest', ok: false, detail: 'not run: the manifest was not fetched' },
            { name: 'integrity', ok: false, detail: 'not run: the manifest was not fetched' },
          ],
        }
      : manifestUrl.includes('broken')
        ? {
            ok: false,
            checks: [
              { name: 'exposes ./section', ok: true, detail: 'it does' },
              { name: 'shared versions', ok: false, detail: 'react ^18.2.0 does not accept 19.2.0' },
              { name: 'file hashes', ok: false, detail: 'remoteEntry.js does not match its hash' },
            ],
          }
        : {
            ok: true,
            checks: [],
            // A build id its publisher chose to mislead a terminal with: a bidi override, an escape sequence.
            manifest: {
              integrity: `sha384-${manifestUrl.length}${section}`,
              version: manifestUrl.includes('v2') ? '2.0.0' : '1.0.0',
              buildId: manifestUrl.includes('/spoof/') ? 'exe.\u202Egpj\u001b[2J' : `build-${manifestUrl.split('/').at(-2)}`,
            },
          },
  );

let database: TestDatabase;
let store: ReleaseStore;
let health: HealthStore;
let api: ControlApi;
let folder: string;

beforeAll(async () => {
  database = embeddedTestDatabase();
  folder = mkdtempSync(path.join(tmpdir(), 'portico-release-cli-'));
  store = await ReleaseStore.open(await database.open(), { environmentToken: TOKEN });
  health = await HealthStore.open(store.db);
  api = await startControlApi({
    store,
    health: health.health,
    port: 0,
    publishChecks: checks,
    publicUrl: 'http://localhost:8080',
    log: silentLogger,
    // A server with a mail server and no webhook secret: what `alerts show` says can and cannot be delivered.
    alerts: { canSend: { webhook: false, mail: true }, sendTest: () => Promise.resolve([]) },
    configuredRemotes: () =>
      Promise.resolve({
        home: 'http://localhost:8081/mf-manifest.json',
        about: 'http://localhost:8082/mf-manifest.json',
        contact: 'http://localhost:8083/mf-manifest.json',
      }),
  });
}, 60_000);

afterAll(async () => {
  await api?.close();
  await store?.db.close();
  database?.cleanUp();
  rmSync(folder, { recursive: true, force: true });
});

/** `npm run release -- ...args` against the test's control API, with PORTICO_TOKEN unless `env` says otherwise. */
async function release(args: string[], env: Record<string, string> = { PORTICO_TOKEN: TOKEN }): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await releaseCommand(args, {
    env: { PORTICO_CONTROL_URL: api.url, PORTICO_DATA_DIR: folder, ...env },
    rootDir: folder,
    invokedFrom: folder,
    out: (text) => (stdout += text),
    err: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

describe('npm run release', () => {
  it('shows config.json as the source of every section with no release', async () => {
    const status = await release(['status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toBe(
      [
        'SECTION  ACTIVE       BUILD                                   SINCE  BY  VISITS  FAILED  LCP P75  INP P75  CLS P75  FAILURES BY CLASS',
        'home     config.json  http://localhost:8081/mf-manifest.json',
        'about    config.json  http://localhost:8082/mf-manifest.json',
        'contact  config.json  http://localhost:8083/mf-manifest.json',
        '',
      ].join('\n'),
    );
  });

  it('publishes, activates and rolls back, then shows the table of active releases', async () => {
    const first = await release(['publish', 'contact', 'https://cdn.example/contact/v1/mf-manifest.json', '--note', 'first']);
    expect(first).toMatchObject({ code: 0 });
    const id1 = /published (contact-\d+)/.exec(first.stdout)![1]!;
    const second = await release(['publish', 'contact', 'https://cdn.example/contact/v2/mf-manifest.json']);
    const id2 = /published (contact-\d+)/.exec(second.stdout)![1]!;

    expect((await release(['activate', 'contact', id1])).code).toBe(0);
    const activated = await release(['activate', 'contact', id2, '--note', 'the new form']);
    expect(activated.stdout).toBe(`contact: ${id2} (build build-v2 (version 2.0.0)) is active; a rollback would go back to ${id1} (build build-v1)\n`);

    const status = await release(['status']);
    const [header, , , contact] = status.stdout.split('\n');
    expect(header).toMatch(/^SECTION +ACTIVE +BUILD +SINCE +BY +VISITS +FAILED +LCP P75 +INP P75 +CLS P75 +FAILURES BY CLASS$/);
    // No visit reported yet: no rates, no vitals.
    expect(contact).toMatch(
      new RegExp(`^contact +${id2} +build-v2 \\(version 2\\.0\\.0\\) +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC +environment +0 +- +- +- +-$`),
    );

    // 200 visits of the active release, 5 failed (3 render errors, 2 timeouts), LCP 2.4 s, INP 150 ms, CLS 0.
    const count = (key: string, n: number) => ({ hour: new Date(), section: 'contact' as const, releaseId: id2, key, count: n });
    await health.record([
      count('visits', 200),
      count('arrival:failed', 5),
      count('failed:render', 3),
      count('failed:timeout', 2),
      count(`lcp:${bucketOf('lcp', 2400)}`, 200),
      count(`inp:${bucketOf('inp', 150)}`, 120),
      count(`cls:${bucketOf('cls', 0)}`, 200),
    ]);
    const withHealth = await release(['status', '--hours', '6']);
    const line = withHealth.stdout.split('\n')[3]!;
    expect(line).toMatch(/ environment +200 +2\.5 % +\d+ ms +\d+ ms +0 +timeout 2, render 3$/);
    const [lcp, inp] = [...line.matchAll(/(\d+) ms/g)].map((match) => Number(match[1]));
    expect(Math.abs(lcp! - 2400)).toBeLessThanOrEqual(120);
    expect(Math.abs(inp! - 150)).toBeLessThanOrEqual(8);
    expect(withHealth.stderr).toBe('health: the visits reported since the canary started, else in the last 6 hours (by whole hours)\n');
    expect((await release(['status', '--hours', 'six'])).code).toBe(2);

    const back = await release(['rollback', 'contact']);
    expect(back.stdout).toBe(`contact: ${id1} (build build-v1) is active; a rollback would go back to config.json's URL\n`);
    const list = await release(['list', 'contact']);
    expect(
      list.stdout
        .split('\n')
        .slice(1, 3)
        .map((line) => line.split(/ +/).slice(0, 2)),
    ).toEqual([
      [id2, 'available'],
      [id1, 'active'],
    ]);
    const audit = await release(['audit', '--section', 'contact', '--limit', '2']);
    expect(audit.stdout.split('\n')[1]).toMatch(new RegExp(`environment +rollback +contact +${id1} +${id2}`));

    // The first release rolled back too: config.json's URL again, shown as such, audited.
    const toConfig = await release(['rollback', 'contact']);
    expect(toConfig).toMatchObject({ code: 0, stdout: `contact: back on config.json's URL, no release active; it replaced ${id1} (build build-v1)\n` });
    expect((await release(['status'])).stdout.split('\n')[3]).toMatch(
      /^contact +config\.json +http:\/\/localhost:8083\/mf-manifest\.json +\d{4}-\d\d-\d\d \d\d:\d\d UTC +environment$/,
    );
    expect((await release(['audit', '--section', 'contact', '--limit', '1'])).stdout.split('\n')[1]).toMatch(
      new RegExp(`environment +rollback +contact +config\\.json +${id1} +back to config\\.json's URL`),
    );
    const nothing = await release(['rollback', 'contact']);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toContain('contact has no active release to roll back from: it serves the URL in config.json already');
  });

  it("exits 1 with the server's reason and each failed check when refused", async () => {
    const refused = await release(['publish', 'home', 'https://cdn.example/home/broken/mf-manifest.json']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      [
        'release: refused: 2 checks failed: shared versions, file hashes',
        '  ✗ shared versions: react ^18.2.0 does not accept 19.2.0',
        '  ✗ file hashes: remoteEntry.js does not match its hash',
        '',
      ].join('\n'),
    );
    // The checks that did not run are counted apart, and not marked as failed.
    const missing = await release(['publish', 'home', 'https://cdn.example/home/missing/mf-manifest.json']);
    expect(missing.stderr).toBe(
      [
        'release: refused: 1 check failed, 2 not run: reachable',
        '  ✗ reachable: https://cdn.example/home/missing/mf-manifest.json answered HTTP 404',
        '  - manifest: not run: the manifest was not fetched',
        '  - integrity: not run: the manifest was not fetched',
        '',
      ].join('\n'),
    );
    // A value the API refuses is named by the flag it came from.
    const hours = await release(['status', '--hours', '9999']);
    expect(hours.code).toBe(1);
    expect(hours.stderr).toBe('release: refused: --hours: must be a whole number from 1 to 720\n');
    const nothing = await release(['rollback', 'about']);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toContain('about has no active release to roll back from');
    const wrongToken = await release(['status'], { PORTICO_TOKEN: 'wrong' });
    expect(wrongToken.code).toBe(1);
    expect(wrongToken.stderr).toContain('(the token from PORTICO_TOKEN)');
  });

  it('exits 2 on a usage error, with no token, or when the control API does not answer', async () => {
    expect((await release(['activate', 'home'])).code).toBe(2);
    expect((await release(['frobnicate'])).code).toBe(2);
    expect((await release(['preview', 'home-1', '--expires-in', 'soon'])).code).toBe(2);
    const tooShort = await release(['preview', 'home-1', '--expires-in', '30']);
    expect(tooShort.code).toBe(2);
    expect(tooShort.stderr).toMatch(/^release: --expires-in: a whole number of seconds from 60 \(1 minute\) to 2592000 \(30 days\), not "30"\n/);
    const noToken = await release(['status'], {});
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain(`no token: set PORTICO_TOKEN`);

    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const unreachable = await release(['status'], { PORTICO_TOKEN: TOKEN, PORTICO_CONTROL_URL: `http://127.0.0.1:${closed}` });
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toContain(`the control API at http://127.0.0.1:${closed} does not answer`);
  });

  it('reads the owner token from the data folder, and creates and revokes a token', async () => {
    writeFileSync(path.join(folder, 'control-token'), `${TOKEN}\n`, { mode: 0o600 });
    const created = await release(['token', 'create', 'ci-home', '--section', 'home'], {});
    expect(created.code).toBe(0);
    const token = created.stdout.trim();
    expect(created.stderr).toContain('the token ci-home (section:home), shown this once');
    const preview = await release(['preview', 'contact-1', '--expires-in', '600'], { PORTICO_TOKEN: token });
    // A home token may not preview a contact release.
    expect(preview.code).toBe(1);
    expect((await release(['token', 'revoke', 'ci-home'], {})).stdout).toBe('revoked ci-home\n');
    expect((await release(['list'], { PORTICO_TOKEN: token })).code).toBe(1);
  });

  it('shows control and format characters escaped in everything it prints: build ids and notes in publish, list, status and audit, and a 5xx text', async () => {
    const unsafe = /[\p{Cc}\p{Cf}](?<!\n)/u;
    const note = 'ok\u202E\u2066 \u001b]0;owned\u0007\r\nfake line';
    const published = await release(['publish', 'home', 'https://cdn.example/home/spoof/mf-manifest.json', '--note', note]);
    expect(published.stdout).toMatch(/^published home-\d+: build exe\.\\u202egpj\\x1b\[2J, https:/);
    const id = /published (home-\d+)/.exec(published.stdout)![1]!;
    expect((await release(['activate', 'home', id, '--note', note])).code).toBe(0);
    for (const args of [['list', 'home'], ['status'], ['audit', '--section', 'home', '--limit', '3']]) {
      const { stdout, stderr } = await release(args);
      expect([args, stdout, stderr].join('\n')).not.toMatch(unsafe);
      expect([args, stdout.includes('\\u202e')]).toEqual([args, true]);
    }
    const list = (await release(['list', 'home'])).stdout;
    // The note's line break stays inside its cell: one line per release.
    expect(list.split('\n').filter((line) => line.startsWith(id))).toEqual([expect.stringContaining('ok\\u202e\\u2066 \\x1b]0;owned\\x07\\r\\nfake line')]);
    // Home back on config.json's URL, as the tests below expect it.
    expect((await release(['rollback', 'home'])).code).toBe(0);

    const failing = createServer((_request, response) => {
      response.writeHead(503, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ error: 'database \u001b[31mdown\u202E\nrelease: ok' }));
    });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    try {
      const down = await release(['status'], { PORTICO_TOKEN: TOKEN, PORTICO_CONTROL_URL: `http://127.0.0.1:${(failing.address() as AddressInfo).port}` });
      expect(down.code).toBe(2);
      expect(down.stderr).toBe('release: the control API cannot do it now (503): database \\x1b[31mdown\\u202e\\nrelease: ok\n');
    } finally {
      await new Promise((resolve) => failing.close(resolve));
    }
  });

  it("names the option typed in a refusal of a token's scopes, as of any flag", async () => {
    for (const [args, reason] of [
      [['token', 'create', 'ci-flags', '--section', 'home', '--scope', 'section:contact'], '--scope: section:contact disagree with section home'],
      [['token', 'create', 'ci-flags', '--scope', 'releases', '--scope', 'everything'], '--scope: a scope is releases, messages, metrics or section:<section>'],
      [['audit', '--limit', '0'], '--limit: must be a whole number from 1 to 10000'],
    ] as const) {
      const refused = await release([...args]);
      expect([args[0], refused.code, refused.stderr]).toEqual([args[0], 1, expect.stringContaining(`release: refused: ${reason}`)]);
    }
  });

  it(
    'exits with its code as a process, as CI sees it',
    async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, '../release-cli.ts'), 'rollback', 'home'], {
        env: { ...process.env, PORTICO_CONTROL_URL: api.url, PORTICO_TOKEN: TOKEN },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(stderr).toContain('home has no active release to roll back from');
      expect(code).toBe(1);
    },
    PROCESS_START_MS,
  );

  it('runs a canary: started, shown under its section in status, ramped, aborted, started again and promoted', async () => {
    const published = async (name: string) =>
      /published (about-\d+)/.exec((await release(['publish', 'about', `https://cdn.example/about/${name}/mf-manifest.json`])).stdout)![1]!;
    const [old, next] = [await published('a1'), await published('a2')];
    expect((await release(['activate', 'about', old])).code).toBe(0);

    const noPercent = await release(['canary', 'about', next]);
    expect(noPercent.code).toBe(2);
    expect(noPercent.stderr).toContain('canary needs --percent N');
    expect((await release(['canary', 'about', next, '--percent', 'ten'])).code).toBe(2);
    const outOfRange = await release(['canary', 'about', next, '--percent', '100']);
    expect(outOfRange.code).toBe(1);
    expect(outOfRange.stderr).toContain('refused: --percent: a whole number from 1 to 99');

    const started = await release([
      'canary',
      'about',
      next,
      '--percent',
      '10',
      '--min-visits',
      '20',
      '--max-failure-delta',
      '0.05',
      '--max-slowdown',
      '0.5',
      '--promote-after',
      '200',
      '--min-networks',
      '8',
      '--max-network-share',
      '0.125',
    ]);
    expect(started).toMatchObject({ code: 0, stderr: '' });
    expect(started.stdout).toBe(
      `about: ${next} (build build-a2) serves 10 % of visits beside ${old} (build build-a1); judged from 20 visits: rolled back when its failure rate is over the active's by more than 5.0 points ` +
        'or its p75 LCP or INP more than 50.0 % slower; promoted automatically after 200 healthy visits; decided from 8 networks at least, none over 12.5 % of the counts, ' +
        'and only when no single network left out changes the decision\n',
    );
    expect((await release(['canary', 'about', next, '--percent', '10', '--min-networks', 'some'])).code).toBe(2);
    const status = (await release(['status'])).stdout.split('\n');
    const at = status.findIndex((line) => line.startsWith('about '));
    expect(status[at]).toMatch(new RegExp(`^about +${old} +build-a1 +.*judged: 0 networks$`));
    // The candidate's health beside the active one's, and what its judge reads: no visits reported yet.
    expect(status[at + 1]).toMatch(
      new RegExp(`^  canary +${next} +build-a2, 10 % of visits +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC +environment +0 +- +- +- +- +judged: 0 networks$`),
    );
    expect(status[at + 2]).toMatch(/^contact /);

    expect((await release(['canary', 'about', next, '--percent', '50'])).stdout).toMatch(/serves 50 % of visits .* judged from 20 visits/);
    const other = await published('a3');
    const second = await release(['canary', 'about', other, '--percent', '10']);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`about already has a canary, ${next}`);

    expect(await release(['abort', 'about', '--note', 'wrong build'])).toMatchObject({
      code: 0,
      stdout: `about: the canary ended; every visit gets ${old} (build build-a1)\n`,
    });
    const none = await release(['abort', 'about']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('about has no canary to abort');
    expect((await release(['promote', 'about'])).code).toBe(1);

    expect((await release(['canary', 'about', next, '--percent', '5'])).code).toBe(0);
    expect(await release(['promote', 'about'])).toMatchObject({
      code: 0,
      stdout: `about: ${next} (build build-a2) is active; a rollback would go back to ${old} (build build-a1)\n`,
    });
    expect((await release(['status'])).stdout).not.toContain('canary');
    const audit = await release(['audit', '--section', 'about', '--limit', '6']);
    // AT is a date and a time: the action is the fourth word.
    expect(
      audit.stdout
        .split('\n')
        .slice(1, 7)
        .map((line) => line.split(/ +/)[3]),
    ).toEqual(['promote', 'canary', 'abort', 'publish', 'canary', 'canary']);
  });
});

describe('npm run release -- alerts', () => {
  /** The settings' table, what `alerts show` printed before what can be delivered. */
  const settingsOf = (stdout: string) => stdout.split('What can be delivered:')[0];

  it('shows and sets where alerts go, "none" clearing one', async () => {
    expect(settingsOf((await release(['alerts', 'show'])).stdout)).toBe('WEBHOOK  EMAIL  FAILURE RATE\nnone     none   none\n');
    const set = await release(['alerts', 'set', '--webhook', 'https://hooks.lender.example/portico', '--failure-rate', '0.2']);
    expect(set.code).toBe(0);
    expect(settingsOf(set.stdout)).toBe('WEBHOOK                               EMAIL  FAILURE RATE\nhttps://hooks.lender.example/portico  none   0.2\n');
    expect(settingsOf((await release(['alerts', 'set', '--webhook', 'none'])).stdout)).toBe('WEBHOOK  EMAIL  FAILURE RATE\nnone     none   0.2\n');
    const refused = await release(['alerts', 'set', '--failure-rate', '3']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('failureRateThreshold is at most 1');
  });

  // Issue 49: the console said what could be delivered, the CLI printed the settings alone. Checked: fails without the lines.
  it('says what can be delivered, as the console does: nothing when nothing is set, and why a channel set cannot be', async () => {
    await release(['alerts', 'set', '--webhook', 'none', '--email', 'none']);
    expect((await release(['alerts', 'show'])).stdout.split('\n').slice(2)).toEqual([
      'What can be delivered:',
      '  Webhook: none set.',
      '  E-mail: no address set.',
      '  No alert can be delivered as things are: nothing reaches anyone.',
      '',
    ]);
    await release(['alerts', 'set', '--webhook', 'https://hooks.lender.example/portico', '--email', 'ops@lender.example']);
    expect((await release(['alerts', 'show'])).stdout.split('\n').slice(2)).toEqual([
      'What can be delivered:',
      '  Webhook: cannot be sent. This server has no PORTICO_WEBHOOK_SECRET to sign it with; set it and restart the server.',
      '  E-mail: each alert is mailed to ops@lender.example through PORTICO_SMTP_URL.',
      '',
    ]);
  });
});

describe('what the judge counts, beside the reports as received', () => {
  let active: string;
  let candidate: string;

  // Issue 45's healthy canary: 50 real visits from ten networks to each release, none failing, and one network's 30 forged failures.
  beforeAll(async () => {
    const published = async (name: string) =>
      /published (home-\d+)/.exec((await release(['publish', 'home', `https://cdn.example/home/${name}/mf-manifest.json`])).stdout)![1]!;
    [active, candidate] = [await published('h1'), await published('h2')];
    expect((await release(['activate', 'home', active])).code).toBe(0);
    expect((await release(['canary', 'home', candidate, '--percent', '50'])).code).toBe(0);
    const canaryId = (await store.canaries.running()).home!.id;
    for (let index = 0; index < 10; index++) {
      for (const release of [active, candidate])
        await recordCanaryVisits(health, { canaryId, section: 'home', release, network: `real-${index}`, visits: 5, failures: 0 });
    }
    await recordCanaryVisits(health, { canaryId, section: 'home', release: candidate, network: 'forger', visits: 30, failures: 30 });
  });

  afterAll(() => release(['abort', 'home']));

  it('GET /api/sections: health carries the counted figures (the forger capped at 20 %), raw the reports, only where they differ', async () => {
    const answer = await fetch(`${api.url}/api/sections`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    const { home } = (await answer.json()) as { home: { health: Record<string, Record<string, unknown>> } };
    // 62.5 counted visits: the forger's 30 count as 12.5 (20 % of the whole), with its failures.
    expect(home.health[candidate]).toMatchObject({
      visits: 62.5,
      failures: 12.5,
      failureRate: 0.2,
      failuresByClass: { render: 30 },
      raw: { visits: 80, failures: 30, failureRate: 0.375 },
    });
    expect(home.health[active]).toMatchObject({ visits: 50, failures: 0, failureRate: 0 });
    expect(home.health[active]).not.toHaveProperty('raw');
  });

  it('status: the counted figures, the reports beside them where they differ', async () => {
    const status = (await release(['status'])).stdout.split('\n');
    const at = status.findIndex((line) => line.startsWith('home '));
    expect(status[at]).toMatch(new RegExp(`^home +${active} .* environment +50 +0\\.0 % +\\d+ ms +\\d+ ms +- +judged: 10 networks$`));
    expect(status[at + 1]).toMatch(
      new RegExp(`^  canary +${candidate} .* 62\\.5 \\(reported 80\\) +20\\.0 % \\(reported 37\\.5 %\\) +\\d+ ms +\\d+ ms +- +render 30; judged: 11 networks$`),
    );
  });
});

describe('after the canary ends, its hours as its judge counted them, the reports beside', () => {
  // A URL an earlier test published answers as the same release ("about-3 is already published from that URL …").
  const published = async (section: 'about' | 'contact', name: string) =>
    new RegExp(`(${section}-\\d+)`).exec((await release(['publish', section, `https://cdn.example/${section}/${name}/mf-manifest.json`])).stdout)![1]!;
  const apiHealth = async (section: 'about' | 'contact') => {
    const answer = await fetch(`${api.url}/api/sections`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    return ((await answer.json()) as Record<string, { health: Record<string, Record<string, unknown>> }>)[section]!.health;
  };
  const statusLine = async (section: string) => (await release(['status'])).stdout.split('\n').find((line) => line.startsWith(`${section} `));

  it("aborted: issue 45's attack on the active release (one network's 80 forged failures) stays bounded, not 130 visits and 80 failures", async () => {
    const [active, candidate] = [await published('about', 'a1'), await published('about', 'a2')];
    expect((await release(['activate', 'about', active])).code).toBe(0);
    expect((await release(['canary', 'about', candidate, '--percent', '50'])).code).toBe(0);
    const canaryId = (await store.canaries.running()).about!.id;
    for (let index = 0; index < 10; index++) {
      await recordCanaryVisits(health, { canaryId, section: 'about', release: active, network: `real-${index}`, visits: 5, failures: 0 });
      await recordCanaryVisits(health, { canaryId, section: 'about', release: candidate, network: `real-${index}`, visits: 4, failures: 2 });
    }
    await recordCanaryVisits(health, { canaryId, section: 'about', release: active, network: 'forger', visits: 80, failures: 80 });
    expect((await release(['abort', 'about'])).code).toBe(0);

    // The forger's 80 count as 12.5 (20 % of the whole), as the judge counted them.
    expect((await apiHealth('about'))[active]).toMatchObject({
      visits: 62.5,
      failures: 12.5,
      failureRate: 0.2,
      raw: { visits: 130, failures: 80, failureRate: 80 / 130 },
    });
    const line = await statusLine('about');
    expect(line).toContain(' 62.5 (reported 130) ');
    expect(line).toContain(' 20.0 % (reported 61.5 %) ');
    // The console's hourly charts are the reports as they arrived, beside those figures.
    const hours = (await health.series('about', [active], new Date(Date.now() - 24 * 3_600_000)))[active]!;
    expect(hours.reduce((sum, point) => sum + point.visits, 0)).toBe(130);
    expect(hours.reduce((sum, point) => sum + point.failures, 0)).toBe(80);
  });

  it('promoted: the new active release’s forged failures stay bounded; an active release no forger touched shows no raw', async () => {
    const [active, candidate] = [await published('contact', 'c1'), await published('contact', 'c2')];
    expect((await release(['activate', 'contact', active])).code).toBe(0);
    expect((await release(['canary', 'contact', candidate, '--percent', '50'])).code).toBe(0);
    const canaryId = (await store.canaries.running()).contact!.id;
    for (let index = 0; index < 10; index++) {
      for (const release of [active, candidate])
        await recordCanaryVisits(health, { canaryId, section: 'contact', release, network: `real-${index}`, visits: 5, failures: 0 });
    }
    await recordCanaryVisits(health, { canaryId, section: 'contact', release: candidate, network: 'forger', visits: 30, failures: 30 });
    expect((await release(['promote', 'contact'])).code).toBe(0);

    expect((await apiHealth('contact'))[candidate]).toMatchObject({
      visits: 62.5,
      failures: 12.5,
      failureRate: 0.2,
      raw: { visits: 80, failures: 30, failureRate: 0.375 },
    });
    expect(await statusLine('contact')).toMatch(new RegExp(`^contact +${candidate} .* 62\\.5 \\(reported 80\\) +20\\.0 % \\(reported 37\\.5 %\\) `));
    // The previous active release, read over the same window, had nothing bounded.
    const before = await health.health('contact', [active], new Date(Date.now() - 3_600_000));
    expect(before[active]).toMatchObject({ visits: 50, failures: 0 });
    expect(before[active]).not.toHaveProperty('raw');
  });
});
