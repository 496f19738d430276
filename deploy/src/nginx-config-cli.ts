import { parseConfig, type ParsedConfig } from '@portico/shared-config/config';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { remoteOrigins } from '@portico/server';
import { basePort } from '@portico/contract/sections';
import { DEBIAN_BROTLI_MODULE, DEFAULT_UPSTREAM_OFFSET, nginxConfig } from './nginx-config';

const USAGE = `npm run nginx:config -- --config path/to/config.json [--out nginx.conf]
  [--root DIR] [--port 8080] [--host ADDRESS] [--prefix DIR] [--brotli-module PATH|none]
  [--upstream HOST:PORT ... | --no-ssr]

  --config         the config.json nginx will serve at /config.json (required)
  --out            where to write the configuration (default: print it)
  --root           the folder holding host/dist and remote-*/dist (default: this repository)
  --port           the host's port; the remotes take the next three (default: PORT or 8080)
  --host           one address to listen on (default: every IPv4 and IPv6 interface)
  --prefix         folder for nginx's pid file, error log and scratch files (default: beside --out)
  --brotli-module  the brotli_static module to load (default: Debian's, when installed)
  --upstream       a Node server rendering the page (npm run serve), repeatable to name
                   several (default: 127.0.0.1 on the host's port + ${DEFAULT_UPSTREAM_OFFSET})
  --no-ssr         pure static hosting: nginx serves index.html, rendered in the browser`;

// Paths the operator typed are relative to where they typed them.
const here = process.env.INIT_CWD ?? process.cwd();
const resolve = (value: string) => path.resolve(here, value);

function main(): void {
  const { values } = parseArgs({
    options: {
      config: { type: 'string' },
      out: { type: 'string' },
      root: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      prefix: { type: 'string' },
      'brotli-module': { type: 'string' },
      upstream: { type: 'string', multiple: true },
      'no-ssr': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!values.config) throw new Error(`--config is required\n\n${USAGE}`);
  if (values['no-ssr'] && values.upstream) throw new Error('--upstream names the Node server that --no-ssr goes without: give one or the other');

  const configPath = resolve(values.config);
  let config: ParsedConfig;
  try {
    config = parseConfig(JSON.parse(readFileSync(configPath, 'utf8')));
  } catch (error) {
    throw new Error(`cannot read ${configPath} as JSON: ${(error as Error).message}`);
  }
  const origins = remoteOrigins(config);
  if (origins.length === 0) console.error(`warning: ${configPath} names no remote origin; the page will load no section`);

  const out = values.out ? resolve(values.out) : undefined;
  const brotli = values['brotli-module'];
  const brotliModule = brotli === 'none' ? undefined : brotli ? resolve(brotli) : existsSync(DEBIAN_BROTLI_MODULE) ? DEBIAN_BROTLI_MODULE : undefined;
  const text = nginxConfig({
    config,
    configPath,
    rootDir: values.root ? resolve(values.root) : path.resolve(__dirname, '../..'),
    basePort: basePort(values.port ? { PORT: values.port } : process.env),
    listenHost: values.host,
    prefix: values.prefix ? resolve(values.prefix) : out ? path.dirname(out) : here,
    brotliModule,
    ssr: !values['no-ssr'],
    upstreams: values.upstream,
    log: (line) => console.error(`warning: ${line}`),
  });
  if (!out) {
    process.stdout.write(text);
    return;
  }
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, text);
  const page = values['no-ssr'] ? 'the page static, rendered in the browser' : 'the page proxied to the Node server';
  console.log(`Wrote ${out}: ${page}; host page scripts from 'self' ${origins.join(' ')}${brotliModule ? '' : ' (no brotli module: gzip only)'}`);
}

try {
  main();
} catch (error) {
  console.error(`nginx:config: ${(error as Error).message}`);
  process.exit(1);
}
