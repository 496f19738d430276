import { writeFileSync } from 'node:fs';
import { silentLogger } from '@portico/platform/logging';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { APP_DIRS } from '@portico/contract/sections';
import { eventually } from '@portico/testing/eventually';
import { startPortico, type RunningPortico } from '../portico-server';
import { accepts, makeBuiltSite, portOf } from './built-site';

// A server stopped by SIGTERM (a deploy, an OS update) drains: no new
// connection, /readyz 503, and an answer under way goes out whole before
// its connection closes; what is still not done at the bound is cut off.
// Checked to fail without RunningPortico.drain's wait (the old stop closed
// every connection at once: the slow reader got a cut body).

const BIG = Buffer.alloc(8 * 1024 * 1024, 'a');
const BIG_FILE = 'big.0123456789.js';

async function serverWithBigFile(): Promise<{ running: RunningPortico; port: number; remove: () => void }> {
  const site = makeBuiltSite();
  writeFileSync(path.join(site.root, APP_DIRS.host, 'dist', BIG_FILE), BIG);
  const running = await startPortico({ rootDir: site.root, basePort: 0, host: '127.0.0.1', log: silentLogger, ssr: false });
  return { running, port: portOf(running.url), remove: site.remove };
}

/** A client that asks for the big file and reads its first bytes, then nothing until `resume`; `received` is all it got once the server closed. */
async function slowReader(port: number, then = ''): Promise<{ socket: Socket; received: Promise<Buffer> }> {
  const socket = connect({ host: '127.0.0.1', port });
  const chunks: Buffer[] = [];
  const received = new Promise<Buffer>((resolve) => socket.on('close', () => resolve(Buffer.concat(chunks))));
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => {
    socket.once('data', (first: Buffer) => {
      chunks.push(first);
      socket.pause();
      resolve();
    });
    socket.write(`GET /${BIG_FILE} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept-Encoding: identity\r\n\r\n${then}`);
  });
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { socket, received };
}

/** The answers in `bytes`, one after the other: status, headers and a body of Content-Length. */
function answersIn(bytes: Buffer): { status: number; headers: Record<string, string>; body: Buffer }[] {
  const answers = [];
  let at = 0;
  while (at < bytes.length) {
    const end = bytes.indexOf('\r\n\r\n', at);
    const [statusLine, ...fields] = bytes.subarray(at, end).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(fields.map((field) => [field.slice(0, field.indexOf(':')).toLowerCase(), field.slice(field.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length']);
    answers.push({ status: Number(statusLine!.split(' ')[1]), headers, body: bytes.subarray(end + 4, end + 4 + length) });
    at = end + 4 + length;
  }
  return answers;
}

test('an answer under way goes out whole; meanwhile no new connection is taken, and a request on its connection hears 503 from /readyz and closes it', async () => {
  const { running, port, remove } = await serverWithBigFile();
  try {
    const reader = await slowReader(port);
    const draining = running.drain(60_000);
    await eventually(async () => !(await accepts(port)), { withinMs: 10_000 });
    // Asked after the drain began, on the connection still sending the file.
    reader.socket.write(`GET /readyz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    reader.socket.resume();
    const [file, ready, ...rest] = answersIn(await reader.received);
    expect(file).toMatchObject({ status: 200 });
    expect(file!.body.equals(BIG)).toBe(true);
    expect(ready).toMatchObject({ status: 503, headers: expect.objectContaining({ connection: 'close' }) });
    expect(ready!.body.toString()).toBe('not ready: the server is stopping\n');
    expect(rest).toEqual([]);
    await draining;
  } finally {
    await running.close();
    remove();
  }
}, 60_000);

test('what is still under way at the bound is cut off, so a stop never waits on a client that does not read', async () => {
  const { running, port, remove } = await serverWithBigFile();
  try {
    const reader = await slowReader(port);
    await running.drain(300);
    // Read now what came before the cut.
    reader.socket.resume();
    const received = await reader.received;
    expect(received.length).toBeLessThan(BIG.length);
  } finally {
    await running.close();
    remove();
  }
}, 60_000);
