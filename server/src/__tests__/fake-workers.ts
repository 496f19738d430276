import { createHash } from 'node:crypto';
import { silentLogger } from '@portico/platform/logging';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { APP_DIRS } from '@portico/contract/sections';
import { startPortico, type RunningPortico } from '../portico-server';
import { SECTION_WORKER_PATH, SHELL_WORKER_PATH } from '../ssr/render-limits';

/**
 * The worker side of the channel (node-sections/src/page/line-channel.ts): JSON
 * lines on file descriptor 3, `handle` called with each request, `send` in
 * scope. What is under test with these is the front server, not React.
 */
export const channel = (handle: string) => `
const socket = new (require('node:net').Socket)({ fd: 3, readable: true, writable: true });
const send = (message) => socket.write(JSON.stringify(message) + '\\n');
const handle = ${handle};
let buffer = '';
socket.on('data', (chunk) => {
  buffer += chunk;
  for (let end = buffer.indexOf('\\n'); end !== -1; end = buffer.indexOf('\\n')) {
    const line = buffer.slice(0, end);
    buffer = buffer.slice(end + 1);
    handle(JSON.parse(line));
  }
});
socket.on('close', () => process.exit(0));
send({ type: 'ready' });
`;

/** A page of a real page's size from the request alone, with the slots the front server fills; it says which worker made it. */
const FAKE_SHELL = channel(`(message) => {
  const page = message.page;
  const island = (id) => '<section id="' + id + '"><div data-section-island="' + id + '"><div class="section-root"><!--portico:section:' + id + '--></div></div></section>';
  const html = '<!doctype html><html lang="' + page.language + '"><head><title>rendered by the fake worker</title><!--portico:section-styles--></head><body>'
    + '<p>' + page.config.comName + ' in ' + page.language + ': steps, disclosures and a contact form.</p>'.repeat(300)
    + ['home', 'about', 'contact'].map(island).join('') + '<p>shell ' + process.pid + '</p><!--portico:page-data--></body></html>';
  const fallbacks = { home: '<p>Loading Home</p>', about: '<p>Loading About Us</p>', contact: '<p>Loading Contact us</p>' };
  send({ type: 'shell', id: message.id, html, fallbacks, styles: {}, overridden: [] });
}`);

/** A section worker that loads any build and renders `<p>` naming this worker (a random mark: its pid is the sandbox's) and the build (its code's words). */
const FAKE_SECTION = channel(`(() => {
  const mark = Math.random().toString(36).slice(2);
  const words = new Map();
  return (message) => {
    if (message.type === 'load') {
      for (const build of message.builds) words.set(build.key, build.code.replace(/[^\\w ]/g, '').trim());
      send({ type: 'loaded', id: message.id, failed: [] });
    }
    if (message.type === 'render') {
      const html = '<p>section by worker ' + mark + ' in ' + message.request.language + ': ' + words.get(message.request.build) + '</p>';
      send({ type: 'html', id: message.id, html });
    }
  };
})()`);

/** Puts the fake shell and section workers where a host build puts the real ones. */
export function writeFakeWorkers(root: string): void {
  mkdirSync(path.join(root, path.dirname(SHELL_WORKER_PATH)), { recursive: true });
  writeFileSync(path.join(root, SHELL_WORKER_PATH), FAKE_SHELL);
  writeFileSync(path.join(root, SECTION_WORKER_PATH), FAKE_SECTION);
}

/** A deploy of Home into a built site: its node build `build`, then the manifest that names it with its hash (and `hydration`, if given). */
export function deployHome(root: string, build: string, hydration?: object): void {
  const homeDist = path.join(root, APP_DIRS.home, 'dist');
  mkdirSync(path.join(homeDist, 'server'), { recursive: true });
  writeFileSync(path.join(homeDist, 'server', 'remoteEntry.js'), build);
  const integrity = `sha384-${createHash('sha384').update(build).digest('base64')}`;
  const ssrRemoteEntry = { name: 'remoteEntry.js', path: 'server', type: 'commonjs-module', integrity };
  writeFileSync(
    path.join(homeDist, 'mf-manifest.json'),
    JSON.stringify({ id: 'portico_home', metaData: { publicPath: 'auto', ssrRemoteEntry, hydration }, exposes: [], shared: [] }),
  );
}

/**
 * A front server on the built site at `root`, with the fake workers in the
 * weak sandbox (containment is hostile-sections.test.ts's), whose config.json
 * (`configPath`) names Home as this very server serves it: rewriting Home's
 * files is a redeploy of Home.
 */
export async function startWithHome(root: string, configPath: string): Promise<RunningPortico> {
  deployHome(root, '/* the first build */');
  const company = { comName: 'Lender', email: 'help@lender.example', address: 'Somewhere', copyright: '(c) Lender' };
  writeFileSync(configPath, JSON.stringify(company));
  const running = await startPortico({
    rootDir: root,
    basePort: 0,
    host: '127.0.0.1',
    configPath,
    log: silentLogger,
    ssr: { sandbox: { setting: 'weak' } },
  });
  writeFileSync(configPath, JSON.stringify({ ...company, remotes: { home: `http://127.0.0.1:${running.ports[1]!}/mf-manifest.json` } }));
  return running;
}
