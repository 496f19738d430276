import { writeFileSync } from 'node:fs';
import { silentLogger } from '@portico/platform/logging';
import { linesLogger } from '@portico/platform/testing';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { SHELL_WORKER_PATH } from '../ssr/render-limits';
import { startPortico, type PorticoServerOptions, type RunningPortico } from '../portico-server';
import { accepts, httpRequest, INDEX_HTML, makeBuiltSite, portOf, rawRequest } from './built-site';
import { channel, writeFakeWorkers } from './fake-workers';
import { eventually } from '@portico/testing/eventually';

/**
 * A shell worker (the fake workers' channel) that answers no page, its
 * warm-up's included, until the test opens the gate: a TCP connection to the
 * test on which the test writes a byte (the worker may read no file but its
 * own). So the test decides when the first worker is warm, and looks at the
 * ports before and after.
 */
const gatedShell = (gatePort: number) =>
  channel(`(() => {
  let open = false;
  const waiting = [];
  const island = (id) => '<section id="' + id + '"><div data-section-island="' + id + '"><div class="section-root"><!--portico:section:' + id + '--></div></div></section>';
  const answer = (message) => send({
    type: 'shell',
    id: message.id,
    html: '<!doctype html><html lang="' + message.page.language + '"><head><title>rendered by the gated worker</title><!--portico:section-styles--></head><body>'
      + ['home', 'about', 'contact'].map(island).join('') + '<!--portico:page-data--></body></html>',
    fallbacks: { home: '<p>Loading Home</p>', about: '<p>Loading About Us</p>', contact: '<p>Loading Contact us</p>' },
    styles: {},
    overridden: [],
  });
  const gate = require('node:net').connect(${gatePort}, '127.0.0.1');
  gate.on('error', () => undefined);
  gate.on('data', () => {
    open = true;
    waiting.splice(0).forEach(answer);
  });
  return (message) => (open ? answer(message) : waiting.push(message));
})()`);

/** A built site whose shell worker warms only once `release()` is called. */
async function siteWithGatedWorker() {
  const site = makeBuiltSite();
  const workers = new Set<Socket>();
  let released = false;
  const gate: Server = createServer((socket) => {
    workers.add(socket);
    socket.on('error', () => undefined);
    if (released) socket.write('go');
  });
  await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
  writeFakeWorkers(site.root);
  writeFileSync(path.join(site.root, SHELL_WORKER_PATH), gatedShell((gate.address() as AddressInfo).port));
  return {
    ...site,
    release: () => {
      released = true;
      for (const socket of workers) socket.write('go');
    },
    remove: () => {
      for (const socket of workers) socket.destroy();
      gate.close();
      site.remove();
    },
  };
}

const WAITING = /home, about and contact listen on ports (\d+), (\d+), (\d+); the host's port (\d+) opens once the first render worker is warm/;

describe('the host port opens when the server can serve what it promises', () => {
  test('the remotes listen first; the host port stays closed until the first render worker is warm, then serves the rendered page', async () => {
    const site = await siteWithGatedWorker();
    const logged: string[] = [];
    let running: RunningPortico | undefined;
    const starting = startPortico({ rootDir: site.root, basePort: 0, host: '127.0.0.1', log: linesLogger((line) => logged.push(line)) }).then(
      (started) => (running = started),
    );
    try {
      await eventually(() => logged.some((line) => WAITING.test(line)) || running !== undefined, { withinMs: 30_000 });
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
      expect(page?.body).toContain('rendered by the gated worker');
      expect(logged.filter((line) => line.includes('no render worker was warm'))).toEqual([]);
    } finally {
      site.release();
      await starting.then((started) => started.close());
      site.remove();
    }
  }, 60_000);

  test('with no worker warm within the bound, the host port opens anyway with the client-rendered page, and says so', async () => {
    const site = await siteWithGatedWorker();
    const logged: string[] = [];
    const options: PorticoServerOptions = {
      rootDir: site.root,
      basePort: 0,
      host: '127.0.0.1',
      log: linesLogger((line) => logged.push(line)),
      firstWorkerWaitMs: 300,
    };
    const running = await startPortico(options);
    try {
      const port = portOf(running.url);
      expect(logged).toContainEqual(
        expect.stringMatching(
          new RegExp(`^Portico: no render worker was warm after [\\d.]+ s; port ${port} opens anyway, serving the client-rendered page until one is$`),
        ),
      );
      const page = await rawRequest(port, httpRequest('/', { host: `127.0.0.1:${port}` }));
      expect(page?.status).toBe(200);
      expect(page?.body).toBe(INDEX_HTML('host'));
      // An orchestrator's probes: alive, but not to be sent visitors until a render worker is warm.
      const probe = (target: string) => rawRequest(port, httpRequest(target, { host: `127.0.0.1:${port}` }));
      expect(await probe('/livez')).toMatchObject({ status: 200, body: 'alive\n' });
      expect(await probe('/readyz')).toMatchObject({ status: 503, body: 'not ready: no render worker is warm yet\n' });
      site.release();
      await eventually(async () => (await probe('/readyz'))?.status === 200, { withinMs: 30_000 });
      expect((await probe('/readyz'))?.headers['cache-control']).toBe('no-store');
    } finally {
      await running.close();
      site.remove();
    }
  }, 60_000);

  test('a host port already taken stops the start at once, not after the warm-up', async () => {
    const site = await siteWithGatedWorker();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as AddressInfo).port;
    try {
      // The worker never warms and the wait is longer than this test may take: only an early check passes.
      const starting = startPortico({ rootDir: site.root, basePort: taken, host: '127.0.0.1', log: silentLogger, firstWorkerWaitMs: 120_000 });
      await expect(starting).rejects.toThrow(`port ${taken} (host) is already in use`);
    } finally {
      blocker.close();
      site.remove();
    }
  }, 30_000);

  test('with server rendering off, nothing is waited for', async () => {
    const site = await siteWithGatedWorker();
    const logged: string[] = [];
    const running = await startPortico({ rootDir: site.root, basePort: 0, host: '127.0.0.1', log: linesLogger((line) => logged.push(line)), ssr: false });
    try {
      expect(logged).toEqual([]);
      expect(await accepts(portOf(running.url))).toBe(true);
    } finally {
      await running.close();
      site.remove();
    }
  });
});
