import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { apiClient, CONTROL_API } from '@portico/control-contract';
import { eventually } from '@portico/testing/eventually';
import { sampleConfig } from '@portico/testing/sample-config';
import { operatorSettings, untilServing } from './serve-program';

/** What bench:server's servers share: the product's answers as taken, its config, its canary, and another checkout's server beside it. */

/** The cohort cookie's name (served-releases.ts) and a bucket in each cohort of a 50 % canary. */
export const COHORT_COOKIE = 'portico_cohort';
export const COHORTS = ['10', '90'];
export const BENCH_TOKEN = 'bench-server-token';
export const BROWSER = { 'accept-encoding': 'br, gzip' };

/** One answer of a server, as it sent it. */
export interface TakenAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A request's raw answer (no decompression). */
export function ask(port: number, target: string, headers: Record<string, string>): Promise<TakenAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: target, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The sample config as an operator's file in `folder`, its remotes on the ports after `port`, the canary's builds allowed. */
export function writeBenchConfig(folder: string, port: number, buildUrls: readonly string[]): void {
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    path.join(folder, 'config.json'),
    JSON.stringify({
      ...sampleConfig,
      remotes: Object.fromEntries(['home', 'about', 'contact'].map((section, index) => [section, `http://127.0.0.1:${port + 1 + index}/mf-manifest.json`])),
      allowedRemoteOrigins: buildUrls.map((url) => new URL(url).origin),
    }),
  );
}

/** Resolves once the server on `port` answers its page server-rendered, Contact included. */
export async function pageRendered(port: number): Promise<void> {
  await eventually(async () => /"rendered":\[[^\]]*"contact"/.test((await ask(port, '/', {})).body.toString()), {
    what: `the page on port ${port} server-rendered`,
    withinMs: 60_000,
    everyMs: 200,
  });
}

/** The hashed host entry a build in `checkout` names: the chunk bench:server loads. */
export function hostChunk(checkout: string): string {
  const chunk = readdirSync(path.join(checkout, 'host/dist')).find((file) => /^main\.[0-9a-f]{10}\.js$/.test(file));
  if (!chunk) throw new Error(`no build in ${checkout}/host/dist: run npm run build there first`);
  return chunk;
}

/**
 * On the server on `port` (its control API on port + 4): publishes two
 * builds of Contact, activates the first and runs the second as a canary for
 * half the visitors; resolves once both cohorts get their page server-rendered.
 */
export async function startCanary(port: number, urls: readonly string[]): Promise<void> {
  const control = apiClient({ base: `http://127.0.0.1:${port + 4}`, token: BENCH_TOKEN });
  const ids: string[] = [];
  for (const manifestUrl of urls) ids.push((await control.call(CONTROL_API.releases.publish, { body: { section: 'contact', manifestUrl } })).id);
  await control.call(CONTROL_API.sections.activate, { params: { section: 'contact' }, body: { release: ids[0]! } });
  await control.call(CONTROL_API.canaries.start, { params: { section: 'contact' }, body: { release: ids[1]!, percent: 50 } });
  const serves = async (cohort: string, url: string) => {
    const config = await ask(port, '/config.json', { ...BROWSER, cookie: `${COHORT_COOKIE}=${cohort}` });
    const page = await ask(port, '/', { cookie: `${COHORT_COOKIE}=${cohort}` });
    return config.body.toString().includes(url) && page.body.toString().includes(url) && /"rendered":\[[^\]]*"contact"/.test(page.body.toString());
  };
  await eventually(async () => (await serves(COHORTS[0]!, urls[1]!)) && (await serves(COHORTS[1]!, urls[0]!)), {
    what: `the canary served to both cohorts on port ${port}`,
    withinMs: 60_000,
    everyMs: 200,
  });
}

/**
 * `npm run serve` in another checkout (`--before`: the build a change is
 * measured against, built there), as its operator starts it, on `port` and
 * the next four ports with the same config and token: loaded in the same
 * alternating rounds as this checkout's server, so both meet the same
 * machine (issue 47: "alternating rounds, one run"). Its npm and server are
 * one process group, stopped together.
 */
export async function startCheckout(checkout: string, options: { port: number; folder: string }): Promise<{ close(): Promise<void> }> {
  const child = spawn('npm', ['run', 'serve'], {
    cwd: checkout,
    detached: true,
    env: { ...process.env, ...operatorSettings(options.port, options.folder), PORTICO_CONTROL_TOKEN: BENCH_TOKEN },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await untilServing(child, `npm run serve in ${checkout}`);
  return {
    close: async () => {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    },
  };
}
