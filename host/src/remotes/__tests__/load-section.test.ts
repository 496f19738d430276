/**
 * @jest-environment node
 */
import { createHash } from 'node:crypto';
import { sampleConfig } from '@portico/testing/sample-config';
import { MANIFEST_TOO_LARGE } from '@portico/contract/manifest';
import { RELAY_FAULT_HEADER } from '@portico/contract/manifest-relay';
import { createSectionLoader, startSections, type LoaderSeams } from '../load-section';
import type { RemoteFailure } from '../report-failure';

// The loader's policy (how often, how late, what is retried) is what is under
// test; the network and Module Federation are fakes behind its seams. Fetch
// answers come from a script, one per request, and every request's time is
// recorded on jest's fake clock.

const manifestUrl = 'https://cdn.example/contact/mf-manifest.json';

const genuine = JSON.stringify({
  name: 'portico_contact',
  metaData: { publicPath: 'auto', remoteEntry: { name: 'remoteEntry.js', path: '', integrity: `sha384-${'E'.repeat(64)}` } },
  exposes: [{ name: 'section', path: './section', assets: { js: { sync: ['__federation_expose_section.js'], async: [] } } }],
  shared: [{ name: 'react', requiredVersion: '^19.2.0', singleton: true }],
});
const tampered = genuine.replace('"name":"portico_contact"', '"name":"portico_contact","x":1');
const pinOf = (text: string) => `sha384-${createHash('sha384').update(text).digest('base64')}`;

type Answer = string | number | 'hang' | 'network error' | { body: string; headers: Record<string, string>; status?: number };

interface FakeNetwork {
  seams: LoaderSeams;
  /** When each manifest request was made, in ms on the fake clock. */
  requestTimes: number[];
  requestSignals: (AbortSignal | null | undefined)[];
  /** What each request asked for. */
  requestUrls: string[];
  /** The manifest bytes handed to Module Federation, as text. */
  handedOver: string[];
}

function fakeNetwork(...answers: Answer[]): FakeNetwork {
  const started = performance.now();
  const network: FakeNetwork = { requestTimes: [], requestSignals: [], requestUrls: [], handedOver: [], seams: undefined as unknown as LoaderSeams };
  const fetchFake = (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    network.requestTimes.push(performance.now() - started);
    network.requestUrls.push(String(url));
    network.requestSignals.push(init?.signal);
    const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
    if (answer === 'hang') {
      return new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    }
    if (answer === 'network error') return Promise.reject(new TypeError('Failed to fetch'));
    if (typeof answer === 'number') return Promise.resolve(new Response('fault', { status: answer }));
    if (typeof answer === 'string') return Promise.resolve(new Response(answer, { headers: { 'Content-Type': 'application/json' } }));
    return Promise.resolve(new Response(answer.body, { headers: answer.headers, status: answer.status }));
  };
  network.seams = {
    fetch: fetchFake as typeof fetch,
    pageShares: () => ({ react: '19.2.0' }),
    register: (_remote, _url, { bytes }) => network.handedOver.push(new TextDecoder().decode(bytes)),
    loadExposed: async () => ({ Section: () => null }),
    settle: () => undefined,
    pendingScript: () => undefined,
  };
  return network;
}

let reported: RemoteFailure[];

beforeAll(() => {
  // reportFailure dispatches on window; this file runs in Node, for Web Crypto and fetch's Response.
  Object.assign(globalThis, { window: new EventTarget() });
  window.addEventListener('portico:remote-error', (event) => reported.push((event as CustomEvent<RemoteFailure>).detail));
});

beforeEach(() => {
  jest.useFakeTimers();
  reported = [];
  jest.spyOn(console, 'warn').mockImplementation(() => {});
  jest.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => jest.useRealTimers());

/** Starts a load and lets the fake clock run until it settles (or `ms` pass). */
async function settle(load: Promise<unknown>, ms = 20_000): Promise<{ error?: unknown; at: number }> {
  const started = performance.now();
  let outcome: { error?: unknown; at: number } | undefined;
  load.then(
    () => (outcome = { at: performance.now() - started }),
    (error: unknown) => (outcome = { error, at: performance.now() - started }),
  );
  for (let step = 0; step < ms && !outcome; step += 1) await jest.advanceTimersByTimeAsync(1);
  if (!outcome) throw new Error(`the load had not settled after ${ms} ms`);
  return outcome;
}

describe('retries', () => {
  test('a transient fault is tried twice more by default, after 250 ms and then 500 ms', async () => {
    const network = fakeNetwork(503);
    const { error } = await settle(createSectionLoader(network.seams)('contact', manifestUrl));
    expect(network.requestTimes).toEqual([0, 250, 750]);
    expect(error).toBeDefined();
    expect(reported).toEqual([expect.objectContaining({ stage: 'manifest', cause: 'answered HTTP 503', transient: true })]);
  });

  test('a retry that works loads the section, and the failure before it is not reported', async () => {
    const network = fakeNetwork('network error', genuine);
    const { error, at } = await settle(createSectionLoader(network.seams)('contact', manifestUrl));
    expect(error).toBeUndefined();
    expect(at).toBe(250);
    expect(network.handedOver).toEqual([genuine]);
    expect(reported).toEqual([]);
  });

  test('retries follow config.json: retries 0 means one request', async () => {
    const network = fakeNetwork(503);
    await settle(createSectionLoader(network.seams)('contact', manifestUrl, { retries: 0 }));
    expect(network.requestTimes).toEqual([0]);
  });

  test('a retry is never started past the deadline', async () => {
    const network = fakeNetwork(503);
    const { at } = await settle(createSectionLoader(network.seams)('contact', manifestUrl, { retries: 5, deadlineMs: 1000 }));
    // The next wait (1 s) would end after the deadline.
    expect(network.requestTimes).toEqual([0, 250, 750]);
    expect(at).toBe(750);
  });

  test.each([
    ['a 404', 404],
    ['a manifest that is not JSON', '<!doctype html><title>CDN error</title>'],
    ['a manifest of another build', genuine.replace('./section', './form')],
    ['a manifest over 1 MB, by its Content-Length', { body: '{}', headers: { 'Content-Length': String(1024 * 1024 + 1) } }],
    ['a manifest over 1 MB, as it streams', `{"pad":"${'x'.repeat(1024 * 1024)}"}`],
  ])('%s is not fetched again', async (_what, answer) => {
    const network = fakeNetwork(answer);
    const { error } = await settle(createSectionLoader(network.seams)('contact', manifestUrl));
    expect(error).toBeDefined();
    expect(network.requestTimes).toEqual([0]);
    expect(network.handedOver).toEqual([]);
    expect(reported).toEqual([expect.objectContaining({ stage: 'manifest', transient: false })]);
  });

  test('an oversized manifest is named as such', async () => {
    const network = fakeNetwork(`{"pad":"${'x'.repeat(1024 * 1024)}"}`);
    await settle(createSectionLoader(network.seams)('contact', manifestUrl));
    expect(reported[0]?.cause).toBe('is over 1 MB, too large to be a manifest');
  });
});

describe('deadline', () => {
  test('by default a section that hangs fails at 9 s, and its request is cancelled', async () => {
    const network = fakeNetwork('hang');
    const { error, at } = await settle(createSectionLoader(network.seams)('contact', manifestUrl));
    expect(error).toBeDefined();
    expect(at).toBe(9000);
    expect(reported).toEqual([expect.objectContaining({ stage: 'manifest', url: manifestUrl, cause: 'did not load within 9 s' })]);
    expect(network.requestSignals[0]?.aborted).toBe(true);
  });

  test('config.json’s deadline replaces the default, retries included', async () => {
    const network = fakeNetwork(503, 'hang');
    const { at } = await settle(createSectionLoader(network.seams)('contact', manifestUrl, { deadlineMs: 2000 }));
    expect(network.requestTimes).toEqual([0, 250]);
    expect(at).toBe(2000);
  });
});

describe('the remoteIntegrity pin', () => {
  test('is checked on the bytes handed to Module Federation, fetched once', async () => {
    const network = fakeNetwork(genuine, tampered);
    const { error } = await settle(createSectionLoader(network.seams)('contact', manifestUrl, { pin: pinOf(genuine) }));
    expect(error).toBeUndefined();
    expect(network.requestTimes).toEqual([0]);
    expect(network.handedOver).toEqual([genuine]);
  });

  test('refuses a manifest that does not match, without handing it over or fetching it again', async () => {
    const network = fakeNetwork(tampered, genuine);
    await settle(createSectionLoader(network.seams)('contact', manifestUrl, { pin: pinOf(genuine) }));
    expect(network.requestTimes).toEqual([0]);
    expect(network.handedOver).toEqual([]);
    expect(reported).toEqual([expect.objectContaining({ stage: 'manifest', cause: 'does not match its remoteIntegrity pin in config.json; refusing it' })]);
  });
});

describe('startSections', () => {
  test('hands each section’s load to the page, with config.json’s remoteLoading; Try again loads afresh', async () => {
    const network = fakeNetwork(503);
    const loads = startSections(
      { ...sampleConfig, remotes: { contact: manifestUrl }, remoteLoading: { retries: 0 } },
      { contact: manifestUrl },
      createSectionLoader(network.seams),
    );
    await settle(loads.contact!.first);
    expect(network.requestTimes).toEqual([0]);
    expect(reported.map((failure) => failure.section)).toEqual(['home', 'about', 'contact']);

    await settle(loads.contact!.again());
    expect(network.requestTimes).toHaveLength(2);
  });
});

describe('a manifest the server-rendered page carries', () => {
  test('is checked and used as it is, with no request for the manifest', async () => {
    const network = fakeNetwork(404);
    const { error } = await settle(createSectionLoader(network.seams)('contact', manifestUrl, { manifest: genuine, pin: pinOf(genuine) }));
    expect(error).toBeUndefined();
    expect(network.requestTimes).toEqual([]);
    expect(network.handedOver).toEqual([genuine]);
  });

  test('whose entry is gone (a redeploy since) gives way at once to the manifest fetched afresh, not counted as a retry', async () => {
    const network = fakeNetwork(genuine);
    let loads = 0;
    network.seams.loadExposed = async () => {
      loads += 1;
      if (loads === 1) throw new Error('ScriptExternalLoadError: remoteEntry.js did not load');
      return { Section: () => null };
    };
    const { error, at } = await settle(createSectionLoader(network.seams)('contact', manifestUrl, { manifest: tampered, retries: 0 }));
    expect(error).toBeUndefined();
    expect(at).toBe(0);
    expect(network.handedOver).toEqual([tampered, genuine]);
  });

  test('that does not match its pin is refused like a fetched one, and not fetched again', async () => {
    const network = fakeNetwork(genuine);
    const { error } = await settle(createSectionLoader(network.seams)('contact', manifestUrl, { manifest: tampered, pin: pinOf(genuine) }));
    expect(error).toBeDefined();
    expect(network.requestTimes).toEqual([]);
    expect(reported).toEqual([expect.objectContaining({ stage: 'manifest', cause: expect.stringContaining('does not match its remoteIntegrity pin') })]);
  });

  test('is used by the first load only: Try again fetches the manifest', async () => {
    const network = fakeNetwork(genuine);
    const config = { ...sampleConfig, remotes: { ...sampleConfig.remotes, contact: manifestUrl } };
    const loads = startSections(config, config.remotes, createSectionLoader(network.seams), { contact: genuine });
    await settle(loads.contact!.first);
    expect(network.requestTimes.length).toBe(0); // home and about, granted no script, fetch nothing
    await settle(loads.contact!.again());
    expect(network.requestUrls).toEqual([`/section-manifest/contact?url=${encodeURIComponent(manifestUrl)}`]);
  });
});

describe("the manifest, read through the page's own origin", () => {
  // Without the relay's header read, each of these was reported as the relay's status (answered HTTP 502…) and retried as one.
  test.each([
    ['unreachable', 502, 'could not be fetched (network error)', true],
    ['busy', 503, "could not be fetched (the page's server is relaying as many manifests as it will)", true],
    ['refused', 403, "was refused by the page's server: the page may not load this section from it", false],
    ['redirected', 502, 'answered with a redirect, which is not followed', false],
    ['too-large', 502, MANIFEST_TOO_LARGE, false],
  ])(
    "the relay's own answer `%s` (HTTP %i) is reported as what happened at the origin, not as a status the origin sent",
    async (fault, status, cause, transient) => {
      const network = fakeNetwork({ body: 'relay', status, headers: { [RELAY_FAULT_HEADER]: fault } });
      await settle(createSectionLoader(network.seams)('contact', manifestUrl));
      expect(reported).toEqual([expect.objectContaining({ stage: 'manifest', url: manifestUrl, cause, transient })]);
      expect(network.requestUrls).toHaveLength(transient ? 3 : 1);
    },
  );

  test("an answer the relay found to be no manifest is reported with the relay's reason, as the page would have said it, and not retried", async () => {
    const network = fakeNetwork({ body: `${manifestUrl} is not JSON\n`, status: 502, headers: { [RELAY_FAULT_HEADER]: 'not-a-manifest' } });
    await settle(createSectionLoader(network.seams)('contact', manifestUrl));
    expect(reported).toEqual([expect.objectContaining({ stage: 'manifest', url: manifestUrl, cause: 'is not JSON', transient: false })]);
    expect(network.requestUrls).toHaveLength(1);
  });

  test("the visit's preview token goes with the request, so the server relays the preview's release", async () => {
    const network = fakeNetwork(genuine);
    network.seams.pageSearch = () => '?preview=signed.token&lang=id';
    await settle(createSectionLoader(network.seams)('contact', manifestUrl));
    expect(network.requestUrls).toEqual([`/section-manifest/contact?url=${encodeURIComponent(manifestUrl)}&preview=signed.token`]);
  });
});

describe("the integrator's grant", () => {
  test("a section granted no script is never fetched nor run, whatever its build declares; the page's own origin relays what is", async () => {
    const network = fakeNetwork(genuine);
    const remotes = { home: 'https://home.example/mf-manifest.json', about: 'https://about.example/mf-manifest.json', contact: manifestUrl };
    const config = { ...sampleConfig, remotes };
    const loads = startSections(config, remotes, createSectionLoader(network.seams), { home: genuine });
    const home = await settle(loads.home!.first);
    expect(home.error).toBeDefined();
    expect(reported).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ section: 'home', stage: 'manifest', transient: false, cause: expect.stringContaining('grants this section no script') }),
      ]),
    );
    await settle(loads.contact!.first);
    // Contact, granted script, is read through the page's own origin (its CSP's connect-src names no other); nothing of Home's reached Module Federation.
    expect(network.requestUrls).toEqual([`/section-manifest/contact?url=${encodeURIComponent(manifestUrl)}`]);
    expect(network.handedOver).toEqual([genuine]);

    // Granted by the integrator (config.json's sections, as the server serves it), Home loads.
    const granted = fakeNetwork(genuine);
    const again = startSections({ ...config, sections: { home: { interactive: true } } }, remotes, createSectionLoader(granted.seams));
    expect((await settle(again.home!.first)).error).toBeUndefined();
  });
});
