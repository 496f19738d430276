import v8 from 'node:v8';
import { linesLogger } from '@portico/platform/testing';
import vm from 'node:vm';
import { startPortico } from '@portico/server';

/**
 * The front server `npm run measure:styles` measures, in a process of its
 * own (its memory is this process's, and the load generator's CPU is not in
 * it): `startPortico` on MEASURE_ROOT's builds and MEASURE_CONFIG, on
 * MEASURE_PORT..+3. It says `ready` over IPC, answers `memory` (after full
 * collections) and ends on `stop`. Its log goes to stderr.
 */
const collectGarbage = (() => {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
})();

interface Ask {
  type: 'memory' | 'stop';
  gc?: boolean;
}

async function main(): Promise<void> {
  const running = await startPortico({
    rootDir: process.env.MEASURE_ROOT!,
    basePort: Number(process.env.MEASURE_PORT),
    host: '127.0.0.1',
    configPath: process.env.MEASURE_CONFIG,
    // The rotation of a manifest's stylesheets every second is what is measured here: no churn bound holds it.
    ssr: { manifestChurn: { versions: Number.POSITIVE_INFINITY } },
    log: linesLogger((line) => process.stderr.write(`${line}\n`)),
  });
  process.send!({ type: 'ready', url: running.url, sandbox: running.renderWorker()?.sandbox });
  process.on('message', (message: Ask) => {
    if (message.type === 'stop') {
      void running.close().then(() => process.exit(0));
      return;
    }
    if (message.gc) for (let pass = 0; pass < 3; pass += 1) collectGarbage();
    const { rss, heapUsed, external } = process.memoryUsage();
    const state = running.renderWorker();
    process.send!({ type: 'memory', rss, heapUsed, external, styleBytes: state?.styleBytes ?? 0, cacheBytes: state?.cacheBytes ?? 0 });
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`measure:styles server: ${(error as Error).message}\n`);
  process.exit(1);
});
