import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { APP_DIRS, APP_NAMES } from '@portico/contract/sections';
import { startPortico, type RunningPortico } from '../portico-server';

function post(port: number, urlPath: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: urlPath, method: 'POST' }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end('{}');
  });
}

const root = mkdtempSync(path.join(tmpdir(), 'portico-api-route-'));
for (const app of APP_NAMES) {
  const dist = path.join(root, APP_DIRS[app], 'dist');
  mkdirSync(dist, { recursive: true });
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html>');
  writeFileSync(path.join(dist, 'mf-manifest.json'), '{}');
}
let running: RunningPortico;
const seen: string[] = [];

beforeAll(async () => {
  running = await startPortico({
    rootDir: root,
    // Each app on an ephemeral port of its own.
    basePort: 0,
    host: '127.0.0.1',
    api: (app, _options, done) => {
      app.addContentTypeParser('*', (_request, payload, parsed) => void payload.resume().on('end', () => parsed(null, undefined)));
      app.all('/api/*', (request, reply) => {
        seen.push(`${request.method} ${request.url}`);
        return reply.code(201).type('application/json').send('{"id":"x"}');
      });
      done();
    },
  });
});

afterAll(async () => {
  await running.close();
  rmSync(root, { recursive: true, force: true });
});

test('the host port hands everything under /api/ to the API handler, POST included', async () => {
  expect(await post(running.ports[0]!, '/api/contact')).toEqual({ status: 201, body: '{"id":"x"}' });
  expect(seen).toEqual(['POST /api/contact']);
});

test('the remotes and other paths keep their GET-only rules', async () => {
  expect((await post(running.ports[3]!, '/api/contact')).status).toBe(405);
  expect((await post(running.ports[0]!, '/apix')).status).toBe(405);
  expect(seen).toEqual(['POST /api/contact']);
});
