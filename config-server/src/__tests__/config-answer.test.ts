/** @jest-environment node */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { answerConfig, DEFAULT_CONFIG_PATH, requestHostname } from '../config-answer';

const folder = mkdtempSync(path.join(tmpdir(), 'portico-config-answer-'));

test('without a file of its own, the default config with remotes on the host name and ports the request came to', async () => {
  const answer = await answerConfig({ hostHeader: '192.168.1.5:9100', basePort: 9100 });
  const defaults = JSON.parse(readFileSync(DEFAULT_CONFIG_PATH, 'utf8')) as Record<string, unknown>;
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.body)).toEqual({
    ...defaults,
    remotes: {
      home: 'http://192.168.1.5:9101/mf-manifest.json',
      about: 'http://192.168.1.5:9102/mf-manifest.json',
      contact: 'http://192.168.1.5:9103/mf-manifest.json',
    },
  });
});

test("an operator's file is served as written, with the value it was read as (nobody parses the body again)", async () => {
  const file = path.join(folder, 'config.json');
  const written = { comName: 'Operator', remotes: { home: 'https://home.example/mf-manifest.json' } };
  writeFileSync(file, JSON.stringify(written));
  const answer = await answerConfig({ configPath: file, hostHeader: 'localhost:8080', basePort: 8080 });
  expect(answer).toEqual({ status: 200, body: JSON.stringify(written), value: written });
});

test('a missing file or one that is not JSON answers 503, with the reason for the log', async () => {
  const missing = await answerConfig({ configPath: path.join(folder, 'nope.json'), basePort: 8080 });
  expect(missing).toMatchObject({ status: 503, fault: expect.stringContaining('no such file') });

  const broken = path.join(folder, 'broken.json');
  writeFileSync(broken, '{ "comName": ');
  expect(await answerConfig({ configPath: broken, basePort: 8080 })).toMatchObject({
    status: 503,
    body: JSON.stringify({ error: 'config.json is unavailable' }),
    fault: expect.stringContaining('is not JSON'),
  });
});

test.each([
  [undefined, 'localhost'],
  ['', 'localhost'],
  ['phone.local:8080', 'phone.local'],
  ['[::1]:8080', '[::1]'],
  ['bad host/with path', 'localhost'],
])('the host name of Host: %s is %s', (header, hostname) => {
  expect(requestHostname(header)).toBe(hostname);
});
