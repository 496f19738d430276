import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ApiRefusal, apiClient, CONTROL_API } from '@portico/control-contract';
import { startTestPostgres } from '@portico/platform/testing';
import { builtServer, serveNodeArgs } from '@portico/testing/built-apps';
import { sampleConfig } from '@portico/testing/sample-config';
import { contactBuild } from './contact-build';
import { eventually } from '@portico/testing/eventually';

// What the releases issue asks to measure, on this machine: the delay from
// an activation to every server serving it (two `npm run serve` processes on
// one PostgreSQL server: a new visit gets it in /config.json and in the
// server-rendered page), p50 and max over ACTIVATIONS; and how long a
// publish takes with every check (fetches, hashes, the render in the
// section sandbox). `npm run measure:releases [-- --activations N]
// [--restart-database]`: with the flag, the PostgreSQL server is restarted
// first, and the first activation is made as it answers again (the servers'
// LISTEN connections died with it).

const REPO_ROOT = path.resolve(__dirname, '..');
const TOKEN = 'measure-releases-token';
const PORTS = [Number(process.env.MEASURE_PORT) || 9600, (Number(process.env.MEASURE_PORT) || 9600) + 100];
const count = (() => {
  const at = process.argv.indexOf('--activations');
  return at === -1 ? 20 : Number(process.argv[at + 1]);
})();
const restartDatabase = process.argv.includes('--restart-database');

interface Serve {
  child: ChildProcess;
  output: () => string;
  exited: Promise<unknown>;
}

function serve(port: number, databaseUrl: string, configPath: string, dataDir: string): Serve {
  const child = spawn(process.execPath, [...serveNodeArgs(), builtServer()], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: String(port), DATABASE_URL: databaseUrl, PORTICO_CONFIG: configPath, PORTICO_DATA_DIR: dataDir, PORTICO_CONTROL_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output, exited: new Promise((resolve) => child.on('exit', resolve)) };
}

/** The control API of the first server, through the contract's typed client. */
const control = () => apiClient({ base: `http://127.0.0.1:${PORTS[0]! + 4}`, token: TOKEN });
const activate = (release: string) => control().call(CONTROL_API.sections.activate, { params: { section: 'contact' }, body: { release } });

/** Whether a new visit to `port` gets `manifestUrl` for Contact, in /config.json and in the server-rendered page (and, with `rendered`, the section rendered by that build). */
async function serves(port: number, manifestUrl: string, rendered = false): Promise<boolean> {
  const [config, page] = await Promise.all([
    fetch(`http://localhost:${port}/config.json`).then((response) => response.json() as Promise<{ remotes: { contact: string } }>),
    fetch(`http://localhost:${port}/`).then((response) => response.text()),
  ]);
  // The page's hydration data carries the config it was rendered with.
  return config.remotes.contact === manifestUrl && page.includes(manifestUrl) && (!rendered || /"rendered":\[[^\]]*"contact"/.test(page));
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)]!;

async function main(): Promise<void> {
  const postgres = startTestPostgres();
  const folder = mkdtempSync(path.join(tmpdir(), 'portico-measure-releases-'));
  const configPath = path.join(folder, 'config.json');
  const hosts = await Promise.all(['release A', 'release B'].map(contactBuild));
  const urls = hosts.map((host) => `${host.origin}/mf-manifest.json`);
  writeFileSync(
    configPath,
    JSON.stringify({
      ...sampleConfig,
      remotes: {
        home: `http://localhost:${PORTS[0]! + 1}/mf-manifest.json`,
        about: `http://localhost:${PORTS[0]! + 2}/mf-manifest.json`,
        contact: `http://localhost:${PORTS[0]! + 3}/mf-manifest.json`,
      },
      allowedRemoteOrigins: urls.map((url) => new URL(url).origin),
    }),
  );
  const servers = PORTS.map((port, index) => serve(port, postgres.url, configPath, path.join(folder, `data-${index}`)));
  try {
    await Promise.all(
      servers.map((server, index) =>
        eventually(() => server.output().includes('The control API (releases, tokens, messages) listens at'), {
          what: `server ${index} ready`,
          withinMs: 120_000,
          everyMs: 10,
        }),
      ),
    );

    const publishMs: number[] = [];
    const ids: string[] = [];
    for (const url of urls) {
      const started = performance.now();
      const published = await control().call(CONTROL_API.releases.publish, { body: { section: 'contact', manifestUrl: url } });
      publishMs.push(performance.now() - started);
      ids.push(published.id);
    }
    // Settle on the first, served by both, before timing.
    await activate(ids[0]!);
    await Promise.all(PORTS.map((port) => eventually(() => serves(port, urls[0]!), { what: 'the first activation', withinMs: 30_000, everyMs: 10 })));

    let afterRestart: string | undefined;
    if (restartDatabase) {
      postgres.stop();
      // pg_ctl -w returns once the server accepts connections again.
      postgres.start();
      const answered = performance.now();
      // The control API's first statements may meet connections the restart closed (503): tried again at once.
      for (;;) {
        const refused = await activate(ids[1]!).then(
          () => undefined,
          (error: unknown) => error,
        );
        if (refused === undefined) break;
        if (!(refused instanceof ApiRefusal && refused.status === 503 && performance.now() - answered < 10_000)) throw refused;
      }
      const activated = performance.now();
      await Promise.all(
        PORTS.map((port) => eventually(() => serves(port, urls[1]!), { what: 'the activation after the restart', withinMs: 30_000, everyMs: 10 })),
      );
      const served = performance.now();
      afterRestart = `after a database restart, an activation made as it answered (${Math.round(activated - answered)} ms after): both servers serve it ${Math.round(served - activated)} ms after the activation, ${Math.round(served - answered)} ms after the database answered`;
      // The rounds below alternate from the first release again.
      await activate(ids[0]!);
      await Promise.all(PORTS.map((port) => eventually(() => serves(port, urls[0]!), { what: 'the first release again', withinMs: 30_000, everyMs: 10 })));
    }

    const delays: number[] = [];
    const renderedDelays: number[] = [];
    for (let round = 1; round <= count; round++) {
      const target = round % 2;
      const started = performance.now();
      await activate(ids[target]!);
      const reached = await Promise.all(
        PORTS.map(async (port) => {
          await eventually(() => serves(port, urls[target]!), { what: `activation ${round} on port ${port}`, withinMs: 30_000, everyMs: 10 });
          return performance.now() - started;
        }),
      );
      delays.push(Math.max(...reached));
      const rendered = await Promise.all(
        PORTS.map(async (port) => {
          await eventually(() => serves(port, urls[target]!, true), { what: `activation ${round} rendered on port ${port}`, withinMs: 30_000, everyMs: 10 });
          return performance.now() - started;
        }),
      );
      renderedDelays.push(Math.max(...rendered));
    }
    const ms = (value: number) => `${Math.round(value)} ms`;
    console.log(`publish with every check: ${publishMs.map(ms).join(', ')}`);
    if (afterRestart) console.log(afterRestart);
    console.log(
      `activation to both servers serving it (config.json and the server-rendered page), ${count} activations: p50 ${ms(percentile(delays, 50))}, max ${ms(Math.max(...delays))}`,
    );
    const status = await control().call(CONTROL_API.sections.status, { query: {} });
    console.log(`... and Contact server-rendered by the new build on both: p50 ${ms(percentile(renderedDelays, 50))}, max ${ms(Math.max(...renderedDelays))}`);
    console.log(`contact active: ${JSON.stringify(status.contact?.active?.id)}`);
  } catch (error) {
    for (const [index, server] of servers.entries()) console.error(`--- server ${index}:\n${server.output().split('\n').slice(-25).join('\n')}`);
    throw error;
  } finally {
    for (const server of servers) server.child.kill('SIGTERM');
    await Promise.all(servers.map((server) => server.exited));
    postgres.destroy();
    await Promise.all(hosts.map((host) => host.close()));
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`measure:releases: ${(error as Error).message}`);
  process.exit(1);
});
