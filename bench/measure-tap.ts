import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { visitContact } from './contact-visit';
import { OUT_DIR } from './paths';
import { startSingleSsrServer } from './single-bundle/ssr-server';
import { measureTapToReady } from './tap-to-ready';

// `npm run measure:tap -- <page url> [--runs N]`: the bench's "tap to ready"
// row alone, against a page already served: a try without the whole bench.
// `--block <pattern>` (repeatable): requests the browser refuses, e.g.
// `--block '*island-files.json'` to measure without the fetch ahead.
// Then the bench's "JS once Contact is hydrated" for the same page, and with
// `--single-ssr <port>` the single-bundle SSR page's beside it (served on
// that port from bench/out, which `npm run bench` builds): the bytes
// ratio issue 50 asks ≤ 1.0x of, without the whole bench.
const { values, positionals } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    block: { type: 'string', multiple: true, default: [] },
    'single-ssr': { type: 'string' },
  },
  allowPositionals: true,
});
const url = positionals[0];
if (!url) throw new Error('usage: npm run measure:tap -- <page url> [--runs N] [--block pattern] [--single-ssr port]');

async function singleSsrBytes(port: number): Promise<number> {
  const dist = path.join(OUT_DIR, 'single-ssr/host/dist');
  const serverEntry = path.join(OUT_DIR, 'single-ssr/server/server-entry.js');
  if (!existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: npm run bench builds the single bundle`);
  const server = await startSingleSsrServer({ dist, serverEntry, port });
  try {
    return (await visitContact(`http://127.0.0.1:${port}/`)).jsBytes;
  } finally {
    await server.close();
  }
}

async function main(page: string): Promise<void> {
  if (Number(values.runs) > 0) {
    const figures = await measureTapToReady(page, Number(values.runs), values.block);
    console.log(`tap to ready on ${page}: median ${figures.tapToReadyMs} ms (runs ${figures.runsMs.join(', ')} ms; ready by ${figures.signal})`);
  }
  const { jsBytes } = await visitContact(page);
  console.log(`JS once Contact is hydrated on ${page}: ${jsBytes} B`);
  if (values['single-ssr']) {
    const single = await singleSsrBytes(Number(values['single-ssr']));
    console.log(`JS once Contact is hydrated on the single-bundle SSR page: ${single} B; ratio ${(jsBytes / single).toFixed(2)}x`);
  }
}

main(url).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
