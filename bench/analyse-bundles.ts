import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { brotliCompressSync, constants } from 'node:zlib';
import webpack, { type Configuration, type StatsModule } from 'webpack';
import { mobilePage } from './contact-visit';
import { REPO_ROOT } from './paths';

/**
 * `npm run analyse:bundles [-- --page URL]`: what each browser chunk of the
 * host and of Contact carries, by origin (the federation runtime, React,
 * zod, shared-config, the contract, the host's and Contact's own code), as
 * it travels (brotli 11, as the build writes it). Each app is built again
 * into a folder of its own with webpack's module statistics (the served
 * `dist/` is left alone). With `--page`, a visit to that served page taps
 * "Contact us" and marks the chunks it fetched by then, and after the tap.
 *
 * A chunk's brotli size is shared among its modules by their minified size
 * (webpack's), so a package's figure is an estimate within a chunk; a
 * chunk's total is exact.
 */

const APPS = ['host', 'remote-contact'] as const;

/** Where a module of `app` comes from, for the table (names are relative to the app's folder). */
function originOf(name: string, app: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(name)?.[1];
  if (name.includes('.federation/') || pkg?.startsWith('@module-federation/')) return 'federation runtime';
  if (pkg === 'react-dom' || pkg === 'scheduler') return 'React DOM';
  if (pkg === 'react') return 'React';
  if (pkg) return pkg;
  if (name.startsWith('./src/')) return app === 'host' ? "host's own" : "Contact's own";
  if (name.startsWith('container entry')) return 'federation runtime';
  if (name.startsWith('webpack/') || name.includes('(webpack)')) return 'webpack runtime';
  if (/shared-config\/src\/(config|config-schema|legal|theme)/.test(name)) return 'shared-config: config schema and reader';
  const workspace = /(?:^|\/)(shared-config|contract|host|remote-contact|toolkit)\/src\//.exec(name)?.[1];
  if (workspace) return workspace === 'remote-contact' ? "Contact's own" : workspace === 'host' ? "host's own" : `@portico/${workspace}`;
  if (name.startsWith('provide shared') || name.startsWith('consume shared') || name.startsWith('remote ')) return 'federation share lookups';
  return 'other';
}

/**
 * A chunk's file without its content hash (`main.0123456789.js` -> `main.js`):
 * the ids are stable, the hashes of this build and the served one may
 * differ (the host's entry names its chunks' hashes).
 */
const chunkOf = (file: string) => file.replace(/\.[0-9a-f]{10}\.js$/, '.js');

/** Every real module in a stats module: a concatenated one holds its parts in `modules`. */
function leaves(module: StatsModule): StatsModule[] {
  return module.modules && module.modules.length > 0 ? module.modules.flatMap(leaves) : [module];
}

interface ChunkReport {
  app: string;
  file: string;
  brotli: number;
  /** Brotli bytes by origin, estimated. */
  origins: Map<string, number>;
}

/** Runs webpack on `configs` (in their order of dependencies); resolves with each compilation's statistics. */
function build(configs: Configuration[]): Promise<webpack.Stats[]> {
  return new Promise((resolve, reject) =>
    webpack(configs, (error, result) => (error || !result ? reject(error ?? new Error('no stats')) : resolve(result.stats))),
  );
}

const isBrowser = (config: Configuration) => config.target === undefined || config.target === 'web';

/**
 * The app's production browser build, into `outDir`, with module statistics.
 * The host's alone (its page script and workers would write into its
 * `dist/`); a remote's with its node build first, which its manifest needs,
 * both into `outDir` (PORTICO_OUT_DIR).
 */
async function analyse(app: (typeof APPS)[number], outDir: string): Promise<ChunkReport[]> {
  const dir = path.join(REPO_ROOT, app);
  process.env.PORTICO_OUT_DIR = outDir;
  const { default: factory } = (await import(path.join(dir, 'webpack.config.ts'))) as {
    default: (env: unknown, argv: { mode: string }) => Configuration | Configuration[];
  };
  const made = [factory(undefined, { mode: 'production' })].flat();
  delete process.env.PORTICO_OUT_DIR;
  // The browser builds: the federated one and the islands' (the host's) or the island script (a remote's); not the host's page script.
  const browsers = made.filter((config) => isBrowser(config) && !String(config.name ?? '').endsWith('page-script'));
  if (browsers.length === 0) throw new Error(`${app}: no browser build in its webpack config`);
  // The host's alone (its page script and workers would write into its dist/), the federated build first: it empties the folder.
  const configs =
    app === 'host'
      ? browsers
          .sort((a, b) => Number(a.output?.clean === false) - Number(b.output?.clean === false))
          .map((config, index) => ({
            ...config,
            dependencies: index === 0 ? [] : [browsers[0]!.name!],
            output: { ...config.output, path: outDir, clean: index === 0 },
          }))
      : made;
  const all = await build(configs);
  if (all.some((one) => one.hasErrors())) throw new Error(`${app}: ${all.map((one) => one.toString('errors-only')).join('\n')}`);
  return all.filter((one) => isBrowser(one.compilation.options as Configuration)).flatMap((stats) => chunkReports(stats, app, outDir));
}

/** Each JS file of a compilation, with what it carries. */
function chunkReports(stats: webpack.Stats, app: string, outDir: string): ChunkReport[] {
  const json = stats.toJson({ chunks: true, chunkModules: true, nestedModules: true, modules: false, assets: false, reasons: false, source: false });
  return (json.chunks ?? []).flatMap((chunk) =>
    (chunk.files ?? [])
      .filter((file) => file.endsWith('.js'))
      .map((file) => {
        const brotli = brotliCompressSync(readFileSync(path.join(outDir, file)), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
        const modules = (chunk.modules ?? []).flatMap(leaves);
        const total = modules.reduce((sum, module) => sum + (module.size ?? 0), 0) || 1;
        const origins = new Map<string, number>();
        for (const module of modules) {
          const origin = originOf(module.name ?? module.identifier ?? '', app);
          if (origin === 'other' && process.env.ANALYSE_DEBUG) console.log(`other: ${module.name}`);
          origins.set(origin, (origins.get(origin) ?? 0) + ((module.size ?? 0) / total) * brotli);
        }
        return { app, file, brotli, origins };
      }),
  );
}

/**
 * The script files a visit to `url` fetched (or prefetched) before a tap on
 * "Contact us", and those it asked for after it until its form had
 * hydrated and the network was quiet (from the cache or not).
 */
async function fetchedOnVisit(url: string): Promise<{ before: Set<string>; after: Set<string> }> {
  const { page, close } = await mobilePage();
  const before = new Set<string>();
  const after = new Set<string>();
  let tapped = false;
  page.on('request', (request) => {
    // Scripts, and the prefetches of scripts (type "other") the page makes ahead of a tap.
    const address = new URL(request.url());
    const file = path.basename(address.pathname);
    // The host's files come from the page's origin, Contact's from its own (the only other one a tap fetches from).
    const app = address.origin === new URL(url).origin ? 'host' : 'remote-contact';
    if (request.resourceType() === 'script' || file.endsWith('.js')) (tapped ? after : before).add(`${app}/${chunkOf(file)}`);
  });
  try {
    await page.goto(url, { waitUntil: 'networkidle' });
    tapped = true;
    await page.getByRole('tab', { name: 'Contact us' }).tap();
    await page.locator('[data-section-island="contact"][data-island-state="hydrated"]').waitFor({ state: 'attached' });
    await page.waitForLoadState('networkidle');
    return { before, after };
  } finally {
    await close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { page: { type: 'string' } } });
  const reports: ChunkReport[] = [];
  for (const app of APPS) {
    const outDir = mkdtempSync(path.join(tmpdir(), `portico-analyse-${app}-`));
    try {
      process.stdout.write(`Building ${app} with module statistics...\n`);
      reports.push(...(await analyse(app, outDir)));
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  }
  const visit = values.page ? await fetchedOnVisit(values.page) : undefined;
  const when = (report: ChunkReport, file = `${report.app}/${chunkOf(report.file)}`) =>
    !visit
      ? ''
      : visit.before.has(file)
        ? visit.after.has(file)
          ? 'ahead, used after the tap'
          : 'ahead, unused'
        : visit.after.has(file)
          ? 'after the tap'
          : 'not fetched';
  const shown = visit ? reports.filter((report) => when(report) !== 'not fetched') : reports;
  const unknown = visit
    ? [...new Set([...visit.before, ...visit.after])].filter((file) => !reports.some((report) => `${report.app}/${chunkOf(report.file)}` === file))
    : [];
  if (unknown.length > 0) console.log(`Fetched on the visit but not in these builds (another build is served?): ${unknown.join(', ')}`);
  console.log('\n| app | chunk | brotli B | fetched | what it carries (brotli B, estimated) |\n| --- | --- | --- | --- | --- |');
  for (const report of shown.sort((a, b) => b.brotli - a.brotli)) {
    const carries = [...report.origins]
      .sort((a, b) => b[1] - a[1])
      .filter(([, bytes]) => bytes >= 50)
      .map(([origin, bytes]) => `${origin} ${Math.round(bytes)}`)
      .join(', ');
    console.log(`| ${report.app} | ${report.file} | ${report.brotli} | ${when(report)} | ${carries} |`);
  }
  const byOrigin = new Map<string, number>();
  for (const report of shown) for (const [origin, bytes] of report.origins) byOrigin.set(origin, (byOrigin.get(origin) ?? 0) + bytes);
  console.log('\n| origin | brotli B, all chunks shown |\n| --- | --- |');
  for (const [origin, bytes] of [...byOrigin].sort((a, b) => b[1] - a[1])) console.log(`| ${origin} | ${Math.round(bytes)} |`);
  console.log(
    `\nTotal ${shown.reduce((sum, report) => sum + report.brotli, 0)} B brotli in ${shown.length} chunks${visit ? ` fetched on a visit to ${values.page}` : ''}.`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
