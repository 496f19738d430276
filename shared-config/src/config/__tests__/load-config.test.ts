/** @jest-environment node */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sampleConfig } from '@portico/testing/sample-config';
import { readConfig } from '../load-config';

// A real server on loopback stands in for the host's /config.json.
let reply: { status: number; body: string } = { status: 200, body: '' };
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(reply.status).end(reply.body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/config.json`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('a valid config.json is read and validated', async () => {
  reply = { status: 200, body: JSON.stringify(sampleConfig) };
  await expect(readConfig(url)).resolves.toEqual({ config: sampleConfig, problems: [], deprecated: [] });
});

test('an error status is explained instead of failing the page', async () => {
  reply = { status: 503, body: '{}' };
  const { problems } = await readConfig(url);
  expect(problems).toEqual([{ field: url, message: expect.stringContaining('HTTP 503') }]);
});

test('a body that is not JSON is explained', async () => {
  reply = { status: 200, body: '<html>oops</html>' };
  const { problems } = await readConfig(url);
  expect(problems).toEqual([{ field: url, message: 'is not valid JSON' }]);
});

test('an unreachable server is explained', async () => {
  const { problems } = await readConfig('http://127.0.0.1:1/config.json');
  expect(problems[0]?.message).toMatch(/^could not be fetched/);
});

test('the page reads config.json once: the host and every section share the one answer', async () => {
  const { loadConfig } = await import('../load-config');
  reply = { status: 200, body: JSON.stringify(sampleConfig) };
  const first = loadConfig(url);
  await expect(first).resolves.toEqual({ config: sampleConfig, problems: [], deprecated: [] });
  // The server's answer has changed since; the page does not ask again.
  reply = { status: 503, body: '{}' };
  expect(loadConfig(url)).toBe(first);
  await expect(loadConfig(url)).resolves.toEqual({ config: sampleConfig, problems: [], deprecated: [] });
});
