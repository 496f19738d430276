import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { APP_DIRS, APP_NAMES } from '@portico/contract/sections';
import { sendRaw, type RawAnswer } from '@portico/testing/hostile-requests';

/** What every file outside a dist/ holds: no answer may ever contain it. */
export const SECRET = 'not-for-the-web';
export const MAIN_JS = 'console.info("main");\n'.repeat(50);
export const INDEX_HTML = (app: string) => `<!doctype html><title>${app}</title>`;

/**
 * A repository layout with four small dist/ folders as a build leaves them,
 * secrets beside them, and symlinks inside them that point in and out.
 */
export function makeBuiltSite(): { root: string; remove: () => void } {
  const root = mkdtempSync(path.join(tmpdir(), 'portico-serve-'));
  writeFileSync(path.join(root, 'secret.txt'), SECRET);
  for (const app of APP_NAMES) {
    const dist = path.join(root, APP_DIRS[app], 'dist');
    mkdirSync(path.join(dist, 'assets'), { recursive: true });
    writeFileSync(path.join(root, APP_DIRS[app], 'secret.txt'), SECRET);
    writeFileSync(path.join(dist, 'index.html'), INDEX_HTML(app));
    writeFileSync(path.join(dist, 'main.0123456789.js'), MAIN_JS);
    writeFileSync(path.join(dist, 'main.0123456789.js.gz'), gzipSync(MAIN_JS));
    writeFileSync(path.join(dist, 'main.0123456789.js.br'), brotliCompressSync(MAIN_JS));
    // Only a gzip copy: a client that prefers br is served gzip.
    writeFileSync(path.join(dist, 'gzipped.0123456789.js'), MAIN_JS);
    writeFileSync(path.join(dist, 'gzipped.0123456789.js.gz'), gzipSync(MAIN_JS));
    writeFileSync(path.join(dist, 'remoteEntry.js'), 'var entry;');
    writeFileSync(path.join(dist, 'mf-manifest.json'), '{"id":"x"}');
    writeFileSync(path.join(dist, 'assets', 'banner.0123456789.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(path.join(dist, '.secret'), SECRET);
    mkdirSync(path.join(dist, '.git'));
    writeFileSync(path.join(dist, '.git', 'config'), SECRET);
    // A link that stays inside is a file like any other; one that leaves is not there.
    symlinkSync('main.0123456789.js', path.join(dist, 'alias.0123456789.js'));
    symlinkSync(path.join(root, 'secret.txt'), path.join(dist, 'escape.0123456789.js'));
    symlinkSync('../secret.txt', path.join(dist, 'relative-escape.txt'));
    symlinkSync(root, path.join(dist, 'outside'));
    writeFileSync(path.join(dist, 'linked.0123456789.js'), 'var plain;');
    symlinkSync(path.join(root, 'secret.txt'), path.join(dist, 'linked.0123456789.js.br'));
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

export type { RawAnswer } from '@portico/testing/hostile-requests';

/** The port a running server's URL names. */
export const portOf = (url: string) => Number(new URL(url).port);

/**
 * Sends a request byte for byte over a socket (no client normalises `//`,
 * `%2F` or the Host header) and reads one answer: until its Content-Length
 * is in (every Portico answer has one), or the server closes. Undefined when
 * nothing came back within `timeoutMs`.
 */
export function rawRequest(port: number, request: string | Buffer, timeoutMs = 5_000): Promise<RawAnswer | undefined> {
  // httpRequest's default Host names the port the request goes to.
  if (typeof request === 'string') request = request.replace(`Host: localhost:${PORT_SLOT}\r\n`, `Host: localhost:${port}\r\n`);
  return sendRaw(port, request, timeoutMs);
}

/** Stands for the port in httpRequest's default Host, until rawRequest knows it. */
const PORT_SLOT = '{port}';

/**
 * `METHOD target HTTP/1.1` with a Host (by default `localhost:` and the port
 * rawRequest sends it to, as a browser would), `Connection: close` and any
 * other fields, as written.
 */
export function httpRequest(
  target: string,
  options: { method?: string; host?: string | null; headers?: Record<string, string>; version?: string } = {},
): string {
  const lines = [`${options.method ?? 'GET'} ${target} HTTP/${options.version ?? '1.1'}`];
  if (options.host !== null) lines.push(`Host: ${options.host ?? `localhost:${PORT_SLOT}`}`);
  lines.push('Connection: close');
  for (const [name, value] of Object.entries(options.headers ?? {})) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** Whether something accepts a TCP connection on the port (loopback). */
export const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
