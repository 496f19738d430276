import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SECTION_WORKER_PATH, SHELL_WORKER_PATH } from '../ssr/server-rendering';

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

/** A section worker that loads any build and renders `<p>` naming the build and this worker (a random mark: its pid is the sandbox's). */
const FAKE_SECTION = channel(`(() => {
  const mark = Math.random().toString(36).slice(2);
  return (message) => {
    if (message.type === 'load') send({ type: 'loaded', id: message.id, failed: [] });
    if (message.type === 'render') send({ type: 'html', id: message.id, html: '<p>section by worker ' + mark + ' in ' + message.request.language + '</p>' });
  };
})()`);

/** Puts the fake shell and section workers where a host build puts the real ones. */
export function writeFakeWorkers(root: string): void {
  mkdirSync(path.join(root, path.dirname(SHELL_WORKER_PATH)), { recursive: true });
  writeFileSync(path.join(root, SHELL_WORKER_PATH), FAKE_SHELL);
  writeFileSync(path.join(root, SECTION_WORKER_PATH), FAKE_SECTION);
}
