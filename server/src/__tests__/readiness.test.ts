import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { RENDER_WORKER_PATH } from '../ssr/server-rendering';
import { startPortico, type PorticoServerOptions, type RunningPortico } from '../portico-server';
import { httpRequest, INDEX_HTML, makeBuiltSite, portOf, rawRequest } from './built-site';

/**
 * A render worker (the worker protocol, as in server-rendered-answers.test.ts)
 * that answers `warm` only once the test creates `release`: the test decides
 * when the first worker is warm, and looks at the ports before and after.
 */
const slowWorker = (release: string) => `
const fs = require('node:fs');
process.on('message', (message) => {
  if (message.type === 'warm') {
    const check = setInterval(() => {
      if (!fs.existsSync(${JSON.stringify(release)})) return;
      clearInterval(check);
      process.send({ type: 'warmed', id: message.id });
    }, 20);
  }
  if (message.type === 'render') {
    process.send({ type: 'page', id: message.id, html: '<!doctype html><title>rendered by the slow worker</title>', sections: {}, renderMs: 1 });
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ type: 'ready' });
`;

function siteWithSlowWorker() {
  const site = makeBuiltSite();
  const release = path.join(site.root, 'warm-now');
  mkdirSync(path.join(site.root, path.dirname(RENDER_WORKER_PATH)), { recursive: true });
  writeFileSync(path.join(site.root, RENDER_WORKER_PATH), slowWorker(release));
  return { ...site, release: () => writeFileSync(release, '') };
}

/** Whether something accepts a TCP connection on the port. */
const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

async function until(done: () => boolean, ms: number): Promise<void> {
  const by = Date.now() + ms;
  while (!done() && Date.now() < by) await new Promise((resolve) => setTimeout(resolve, 20));
}

const WAITING = /home, about and contact listen on ports (\d+), (\d+), (\d+); the host's port (\d+) opens once the first render worker is warm/;

describe('the host port opens when the server can serve what it promises', () => {
  test('the remotes listen first; the host port stays closed until the first render worker is warm, then serves the rendered page', async () => {
    const site = siteWithSlowWorker();
    const logged: string[] = [];
    let running: RunningPortico | undefined;
    const starting = startPortico({ rootDir: site.root, basePort: 0, host: '127.0.0.1', log: (line) => logged.push(line) }).then((started) => (running = started));
    try {
      await until(() => logged.some((line) => WAITING.test(line)) || running !== undefined, 30_000);
      expect(running).toBeUndefined();
      const [, home, about, contact, host] = WAITING.exec(logged.find((line) => WAITING.test(line))!)!.map(Number) as [number, number, number, number, number];

      expect(await accepts(host)).toBe(false);
      for (const remote of [home, about, contact]) {
        expect((await rawRequest(remote, httpRequest('/mf-manifest.json', { host: `127.0.0.1:${remote}` })))?.status).toBe(200);
      }

      site.release();
      await starting;
      expect(running!.ports).toEqual([host, home, about, contact]);
      const page = await rawRequest(host, httpRequest('/', { host: `127.0.0.1:${host}` }));
      expect(page?.status).toBe(200);
      expect(page?.body).toContain('rendered by the slow worker');
      expect(logged.filter((line) => line.includes('no render worker was warm'))).toEqual([]);
    } finally {
      site.release();
      await starting.then((started) => started.close());
      site.remove();
    }
  }, 60_000);

  test('with no worker warm within the bound, the host port opens anyway with the client-rendered page, and says so', async () => {
    const site = siteWithSlowWorker();
    const logged: string[] = [];
    const options: PorticoServerOptions = { rootDir: site.root, basePort: 0, host: '127.0.0.1', log: (line) => logged.push(line), firstWorkerWaitMs: 300 };
    const running = await startPortico(options);
    try {
      const port = portOf(running.url);
      expect(logged).toContainEqual(expect.stringMatching(new RegExp(`^Portico: no render worker was warm after [\\d.]+ s; port ${port} opens anyway, serving the client-rendered page until one is$`)));
      const page = await rawRequest(port, httpRequest('/', { host: `127.0.0.1:${port}` }));
      expect(page?.status).toBe(200);
      expect(page?.body).toBe(INDEX_HTML('host'));
      expect(existsSync(path.join(site.root, 'warm-now'))).toBe(false);
    } finally {
      await running.close();
      site.remove();
    }
  }, 60_000);

  test('a host port already taken stops the start at once, not after the warm-up', async () => {
    const site = siteWithSlowWorker();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as AddressInfo).port;
    try {
      // The worker never warms and the wait is longer than this test may take: only an early check passes.
      const starting = startPortico({ rootDir: site.root, basePort: taken, host: '127.0.0.1', log: () => undefined, firstWorkerWaitMs: 120_000 });
      await expect(starting).rejects.toThrow(`port ${taken} (host) is already in use`);
    } finally {
      blocker.close();
      site.remove();
    }
  }, 30_000);

  test('with server rendering off, nothing is waited for', async () => {
    const site = siteWithSlowWorker();
    const logged: string[] = [];
    const running = await startPortico({ rootDir: site.root, basePort: 0, host: '127.0.0.1', log: (line) => logged.push(line), ssr: false });
    try {
      expect(logged).toEqual([]);
      expect(await accepts(portOf(running.url))).toBe(true);
    } finally {
      await running.close();
      site.remove();
    }
  });
});
