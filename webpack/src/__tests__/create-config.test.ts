import path from 'node:path';
import { readManifest } from '@portico/contract/manifest';
import { basePort } from '@portico/contract/sections';
import { createConfig } from '../create-config';

const REPO_ROOT = path.resolve(__dirname, '../../..');
const contactDir = path.join(REPO_ROOT, 'remote-contact');

test('a section must declare how it hydrates: none, or one the page cannot follow, is refused with what to write', () => {
  expect(() => createConfig({ app: 'contact', dir: contactDir, exposes: 'src/exposes/section.ts' })).toThrow(
    /remote "contact" must declare how it hydrates \(\{ mode: 'static' \} or \{ mode: 'interactive', when: \[\.\.\.\] \}\)/,
  );
  expect(() =>
    createConfig({ app: 'contact', dir: contactDir, exposes: 'src/exposes/section.ts', hydration: { mode: 'interactive', when: ['soon' as 'load'] } }),
  ).toThrow(/hydration.when has "soon"/);
  expect(() => createConfig({ app: 'host', dir: path.join(REPO_ROOT, 'host'), hydration: { mode: 'static' } })).toThrow(/the host is not a section/);
});

test('the built manifests carry each section’s declaration, which the one manifest reader reads back', async () => {
  const { readFile } = await import('node:fs/promises');
  const read = async (app: string) => {
    const file = path.join(REPO_ROOT, app, 'dist/mf-manifest.json');
    const reading = readManifest(await readFile(file, 'utf8'), `http://localhost/${app}/mf-manifest.json`);
    if (!('manifest' in reading)) throw new Error(reading.problem);
    return reading.manifest.hydration;
  };
  expect(await read('remote-home')).toEqual({ mode: 'static' });
  expect(await read('remote-about')).toEqual({ mode: 'static' });
  expect(await read('remote-contact')).toEqual({ mode: 'interactive', when: ['selected', 'visible', 'interaction'] });
});

describe('a section the factory has never heard of', () => {
  // An added section's remote is built by the same factory with no list of
  // sections to join: its id is checked by the contract's grammar only.
  let dir: string;
  beforeAll(async () => {
    const { mkdtemp, mkdir, writeFile } = await import('node:fs/promises');
    const os = await import('node:os');
    dir = await mkdtemp(path.join(os.tmpdir(), 'portico-added-remote-'));
    await mkdir(path.join(dir, 'src/exposes'), { recursive: true });
    await writeFile(path.join(dir, 'src/index.ts'), '');
    await writeFile(path.join(dir, 'src/exposes/section.ts'), '');
  });
  afterAll(async () => {
    const { rm } = await import('node:fs/promises');
    await rm(dir, { recursive: true, force: true });
  });
  const options = (app: string, port?: number) => ({ app, dir, exposes: 'src/exposes/section.ts', hydration: { mode: 'static' } as const, port });

  test('a hyphenated id builds as portico_<id> with "-" as "_"', () => {
    const configs = createConfig(options('repay-calc'))(undefined, { mode: 'production' });
    if (!Array.isArray(configs)) throw new Error('a remote builds its node build and its browser build');
    expect(configs.map((config) => config.name)).toEqual(['portico_repay_calc-node', 'portico_repay_calc']);
  });

  test('an id the contract refuses is refused with its reason', () => {
    expect(() => createConfig(options('Repay_Calc'))).toThrow(/app must be "host" or a section id: id "Repay_Calc" must be 2 to 24 lowercase/);
    expect(() => createConfig(options('api'))).toThrow(/"api" is a reserved word/);
    expect(() => createConfig(options('repay-calc', 0))).toThrow(/port must be a whole number from 1 to 65535/);
  });

  test('its dev server takes the port it names, or else the first free one from PORT+10, never a built-in app’s', () => {
    const devPort = (port?: number) => {
      const config = createConfig(options('repay-calc', port))(undefined, { mode: 'development' });
      return (Array.isArray(config) ? config[0] : config)?.devServer?.port;
    };
    expect(devPort(9123)).toBe(9123);
    const before = process.env.WEBPACK_DEV_SERVER_BASE_PORT;
    delete process.env.WEBPACK_DEV_SERVER_BASE_PORT;
    try {
      expect(devPort()).toBe('auto');
      expect(process.env.WEBPACK_DEV_SERVER_BASE_PORT).toBe(String(basePort(process.env) + 10));
    } finally {
      if (before === undefined) delete process.env.WEBPACK_DEV_SERVER_BASE_PORT;
      else process.env.WEBPACK_DEV_SERVER_BASE_PORT = before;
    }
  });
});

describe('PORTICO_OUT_DIR: a section team builds away from the folder a server serves', () => {
  // Checked to fail before output-dir.ts: both builds went to remote-contact/dist/, which `npm run serve` serves as config.json's URL of Contact.
  const contact = () =>
    createConfig({ app: 'contact', dir: contactDir, exposes: 'src/exposes/section.ts', hydration: { mode: 'interactive', when: ['selected'] } })(
      {},
      { mode: 'production' },
    ) as import('webpack').Configuration[];
  let folder: string;
  beforeEach(async () => {
    const { mkdtemp } = await import('node:fs/promises');
    const os = await import('node:os');
    folder = await mkdtemp(path.join(os.tmpdir(), 'portico-out-dir-'));
  });
  afterEach(() => {
    delete process.env.PORTICO_OUT_DIR;
  });

  test('the browser build and its node build go to that folder, never to remote-contact/dist/', () => {
    process.env.PORTICO_OUT_DIR = path.join(folder, 'contact-next');
    const [node, browser] = contact();
    expect(browser!.output!.path).toBe(path.join(folder, 'contact-next'));
    expect(node!.output!.path).toBe(path.join(folder, 'contact-next', 'server'));
    delete process.env.PORTICO_OUT_DIR;
    expect(contact()[1]!.output!.path).toBe(path.join(contactDir, 'dist'));
  });

  test('a folder holding other files is refused, not emptied', async () => {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(path.join(folder, 'notes.txt'), 'mine');
    process.env.PORTICO_OUT_DIR = folder;
    expect(() => contact()).toThrow(/holds files and no earlier build \(mf-manifest.json\); the build empties its folder first/);
    await writeFile(path.join(folder, 'mf-manifest.json'), '{}');
    expect(contact()[1]!.output!.path).toBe(folder);
  });
});
