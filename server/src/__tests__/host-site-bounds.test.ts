import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { visitorOf } from '@portico/platform/http';
import { silentLogger } from '@portico/platform/logging';
import type { Release } from '@portico/releases';
import { HostSite } from '../http/host-site';

// HostSite's memories of what it made per site (the page's headers per
// query, the config per releases served) are bounded, and a visitor who
// floods them with new queries no longer empties them for everyone else.
// Checked failing with the hand-made caches that cleared themselves when
// full: the hot entry was made afresh after the flood.

const site = () => new HostSite({ basePort: 9000, ports: [9000, 9001, 9002, 9003], hosts: [], trustProxy: false, log: silentLogger, ssr: false });

/** A request to the host's port for `url`, as the server gives it (its visitor as the root plugin reads it). */
function request(url: string): FastifyRequest {
  const raw = { url, method: 'GET', headers: { host: 'localhost:9000' }, socket: { remoteAddress: '127.0.0.1' } } as unknown as IncomingMessage;
  return { raw, url, method: 'GET', headers: raw.headers, visitor: visitorOf(raw, { trustProxy: false }) } as unknown as FastifyRequest;
}

function release(n: number): Release {
  return {
    id: `contact-${n}`,
    section: 'contact',
    manifestUrl: `https://cdn.example/contact/${n}/mf-manifest.json`,
    integrity: `sha384-${n}`,
    version: '1.0.0',
    buildId: `build-${n}`,
    createdAt: '2026-11-25T10:00:00.000Z',
    createdBy: 'ci',
    note: null,
  };
}

describe("the host site's caches under a flood", () => {
  it("keeps the page's headers for the address visitors use while one visitor asks 2,000 new queries", async () => {
    const host = site();
    const hot = await host.pageHeaders(request('/'), '');
    const firstOfFlood = await host.pageHeaders(request('/?flood=0'), '?flood=0');
    for (let n = 1; n < 2000; n++) {
      await host.pageHeaders(request(`/?flood=${n}`), `?flood=${n}`);
      if (n % 10 === 0) expect(await host.pageHeaders(request('/'), '')).toBe(hot);
    }
    expect(await host.pageHeaders(request('/'), '')).toBe(hot);
    // Bounded: the flood's first query was forgotten, its headers made again.
    const again = await host.pageHeaders(request('/?flood=0'), '?flood=0');
    expect(again).not.toBe(firstOfFlood);
    expect(again).toEqual(firstOfFlood);
  });

  it('keeps the config of the releases served while releases come and go', async () => {
    const host = site();
    const served = { contact: release(0) };
    const hot = await host.siteWith('localhost:9000', served);
    const firstGone = await host.siteWith('localhost:9000', { contact: release(1) });
    for (let n = 2; n < 200; n++) {
      await host.siteWith('localhost:9000', { contact: release(n) });
      if (n % 4 === 0) expect(await host.siteWith('localhost:9000', served)).toBe(hot);
    }
    expect(await host.siteWith('localhost:9000', served)).toBe(hot);
    expect(await host.siteWith('localhost:9000', { contact: release(1) })).not.toBe(firstGone);
  });
});
