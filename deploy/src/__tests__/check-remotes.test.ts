import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkRemote, checkRemotes, formatReport } from '../check-remotes';
import { PROCESS_START_MS } from '@portico/testing/processes';
import { sampleConfig } from '@portico/testing/sample-config';

/** Every manifest below names this node build; the test server answers it beside any manifest. */
const NODE_BUILD = { file: 'remoteEntry.0123456789.js', code: 'module.exports = { init() {}, get() {} };' };
const NODE_BUILD_INTEGRITY = `sha384-${createHash('sha384').update(NODE_BUILD.code).digest('base64')}`;

const HOST = { react: '19.3.1', 'react-dom': '19.3.1', 'react/jsx-runtime': '19.3.1', '@portico/shared-config': '1.0.0' };

function manifest(section: string, changes: { exposes?: string[]; react?: string; shares?: string[] } = {}) {
  const shares = changes.shares ?? ['react', 'react-dom', '@portico/shared-config'];
  return {
    id: `portico_${section}`,
    name: `portico_${section}`,
    metaData: {
      name: `portico_${section}`,
      buildInfo: { buildVersion: '1.0.0', buildName: `@portico/remote-${section}`, buildId: '0123456789ab' },
      remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' },
      ssrRemoteEntry: { name: NODE_BUILD.file, path: 'server', type: 'commonjs-module', integrity: NODE_BUILD_INTEGRITY },
      publicPath: 'auto',
    },
    shared: shares.map((name) => ({
      name,
      version: name === '@portico/shared-config' ? '1.0.0' : '19.3.1',
      requiredVersion: name.startsWith('react') ? (changes.react ?? '^19.2.0') : '^1.0.0',
      singleton: true,
    })),
    exposes: (changes.exposes ?? ['./section']).map((exposePath) => ({ path: exposePath, name: exposePath.slice(2) })),
  };
}

/** Loopback servers answering fixed bodies by path, as a CDN would. */
let server: Server;
let base: string;
const bodies: Record<string, string> = {};

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/moved/mf-manifest.json') return void res.writeHead(302, { Location: '/good/mf-manifest.json' }).end();
    const body = req.url?.endsWith(`/server/${NODE_BUILD.file}`) ? NODE_BUILD.code : bodies[req.url ?? ''];
    res.writeHead(body === undefined ? 404 : 200, { 'Content-Type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function publish(file: string, body: unknown): string {
  bodies[file] = typeof body === 'string' ? body : JSON.stringify(body);
  return `${base}${file}`;
}

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

test('a good remote passes every check and shows its version and build', async () => {
  const check = await checkRemote('contact', publish('/good/mf-manifest.json', manifest('contact')), undefined, { hostShared: HOST });
  expect(check).toMatchObject({ reachable: true, manifest: true, exposesSection: true, sharedOk: true, problems: [] });
  expect(check.version).toBe('1.0.0');
  expect(check.buildId).toBe('0123456789ab');
});

test('an unreachable remote is named as such', async () => {
  const check = await checkRemote('contact', `http://127.0.0.1:${await closedPort()}/mf-manifest.json`, undefined, { hostShared: HOST });
  expect(check.reachable).toBe(false);
  expect(check.problems).toEqual([expect.stringMatching(/cannot be reached \(ECONNREFUSED\)/)]);
});

test('a manifest URL that redirects is named: the server would follow no redirect either', async () => {
  publish('/good/mf-manifest.json', manifest('contact'));
  const check = await checkRemote('contact', `${base}/moved/mf-manifest.json`, undefined, { hostShared: HOST });
  expect(check.reachable).toBe(false);
  expect(check.problems).toEqual([
    `${base}/moved/mf-manifest.json answered with a redirect (HTTP 302) to ${base}/good/mf-manifest.json, which is not followed: the host must answer this URL with 200 and the file itself`,
  ]);
});

test('a missing manifest (404) is named with its status', async () => {
  const check = await checkRemote('contact', `${base}/nothing/mf-manifest.json`, undefined, { hostShared: HOST });
  expect(check.problems).toEqual([expect.stringContaining('answered HTTP 404')]);
});

test.each([
  ['an HTML page', '<!doctype html><title>CDN error</title>', 'is not JSON'],
  ['JSON of another kind', { hello: 'world' }, 'is not a Module Federation manifest (no metaData, exposes, shared)'],
])('%s is not a federation manifest', async (_what, body, problem) => {
  const check = await checkRemote('contact', publish(`/bad-${problem.length}/mf-manifest.json`, body), undefined, { hostShared: HOST });
  expect(check).toMatchObject({ reachable: true, manifest: false });
  expect(check.problems).toEqual([expect.stringContaining(problem)]);
});

test("another section's manifest in this section's place is named", async () => {
  const check = await checkRemote('contact', publish('/home-as-contact/mf-manifest.json', manifest('home')), undefined, { hostShared: HOST });
  expect(check.problems).toEqual([expect.stringContaining('is the manifest of "portico_home", not of portico_contact')]);
});

test('a remote that does not expose ./section is named with what it exposes', async () => {
  const url = publish('/wrong-expose/mf-manifest.json', manifest('contact', { exposes: ['./contact-form'] }));
  const check = await checkRemote('contact', url, undefined, { hostShared: HOST });
  expect(check.exposesSection).toBe(false);
  expect(check.problems).toEqual(['does not expose ./section (it exposes ./contact-form)']);
});

test("a remote whose React range the host's React does not satisfy is named with both versions", async () => {
  const url = publish('/react18/mf-manifest.json', manifest('contact', { react: '^18.2.0' }));
  const check = await checkRemote('contact', url, undefined, { hostShared: HOST });
  expect(check.sharedOk).toBe(false);
  expect(check.problems).toContain('needs react ^18.2.0 but the page shares 19.3.1');
  expect(check.problems).toContain('needs react-dom ^18.2.0 but the page shares 19.3.1');
});

test('a remote that bundles its own React instead of sharing it is named', async () => {
  const url = publish('/own-react/mf-manifest.json', manifest('contact', { shares: ['react-dom', '@portico/shared-config'] }));
  const check = await checkRemote('contact', url, undefined, { hostShared: HOST });
  expect(check.problems).toEqual(["does not share react: it would run its own copy beside the host's"]);
});

test('a manifest that does not match its pin is named', async () => {
  const url = publish('/pinned/mf-manifest.json', manifest('contact'));
  const check = await checkRemote('contact', url, `sha384-${'A'.repeat(64)}`, { hostShared: HOST });
  expect(check.pinOk).toBe(false);
  expect(check.problems).toEqual([expect.stringContaining('does not match remoteIntegrity.contact')]);
});

describe("the section's node build (server rendering)", () => {
  const withNodeBuild = (change: Record<string, unknown> | undefined) => {
    const body = manifest('contact');
    if (change) Object.assign(body.metaData.ssrRemoteEntry, change);
    else delete (body.metaData as { ssrRemoteEntry?: unknown }).ssrRemoteEntry;
    return body;
  };

  test('a node build that is there and matches its hash passes', async () => {
    const check = await checkRemote('contact', publish('/node-good/mf-manifest.json', manifest('contact')), undefined, { hostShared: HOST });
    expect(check.nodeBuildOk).toBe(true);
  });

  test.each([
    ['a manifest that names none', undefined, 'names no node build (metaData.ssrRemoteEntry)'],
    ['one whose bytes do not match its hash', { integrity: `sha384-${'A'.repeat(64)}` }, 'does not match its hash'],
    ['one that is not there', { name: 'remoteEntry.9999999999.js' }, 'answered HTTP 404'],
    ['one on another origin than the manifest', { path: 'https://elsewhere.example/server' }, "is not on the manifest's origin"],
  ])('%s is a problem: the server could not render the section', async (_what, change, problem) => {
    const url = publish(`/node-${problem.length}/mf-manifest.json`, withNodeBuild(change));
    const check = await checkRemote('contact', url, undefined, { hostShared: HOST });
    expect(check.nodeBuildOk).toBe(false);
    expect(check.problems).toEqual([expect.stringContaining(problem)]);
    expect(check.problems[0]).toMatch(/^the server cannot render it, the browser only: /);
  });
});

test('the whole config: a table, problems in words, and a warning (not a problem) for each market without a lender', async () => {
  const { legal: _none, ...config } = sampleConfig;
  const report = await checkRemotes(
    {
      ...config,
      remotes: {
        home: publish('/all/home/mf-manifest.json', manifest('home')),
        about: publish('/all/about/mf-manifest.json', manifest('about')),
        contact: publish('/all/contact/mf-manifest.json', manifest('contact', { exposes: [] })),
      },
    },
    { hostShared: HOST },
  );
  expect(report.configProblems).toEqual([]);
  expect(report.warnings).toEqual([
    expect.stringMatching(/^config\.json legal\.IN is missing: the India page \(\?type=1\) shows no lender/),
    expect.stringMatching(/^config\.json legal\.ID is missing: the Indonesia page \(\?type=2\) shows no lender/),
  ]);
  expect(report.checks.map((check) => check.problems.length)).toEqual([0, 0, 1]);
  const text = formatReport(report);
  expect(text).toMatch(/^section +reachable +manifest +\.\/section +shared deps +pin +node build +version +build +manifest URL$/m);
  expect(text).toMatch(/^contact +yes +yes +NO +yes +- +yes +1\.0\.0 +0123456789ab /m);
  expect(text).toContain('problem: contact: does not expose ./section (it exposes nothing)');
  expect(text).toContain('warning: config.json legal.ID is missing');
  expect(text).toContain('1 section(s) would not load correctly.');
});

test('every other field is checked too: each invalid one is a problem of config.json; a missing Indonesian copyright line is a warning', async () => {
  const { copyrightByLanguage: _none, ...config } = sampleConfig;
  const remotes = Object.fromEntries(
    ['home', 'about', 'contact'].map((section) => [section, publish(`/fields/${section}/mf-manifest.json`, manifest(section))]),
  );
  const report = await checkRemotes(
    { ...config, remotes, email: 'halo at kcn', legal: { ...sampleConfig.legal, ID: { ...sampleConfig.legal!.ID, licenceNumber: '' } } },
    { hostShared: HOST },
  );
  expect(report.checks.map((check) => check.problems)).toEqual([[], [], []]);
  expect(report.configProblems).toEqual([
    { field: 'email', message: 'is not a valid email' },
    { field: 'legal.ID.licenceNumber', message: 'must not be empty' },
  ]);
  const text = formatReport(report);
  expect(text).toContain('problem: config.json email: is not a valid email (the page is rendered without it)');
  expect(text).toContain('problem: config.json legal.ID.licenceNumber: must not be empty');
  expect(text).toContain('warning: config.json copyrightByLanguage.id is missing');
  expect(text).toContain('All sections can be served by this host.\nconfig.json has 2 invalid field(s)');
});

test('a manifest over 1 MB is refused, as the page refuses it', async () => {
  const url = publish('/huge/mf-manifest.json', { ...manifest('contact'), pad: 'x'.repeat(1024 * 1024) });
  const check = await checkRemote('contact', url, undefined, { hostShared: HOST });
  expect(check.problems).toEqual([`${url} is over 1 MB, too large to be a manifest`]);
});

test('config.json is read as the page reads it: a URL or pin the page would drop is named for its section', async () => {
  const report = await checkRemotes(
    {
      remotes: {
        home: publish('/read/home/mf-manifest.json', manifest('home')),
        about: 'ftp://cdn.example/about/mf-manifest.json',
        contact: publish('/read/contact/mf-manifest.json', manifest('contact')),
      },
      remoteIntegrity: { contact: 'sha384-short' },
    },
    { hostShared: HOST },
  );
  expect(report.checks.map((check) => check.problems)).toEqual([
    [],
    ['config.json remotes.about: is not a valid http(s) URL'],
    [expect.stringMatching(/^config\.json remoteIntegrity\.contact: must be sha256-, sha384- or sha512-/)],
  ]);
});

test('an added section the file lists (sections.<id> and remotes.<id>) is checked by its id: one that loads passes, a broken one is named', async () => {
  // Hyphenated ids: the remote name is portico_<id> with each - as _.
  const good = { ...manifest('repay-calc'), name: 'portico_repay_calc', id: 'portico_repay_calc' };
  good.metaData.name = 'portico_repay_calc';
  const remotes = Object.fromEntries(
    ['home', 'about', 'contact'].map((section) => [section, publish(`/added/${section}/mf-manifest.json`, manifest(section))]),
  );
  const report = await checkRemotes(
    {
      ...sampleConfig,
      remotes: {
        ...remotes,
        'repay-calc': publish('/added/repay-calc/mf-manifest.json', good),
        'loan-faq': `http://127.0.0.1:${await closedPort()}/mf-manifest.json`,
      },
      sections: {
        'repay-calc': { labels: { en: 'Repayments', id: 'Cicilan' }, after: 'about' },
        'loan-faq': { labels: { en: 'Loan FAQ', id: 'Tanya Jawab' } },
      },
    },
    { hostShared: HOST },
  );
  expect(report.configProblems).toEqual([]);
  expect(report.checks.map(({ section, problems }) => [section, problems.length])).toEqual([
    ['home', 0],
    ['about', 0],
    ['repay-calc', 0],
    ['contact', 0],
    ['loan-faq', 1],
  ]);
  const text = formatReport(report);
  expect(text).toMatch(/^repay-calc +yes +yes +yes +yes +- +yes +1\.0\.0 +0123456789ab /m);
  expect(text).toMatch(/^loan-faq +NO /m);
  expect(text).toMatch(/^problem: loan-faq: .*cannot be reached \(ECONNREFUSED\)/m);
  expect(text).toContain('1 section(s) would not load correctly.');
});

describe('npm run check-remotes', () => {
  const cli = path.join(__dirname, '../check-remotes-cli.ts');
  // Asynchronously: the manifests are served by this very process.
  const run = (configFile: string) =>
    new Promise<{ status: number | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, [require.resolve('tsx/cli'), cli, configFile], { stdio: ['ignore', 'pipe', 'inherit'] });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.on('exit', (status) => resolve({ status, stdout }));
    });
  const write = (config: unknown) => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'portico-check-')), 'config.json');
    writeFileSync(file, JSON.stringify(config));
    return file;
  };
  test(
    'exits 0 when every field is valid and every section can be loaded',
    async () => {
      const remotes = Object.fromEntries(
        ['home', 'about', 'contact'].map((section) => [section, publish(`/cli/${section}/mf-manifest.json`, manifest(section))]),
      );
      const result = await run(write({ ...sampleConfig, remotes }));
      expect(result.stdout).toContain('All sections can be served by this host.');
      expect(result.stdout).not.toContain('warning:');
      expect(result.status).toBe(0);
    },
    PROCESS_START_MS,
  );

  test(
    'exits 1 with the reason when one cannot',
    async () => {
      const remotes = {
        home: publish('/cli2/home/mf-manifest.json', manifest('home')),
        about: publish('/cli2/about/mf-manifest.json', manifest('about', { react: '^18.0.0' })),
        contact: publish('/cli2/contact/mf-manifest.json', manifest('contact')),
      };
      const result = await run(write({ ...sampleConfig, remotes }));
      expect(result.stdout).toMatch(/problem: about: needs react \^18\.0\.0 but the page shares 19\./);
      expect(result.status).toBe(1);
    },
    PROCESS_START_MS,
  );
});
