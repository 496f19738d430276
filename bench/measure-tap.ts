import { parseArgs } from 'node:util';
import { measureTapToReady } from './tap-to-ready';

// `npm run measure:tap -- <page url> [--runs N]`: the bench's "tap to ready"
// row alone, against a page already served: a try without the whole bench.
// `--block <pattern>` (repeatable): requests the browser refuses, e.g.
// `--block '*island-files.json'` to measure without the fetch ahead.
const { values, positionals } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, block: { type: 'string', multiple: true, default: [] } },
  allowPositionals: true,
});
const url = positionals[0];
if (!url) throw new Error('usage: npm run measure:tap -- <page url> [--runs N] [--block pattern]');
measureTapToReady(url, Number(values.runs), values.block).then(
  (figures) => console.log(`tap to ready on ${url}: median ${figures.tapToReadyMs} ms (runs ${figures.runsMs.join(', ')} ms; ready by ${figures.signal})`),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
