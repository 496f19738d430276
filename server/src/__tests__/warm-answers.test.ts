import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { silentLogger } from '@portico/platform/logging';
import { startPortico, type RunningPortico } from '../portico-server';
import { makeBuiltSite } from './built-site';
import { deployHome, writeFakeWorkers } from './fake-workers';

// A restarted server's first visitors (issue 51's restart p99): the page and
// config.json are answered once inside the process before the page's port
// opens, so the first visitor behind the proxy gets a page already made.
// Checked failing without warmAnswers: the first request was the cache's miss.

const site = makeBuiltSite();
writeFakeWorkers(site.root);
const configPath = path.join(site.root, 'config.json');
/** The site's public address, as the proxy in front names it (a port that is not the server's). */
const PUBLIC_HOST = '127.0.0.1:9443';
let running: RunningPortico;

beforeAll(async () => {
  deployHome(site.root, '/* the first build */');
  writeFileSync(configPath, JSON.stringify({ comName: 'Lender', email: 'help@lender.example', address: 'Somewhere', copyright: '(c) Lender' }));
  running = await startPortico({
    rootDir: site.root,
    basePort: 0,
    host: '127.0.0.1',
    configPath,
    log: silentLogger,
    trustProxy: true,
    hostnames: [PUBLIC_HOST],
    ssr: { sandbox: { setting: 'weak' } },
  });
}, 30_000);
afterAll(async () => {
  await running.close();
  site.remove();
});

test('the first visitor behind the proxy gets a page made before the port opened: a hit in the page cache, not a miss', async () => {
  const counts = () => ({ ...running.renderWorker()!.counts });
  const before = counts();
  expect(before.cacheMisses).toBeGreaterThan(0);
  const answer = await fetch(running.url, { headers: { 'X-Forwarded-Host': PUBLIC_HOST, 'X-Forwarded-Proto': 'http' } });
  expect(answer.status).toBe(200);
  await answer.text();
  expect(counts()).toMatchObject({ cacheMisses: before.cacheMisses, cacheHits: before.cacheHits + 1 });
});
