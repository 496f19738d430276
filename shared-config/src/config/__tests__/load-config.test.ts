/** @jest-environment node */
// Node's own fetch against a real server on 127.0.0.1: every way config.json
// can fail becomes a named problem, never a thrown error.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sampleConfig } from '../../testing/sample-config';
import { loadConfig, readConfig } from '../load-config';

let server: Server;
let origin: string;
const requests: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(request.url ?? '');
    switch (request.url) {
      case '/config.json':
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(sampleConfig));
        return;
      case '/broken.json':
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"comName": "Portico",');
        return;
      case '/partial.json':
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ ...sampleConfig, email: 'nope' }));
        return;
      case '/hang-up.json':
        request.socket.destroy();
        return;
      default:
        response.writeHead(500);
        response.end('Internal Server Error');
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
});

test('a good config.json is read and validated', async () => {
  await expect(readConfig(`${origin}/config.json`)).resolves.toEqual({ config: sampleConfig, problems: [] });
});

test('a bad field is a problem, the rest is used', async () => {
  const { config, problems } = await readConfig(`${origin}/partial.json`);

  expect(problems).toEqual([{ field: 'email', message: 'is not a valid email' }]);
  expect(config.comName).toBe(sampleConfig.comName);
});

test('an HTTP error names the URL and the status', async () => {
  const url = `${origin}/missing.json`;

  await expect(readConfig(url)).resolves.toEqual({
    config: { remotes: {}, allowedRemoteOrigins: [] },
    problems: [{ field: url, message: 'answered HTTP 500 instead of the configuration' }],
  });
});

test('a body that is not JSON is named as such', async () => {
  const url = `${origin}/broken.json`;

  const { problems } = await readConfig(url);

  expect(problems).toEqual([{ field: url, message: 'is not valid JSON' }]);
});

test('a connection that fails is a problem, not an exception', async () => {
  const url = `${origin}/hang-up.json`;

  const { config, problems } = await readConfig(url);

  expect(config).toEqual({ remotes: {}, allowedRemoteOrigins: [] });
  expect(problems).toEqual([{ field: url, message: expect.stringMatching(/^could not be fetched \(.+\)$/) }]);
});

test('loadConfig reads config.json once for the whole page', async () => {
  const before = requests.length;

  const first = loadConfig(`${origin}/config.json`);
  const second = loadConfig(`${origin}/other.json`);

  expect(second).toBe(first);
  await expect(first).resolves.toEqual({ config: sampleConfig, problems: [] });
  expect(requests.slice(before)).toEqual(['/config.json']);
});
