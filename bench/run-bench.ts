import { execSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_CONFIG_PATH } from '@portico/config-server/config-answer';
import { apiClient, CONTROL_API } from '@portico/control-contract';
import { startPortico } from '@portico/server';
import { runServe, waitForOutput } from '../tests/support/run-cli';
import { serveUnderPath, type StaticServer } from '../tests/support/static-server';
import { report, type ColumnFigures } from './bench-table';
import { addCalculator, serveCalculator, untilCalculatorRendered } from './calculator-column';
import { visitContact } from './contact-visit';
import { extraHostConfig, extraRemoteConfigs } from './extra-remotes/build-extra-remotes';
import { medianFigures, runLighthouse } from './lighthouse-runs';
import { measureTapToReady } from './tap-to-ready';
import { OUT_DIR, REPO_ROOT } from './paths';
import { runWebpack, singleBundleConfig, singleBundleSsrConfigs } from './single-bundle/build-single-bundle';
import { startSingleSsrServer } from './single-bundle/ssr-server';
import { staticExtrasCount, withStaticExtras } from './static-extras-config';
import { eventually } from '@portico/testing/eventually';

/**
 * `npm run bench`: four builds of the same page in one run, each measured
 * with Lighthouse's default mobile settings on loopback: the federated page
 * rendered on the server (`npm run serve`, SSR on) and in the browser
 * (`PORTICO_SSR=0`), and a single bundle of it rendered in the browser and on
 * the server (single-bundle/ssr-server.ts, which serves it as the product
 * serves the federated page); then the cost of each extra remote. Each
 * column also gets one visit that selects Contact us (contact-visit.ts): the
 * JavaScript it costs to reach a working form, and `--runs` throttled taps
 * on it (tap-to-ready.ts): the time until its send button works. Prints one table and writes
 * bench/results.json. The columns are described in bench/README.md.
 */
const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    extra: { type: 'string', default: '10' },
    'no-build': { type: 'boolean', default: false },
    // Each page gets its own block of ports from here (BENCH_PORT too).
    port: { type: 'string', default: process.env.BENCH_PORT ?? '8700' },
  },
});
const RUNS = Number(args.runs);
const EXTRA = Number(args.extra);
/** The "fed SSR + N static" column's N: as many of the extra remotes as the nav holds beside the built-in three. */
const EXTRA_STATIC = staticExtrasCount(EXTRA);
// The extra remotes' ports (extra + 10 …) end where the next page's block begins.
if (!Number.isInteger(EXTRA) || EXTRA < 1 || EXTRA > 10) throw new Error(`--extra must be a whole number from 1 to 10, got "${args.extra}"`);
const BASE = Number(args.port);
// The extra remotes listen on extra + 10 … + 19 (extra-remotes/load-section.ts).
const PORTS = {
  federatedSsr: BASE,
  federated: BASE + 10,
  single: BASE + 20,
  singleSsr: BASE + 30,
  extra: BASE + 40,
  beaconOff: BASE + 60,
  staticExtra: BASE + 70,
  // The server on + 80 … + 84, the calculator's static host on + 85.
  calculator: BASE + 80,
};
const LOOPBACK = '127.0.0.1';

const CONTROL_TOKEN = 'bench-control-token';

/**
 * The federated site as production runs it: its three sections published
 * and active as releases (so the page carries the health note and reports
 * its visit), from a config naming the remotes on the loopback address the
 * page is measured on, and the sections in `extras` (manifest URLs) added
 * after them as config.json adds a section.
 */
function releasesConfig(port: number, extras: readonly string[] = []): string {
  const config = JSON.parse(readFileSync(DEFAULT_CONFIG_PATH, 'utf8')) as object;
  const file = path.join(OUT_DIR, `releases-config-${port}.json`);
  const remotes = { home: 1, about: 2, contact: 3 };
  const site = {
    ...config,
    remotes: Object.fromEntries(Object.entries(remotes).map(([id, offset]) => [id, `http://${LOOPBACK}:${port + offset}/mf-manifest.json`])),
  };
  writeFileSync(file, JSON.stringify(extras.length === 0 ? site : withStaticExtras(site, extras)));
  return file;
}

async function activateReleases(port: number): Promise<void> {
  const control = apiClient({ base: `http://127.0.0.1:${port + 4}`, token: CONTROL_TOKEN });
  for (const [section, offset] of [
    ['home', 1],
    ['about', 2],
    ['contact', 3],
  ] as const) {
    const published = await control.call(CONTROL_API.releases.publish, {
      body: { section, manifestUrl: `http://${LOOPBACK}:${port + offset}/mf-manifest.json` },
    });
    await control.call(CONTROL_API.sections.activate, { params: { section }, body: { release: published.id } });
  }
  // Every server serves an activation within 2 s.
  await new Promise((resolve) => setTimeout(resolve, 2500));
}

/**
 * A tree laid out like the repository, so the production server serves it:
 * the real remotes, and either the real host or one built into it.
 */
function siteRoot(name: string, { ownHost }: { ownHost: boolean }): string {
  const root = path.join(OUT_DIR, name);
  for (const app of ['remote-home', 'remote-about', 'remote-contact']) {
    mkdirSync(path.join(root, app), { recursive: true });
    rmSync(path.join(root, app, 'dist'), { recursive: true, force: true });
    symlinkSync(path.join(REPO_ROOT, app, 'dist'), path.join(root, app, 'dist'));
  }
  if (!ownHost) {
    mkdirSync(path.join(root, 'host'), { recursive: true });
    rmSync(path.join(root, 'host/dist'), { recursive: true, force: true });
    symlinkSync(path.join(REPO_ROOT, 'host/dist'), path.join(root, 'host/dist'));
  }
  return root;
}

/**
 * The extra remotes' site config: the default one, with the extra remotes'
 * origins allowed, so the page's Content-Security-Policy lets them load.
 */
/**
 * What the client-rendered columns serve: every section granted script, as a
 * deployment that renders in the browser must grant Home and About (static by
 * default, they would show their alert: docs/decisions/section-script.md), so
 * that the page measured is the same page as the server-rendered columns'.
 */
const EVERY_SECTION_GRANTED = { sections: { home: { interactive: true }, about: { interactive: true }, contact: { interactive: true } } };

/** The default config.json with every section granted script, for the client-rendered federated column. */
function clientRenderedConfig(port: number): string {
  const config = JSON.parse(readFileSync(DEFAULT_CONFIG_PATH, 'utf8')) as object;
  const file = path.join(OUT_DIR, `client-rendered-config-${port}.json`);
  writeFileSync(file, JSON.stringify({ ...config, ...EVERY_SECTION_GRANTED }));
  return file;
}

function extraConfig(): string {
  const config = JSON.parse(readFileSync(DEFAULT_CONFIG_PATH, 'utf8')) as object;
  const origin = (port: number) => `http://${LOOPBACK}:${port}`;
  const file = path.join(OUT_DIR, 'extra-config.json');
  const remotes = { home: 1, about: 2, contact: 3 };
  writeFileSync(
    file,
    JSON.stringify({
      ...config,
      remotes: Object.fromEntries(Object.entries(remotes).map(([id, offset]) => [id, `${origin(PORTS.extra + offset)}/mf-manifest.json`])),
      allowedRemoteOrigins: Array.from({ length: EXTRA }, (_, index) => origin(PORTS.extra + 10 + index)),
      ...EVERY_SECTION_GRANTED,
    }),
  );
  return file;
}

/**
 * Lighthouse `RUNS` times, then one visit to the Contact form (its bytes do
 * not vary between visits as timings do), then `RUNS` throttled taps on it.
 */
async function measureColumn(name: string, url: string): Promise<ColumnFigures> {
  process.stdout.write(`Lighthouse x${RUNS} on ${name} (${url})...`);
  const runs = await runLighthouse(url, RUNS);
  process.stdout.write(` performance ${runs.map((run) => run.performance).join(', ')}\n`);
  const figures = medianFigures(runs);
  const visit = await visitContact(url).catch((error: unknown) => {
    console.log(`  Contact visit failed, its figure is n/a: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  });
  if (visit) {
    console.log(
      `  JavaScript: ${figures.jsBeforeLcpBytes} B before LCP, ${figures.jsAfterLcpBytes} B after it before any interaction, ${visit.jsBytes} B once Contact had hydrated (${visit.hydratedBy})`,
    );
    if (visit.errors.length > 0) console.log(`  the page logged ${visit.errors.length} error(s) on that visit, the first: ${visit.errors[0]}`);
  }
  const tap = await measureTapToReady(url, RUNS).catch((error: unknown) => {
    console.log(`  a tap visit failed, "tap to ready" is n/a: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  });
  if (tap) console.log(`  tap to ready: ${tap.tapToReadyMs} ms (runs ${tap.runsMs.join(', ')} ms, ready by ${tap.signal})`);
  return {
    ...figures,
    jsAfterContactHydratedBytes: visit?.jsBytes ?? null,
    contactHydratedBy: visit?.hydratedBy ?? null,
    tapToReadyMs: tap?.tapToReadyMs ?? null,
    tapToReadyRunsMs: tap?.runsMs ?? [],
  };
}

/** The extra remotes' manifests, where `main` serves them. */
const extraManifests = () => Array.from({ length: EXTRA }, (_, index) => `http://${LOOPBACK}:${PORTS.extra + 10 + index}/mf-manifest.json`);

/**
 * Waits until the page holds every extra section's HTML (the server fetches
 * their manifests and node builds in the background), so that the column
 * measures the page it is named after; throws if it never does.
 */
async function untilExtrasRendered(url: string): Promise<void> {
  await eventually(
    async () => {
      const count = ((await (await fetch(url)).text()).match(/class="bench-extra"/g) ?? []).length;
      if (count !== EXTRA_STATIC) throw new Error(`${url} holds ${count} of the ${EXTRA_STATIC} static extra sections`);
    },
    { what: 'every static extra section rendered', withinMs: 60_000, everyMs: 500 },
  );
}

/** Is the page this server answers rendered on the server? Its HTML then holds the sections' <main>. */
async function serverRendered(url: string): Promise<boolean> {
  const html = await (await fetch(url)).text();
  return /<main\b/.test(html);
}

/**
 * `npm run serve` as an operator starts it, on its own ports, until `use`
 * is done. `ssr: false` sets PORTICO_SSR=0. `releases.extras`: manifests of
 * sections its config.json adds.
 */
async function withServe<T>(
  port: number,
  ssr: boolean,
  use: (url: string) => Promise<T>,
  releases?: { health: boolean; extras?: readonly string[] },
): Promise<T> {
  const env = {
    PORT: String(port),
    HOST: LOOPBACK,
    PORTICO_SSR: ssr ? '1' : '0',
    ...(releases
      ? { PORTICO_CONFIG: releasesConfig(port, releases.extras), PORTICO_CONTROL_TOKEN: CONTROL_TOKEN, PORTICO_HEALTH: releases.health ? '1' : '0' }
      : {}),
    ...(!releases && !ssr ? { PORTICO_CONFIG: clientRenderedConfig(port) } : {}),
  };
  const serve = runServe(env);
  try {
    await waitForOutput(serve);
    if (releases) await activateReleases(port);
    return await use(`http://${LOOPBACK}:${port}/`);
  } finally {
    if (serve.child.exitCode === null) {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const extraRoot = path.join(OUT_DIR, 'extra-remotes');
  const singleSsrDist = path.join(OUT_DIR, 'single-ssr/host/dist');
  const singleSsrServer = path.join(OUT_DIR, 'single-ssr/server');
  if (!args['no-build']) {
    console.log('Building the federated site (npm run build)...');
    execSync('npm run build', { cwd: REPO_ROOT, stdio: 'ignore' });
    console.log('Building the single bundle (client-rendered, and server-rendered with its Node build) and the extra remotes...');
    await runWebpack(singleBundleConfig(path.join(OUT_DIR, 'single/host/dist')));
    await runWebpack(singleBundleSsrConfigs(singleSsrDist, singleSsrServer));
    await runWebpack([...extraRemoteConfigs(extraRoot, EXTRA), extraHostConfig(path.join(OUT_DIR, 'extra/host/dist'), EXTRA)]);
  }

  // One server at a time, so each page is measured on a machine doing nothing else.
  const measureSsr = (name: string) => async (url: string) => {
    if (!(await serverRendered(url))) {
      console.log(`${name}: n/a (npm run serve answers ${url} without server-rendered sections: no render worker in this build)`);
      return null;
    }
    return measureColumn(name, url);
  };
  const servers: { close(): Promise<void> }[] = [];
  const extraServers: StaticServer[] = [];
  try {
    // The extra remotes' files, for the "+N static" and "+N remotes" columns.
    for (let index = 0; index < EXTRA; index += 1) {
      extraServers.push(await serveUnderPath(path.join(extraRoot, `extra-${index}/dist`), '/', PORTS.extra + 10 + index));
    }
    // Beacon off first: the first page measured in a run tends to be the slowest, and the beacon must not be flattered.
    const beaconOff = await withServe(PORTS.beaconOff, true, measureSsr('federated SSR, beacon off'), { health: false });
    const federatedSsr = await withServe(PORTS.federatedSsr, true, measureSsr('federated SSR'), { health: true });
    const staticExtra = await withServe(
      PORTS.staticExtra,
      true,
      async (url) => {
        if (!(await serverRendered(url))) return measureSsr(`federated SSR + ${EXTRA_STATIC} static sections`)(url);
        await untilExtrasRendered(url);
        return measureColumn(`federated SSR + ${EXTRA_STATIC} static sections`, url);
      },
      { health: true, extras: extraManifests().slice(0, EXTRA_STATIC) },
    );
    const calculatorHost = await serveCalculator(PORTS.calculator + 5);
    extraServers.push(calculatorHost);
    const calculator = await withServe(
      PORTS.calculator,
      true,
      async (url) => {
        if (!(await serverRendered(url))) return measureSsr('federated SSR + calculator')(url);
        await addCalculator(PORTS.calculator + 4, CONTROL_TOKEN, `${calculatorHost.url}mf-manifest.json`);
        await untilCalculatorRendered(url);
        return measureColumn('federated SSR + calculator', url);
      },
      { health: true },
    );
    const federated = await withServe(PORTS.federated, false, async (url) => {
      if (await serverRendered(url)) throw new Error('PORTICO_SSR=0 npm run serve still rendered the page on the server');
      return measureColumn('federated, client-rendered', url);
    });

    const single = await startPortico({ rootDir: siteRoot('single', { ownHost: true }), basePort: PORTS.single, host: LOOPBACK });
    servers.push(single);
    const singleSsr = await startSingleSsrServer({
      dist: singleSsrDist,
      serverEntry: path.join(singleSsrServer, 'server-entry.js'),
      port: PORTS.singleSsr,
    });
    servers.push(singleSsr);
    servers.push(await startPortico({ rootDir: siteRoot('extra', { ownHost: true }), basePort: PORTS.extra, host: LOOPBACK, configPath: extraConfig() }));

    const singleFigures = await measureColumn('single bundle, client-rendered', `http://${LOOPBACK}:${PORTS.single}/`);
    const singleSsrUrl = `http://${LOOPBACK}:${PORTS.singleSsr}/`;
    if (!(await serverRendered(singleSsrUrl))) throw new Error(`${singleSsrUrl} is not server-rendered`);
    const singleSsrFigures = await measureColumn('single bundle SSR', singleSsrUrl);
    const extra = await measureColumn(`federated + ${EXTRA} remotes`, `http://${LOOPBACK}:${PORTS.extra}/`);
    report(
      { federatedSsr, staticExtra, calculator, beaconOff, federated, single: singleFigures, singleSsr: singleSsrFigures, extra },
      { started, runs: RUNS, extra: EXTRA, extraStatic: EXTRA_STATIC },
    );
  } finally {
    await Promise.all([...servers, ...extraServers].map((server) => server.close()));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
