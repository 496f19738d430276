import { execSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_CONFIG_PATH, startPortico, type RunningPortico } from '@portico/server';
import { serveUnderPath, type StaticServer } from '../tests/support/static-server';
import { extraHostConfig, extraRemoteConfigs } from './extra-remotes/build-extra-remotes';
import { medianFigures, runLighthouse, type PageFigures } from './lighthouse-runs';
import { OUT_DIR, REPO_ROOT } from './paths';
import { runWebpack, singleBundleConfig } from './single-bundle/build-single-bundle';

/**
 * `npm run bench`: the federated page against a single-bundle build of the
 * same page, and the cost of each extra remote, measured with Lighthouse's
 * default mobile settings on loopback. Prints one table and writes
 * bench/results.json.
 */
const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    extra: { type: 'string', default: '10' },
    'no-build': { type: 'boolean', default: false },
  },
});
const RUNS = Number(args.runs);
const EXTRA = Number(args.extra);
const PORTS = { federated: 8700, single: 8720, extra: 8740 };

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
function extraConfig(): string {
  const config = JSON.parse(readFileSync(DEFAULT_CONFIG_PATH, 'utf8')) as object;
  const origin = (port: number) => `http://localhost:${port}`;
  const file = path.join(OUT_DIR, 'extra-config.json');
  const remotes = { home: 1, about: 2, contact: 3 };
  writeFileSync(
    file,
    JSON.stringify({
      ...config,
      remotes: Object.fromEntries(Object.entries(remotes).map(([id, offset]) => [id, `${origin(PORTS.extra + offset)}/mf-manifest.json`])),
      allowedRemoteOrigins: Array.from({ length: EXTRA }, (_, index) => origin(PORTS.extra + 10 + index)),
    }),
  );
  return file;
}

async function measure(name: string, url: string): Promise<PageFigures> {
  process.stdout.write(`Lighthouse x${RUNS} on ${name} (${url})...`);
  const runs = await runLighthouse(url, RUNS);
  process.stdout.write(` performance ${runs.map((run) => run.performance).join(', ')}\n`);
  return medianFigures(runs);
}

async function main(): Promise<void> {
  const started = Date.now();
  const extraRoot = path.join(OUT_DIR, 'extra-remotes');
  if (!args['no-build']) {
    console.log('Building the federated site (npm run build)...');
    execSync('npm run build', { cwd: REPO_ROOT, stdio: 'ignore' });
    console.log('Building the single bundle and the extra remotes...');
    await runWebpack(singleBundleConfig(path.join(OUT_DIR, 'single/host/dist')));
    await runWebpack([...extraRemoteConfigs(extraRoot, EXTRA), extraHostConfig(path.join(OUT_DIR, 'extra/host/dist'), EXTRA)]);
  }

  const servers: RunningPortico[] = [];
  const extraServers: StaticServer[] = [];
  try {
    servers.push(await startPortico({ rootDir: siteRoot('federated', { ownHost: false }), basePort: PORTS.federated }));
    servers.push(await startPortico({ rootDir: siteRoot('single', { ownHost: true }), basePort: PORTS.single }));
    servers.push(
      await startPortico({ rootDir: siteRoot('extra', { ownHost: true }), basePort: PORTS.extra, configPath: extraConfig() }),
    );
    for (let index = 0; index < EXTRA; index += 1) {
      extraServers.push(await serveUnderPath(path.join(extraRoot, `extra-${index}/dist`), '/', PORTS.extra + 10 + index));
    }

    const federated = await measure('federated', `http://localhost:${PORTS.federated}/`);
    const single = await measure('single bundle', `http://localhost:${PORTS.single}/`);
    const extra = await measure(`federated + ${EXTRA} remotes`, `http://localhost:${PORTS.extra}/`);
    report({ federated, single, extra }, started);
  } finally {
    await Promise.all([...servers, ...extraServers].map((server) => server.close()));
  }
}

const ROWS: { key: keyof PageFigures; label: string; unit: string; digits: number }[] = [
  { key: 'performance', label: 'Performance score', unit: '', digits: 0 },
  { key: 'fcpMs', label: 'First Contentful Paint', unit: 'ms', digits: 0 },
  { key: 'lcpMs', label: 'Largest Contentful Paint', unit: 'ms', digits: 0 },
  { key: 'tbtMs', label: 'Total Blocking Time', unit: 'ms', digits: 0 },
  { key: 'cls', label: 'Cumulative Layout Shift', unit: '', digits: 3 },
  { key: 'jsBytes', label: 'JavaScript transferred', unit: 'B', digits: 0 },
  { key: 'requests', label: 'Requests', unit: '', digits: 0 },
  { key: 'chainLength', label: 'Request staircase before LCP (steps)', unit: '', digits: 0 },
  { key: 'chainMs', label: 'Staircase ends at, unthrottled', unit: 'ms', digits: 0 },
  { key: 'accessibility', label: 'Accessibility score', unit: '', digits: 0 },
  { key: 'bestPractices', label: 'Best practices score', unit: '', digits: 0 },
  { key: 'seo', label: 'SEO score', unit: '', digits: 0 },
];

function report(results: Record<'federated' | 'single' | 'extra', PageFigures>, started: number): void {
  const cell = (value: number, digits: number) => value.toFixed(digits);
  const header = ['metric (median)', 'federated', 'single bundle', 'ratio', `+${EXTRA} remotes`, 'per extra remote'];
  const lines = ROWS.map(({ key, label, unit, digits }) => {
    const fed = results.federated[key];
    const one = results.single[key];
    const extra = results.extra[key];
    return [
      unit ? `${label} (${unit})` : label,
      cell(fed, digits),
      cell(one, digits),
      one === 0 ? '-' : (fed / one).toFixed(2),
      cell(extra, digits),
      cell((extra - fed) / EXTRA, Math.max(digits, 1)),
    ];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  const row = (cells: string[]) => `| ${cells.map((text, column) => text.padEnd(widths[column]!)).join(' | ')} |`;
  console.log(`\n${row(header)}\n${row(widths.map((width) => '-'.repeat(width)))}\n${lines.map(row).join('\n')}`);
  console.log(`\nLighthouse ${RUNS} runs each, default mobile settings; finished in ${Math.round((Date.now() - started) / 1000)} s.`);
  const file = path.join(REPO_ROOT, 'bench/results.json');
  writeFileSync(
    file,
    `${JSON.stringify({ date: new Date().toISOString(), runs: RUNS, extraRemotes: EXTRA, ...results }, null, 2)}\n`,
  );
  console.log(`Figures written to ${path.relative(REPO_ROOT, file)}.`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
