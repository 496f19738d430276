import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type OutgoingHttpHeaders, type Server } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { REPO_ROOT } from './paths';

/**
 * `npm run bench:server`: what the production server costs per request
 * against what Node itself and nginx cost for the same bytes, on loopback.
 * In one invocation it starts `npm run serve`'s program as an operator does
 * (one front process, render workers included, on the existing builds:
 * `npm run build` first) on BENCH_PORT (9400) and the next three ports, takes
 * each answer below from it once (its status, headers and bytes, brotli as a
 * browser asks), then serves those very answers from memory with a bare
 * `node:http` server (an ETag, 304 on a match) and with Debian's nginx (one
 * worker, the bytes as files, the same headers), and loads the three in
 * turn, URL by URL, for `--rounds` (5) rounds of BENCH_SECONDS (5) each with
 * BENCH_CONNECTIONS (10): the cached page, `/config.json`, a hashed chunk,
 * the page's 304, and 100 addresses with queries the page does not use
 * (half of them the Indonesian page). It prints each URL's median requests
 * per second and p99 per server, and the ratios of `npm run serve` to both.
 * `--no-cache` starts the server with PORTICO_SSR_CACHE=0. Not part of
 * `npm test`: its numbers depend on the machine (the load generator shares
 * its cores with the servers).
 */
const { values: args } = parseArgs({ options: { 'no-cache': { type: 'boolean', default: false }, rounds: { type: 'string', default: '5' } } });
const PORT = Number(process.env.BENCH_PORT ?? 9400);
const BARE_PORT = PORT + 10;
const NGINX_PORT = PORT + 11;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(args.rounds);
const CACHE = !args['no-cache'];
const NGINX = '/usr/sbin/nginx';

/** One answer of `npm run serve`, as it sent it: what the other two servers answer from memory. */
interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

interface Load {
  name: string;
  /** The requests each connection makes in turn. */
  requests: { path: string; headers: Record<string, string> }[];
}

/** A request's raw answer (no decompression). */
function ask(port: number, target: string, headers: Record<string, string>): Promise<Answer> {
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

/** `npm run serve`'s program, on loopback, until close() ends it (SIGTERM, as Ctrl-C would). */
async function startServe(): Promise<{ child: ChildProcess; close(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []), path.join(REPO_ROOT, 'server/src/main.ts')], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', ...(CACHE ? {} : { PORTICO_SSR_CACHE: '0' }) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Portico is serving at')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`npm run serve stopped (exit ${code}) before it was ready:\n${output}`)));
  });
  return {
    child,
    close: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Headers a server sets itself, per answer: not copied. */
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'set-cookie']);
const copied = (headers: IncomingHttpHeaders): OutgoingHttpHeaders => Object.fromEntries(Object.entries(headers).filter(([name]) => !OWN_HEADERS.has(name)));

/** The limit for a Node server here: the answers from memory, an ETag, 304 on a match, the page by its language. */
function bareServer(answers: Map<string, Answer>): Server {
  return createServer((req, res) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const pathname = query === -1 ? url : url.slice(0, query);
    const key = pathname === '/' && query !== -1 && /(^|&)type=2(&|$)/.test(url.slice(query + 1)) ? '/?type=2' : pathname;
    const answer = answers.get(key);
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    const etag = answer.headers.etag;
    if (etag !== undefined && req.headers['if-none-match'] === etag) {
      res.writeHead(304, copied(answer.headers)).end();
      return;
    }
    res.writeHead(answer.status, { ...copied(answer.headers), 'Content-Length': answer.body.length }).end(answer.body);
  });
}

/** nginx (one worker) serving the same answers as files with the same headers; nginx makes its own ETags. */
function nginxConfig(folder: string, answers: Map<string, Answer>): string {
  const files = new Map<string, string>();
  const locations: string[] = [];
  let index = 0;
  for (const [key, answer] of answers) {
    const file = `answer-${index++}`;
    writeFileSync(path.join(folder, file), answer.body);
    files.set(key, file);
    const headers = Object.entries(copied(answer.headers))
      .filter(([name]) => !['etag', 'last-modified', 'content-type', 'accept-ranges'].includes(name))
      .map(([name, value]) => `      add_header ${name} ${JSON.stringify(String(value))} always;`)
      .join('\n');
    locations.push(`    location = /${file} {\n      internal;\n      types { }\n      default_type ${JSON.stringify(String(answer.headers['content-type']))};\n${headers}\n    }`);
  }
  const page = files.get('/')!;
  const other = files.get('/?type=2')!;
  const named = [...answers.keys()].filter((key) => key.startsWith('/') && key !== '/' && !key.includes('?'));
  return `worker_processes 1;
daemon off;
pid ${folder}/nginx.pid;
error_log ${folder}/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  server_tokens off;
  client_body_temp_path ${folder};
  proxy_temp_path ${folder};
  fastcgi_temp_path ${folder};
  uwsgi_temp_path ${folder};
  scgi_temp_path ${folder};
  server {
    listen 127.0.0.1:${NGINX_PORT};
    root ${folder};
    location = / {
      if ($arg_type = "2") { rewrite ^ /${other} last; }
      rewrite ^ /${page} last;
    }
${named.map((key) => `    location = ${key} { rewrite ^ /${files.get(key)} last; }`).join('\n')}
${locations.join('\n')}
  }
}
`;
}

async function startNginx(folder: string, config: string): Promise<{ close(): Promise<void> }> {
  const file = path.join(folder, 'nginx.conf');
  writeFileSync(file, config);
  const child = spawn(NGINX, ['-c', file, '-p', folder], { stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  for (let attempt = 0; ; attempt++) {
    try {
      await ask(NGINX_PORT, '/config.json', {});
      break;
    } catch (error) {
      if (attempt > 50 || child.exitCode !== null) throw new Error(`nginx did not start: ${(error as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    close: async () => {
      child.kill('SIGQUIT');
      await exited;
    },
  };
}

interface Measured {
  requestsPerSecond: number;
  p99: number;
  errors: number;
}

async function load(port: number, { requests }: Load): Promise<Measured> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: SECONDS,
    timeout: 10,
    requests: requests.map(({ path: target, headers }) => ({ method: 'GET', path: target, headers })),
  });
  return { requestsPerSecond: result.requests.average, p99: result.latency.p99, errors: result.errors + result.timeouts + (result['5xx'] ?? 0) + (result['4xx'] ?? 0) };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function main(): Promise<void> {
  const chunk = readdirSync(path.join(REPO_ROOT, 'host/dist')).find((file) => /^main\.[0-9a-f]{10}\.js$/.test(file));
  if (!chunk) throw new Error('no build in host/dist: run npm run build first');
  if (!existsSync(NGINX)) throw new Error(`no nginx at ${NGINX} (apt-get install nginx-light)`);
  const serve = await startServe();
  const folder = mkdtempSync(path.join(tmpdir(), 'portico-bench-server-'));
  const closing: (() => Promise<void>)[] = [() => serve.close()];
  try {
    const browser = { 'accept-encoding': 'br, gzip' };
    // The page once the render workers are warm: server-rendered, and kept.
    let page = await ask(PORT, '/', browser);
    for (let attempt = 0; attempt < 100 && !/^"/.test(String(page.headers.etag)); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      page = await ask(PORT, '/', browser);
    }
    const rendering = page.headers.etag ? 'server-rendered' : 'client-rendered (no render worker)';
    const answers = new Map<string, Answer>([
      ['/', page],
      ['/?type=2', await ask(PORT, '/?type=2', browser)],
      ['/config.json', await ask(PORT, '/config.json', browser)],
      [`/${chunk}`, await ask(PORT, `/${chunk}`, browser)],
    ]);
    for (const [key, answer] of answers) if (answer.status !== 200) throw new Error(`npm run serve answered ${answer.status} to ${key}`);

    const bare = bareServer(answers);
    await new Promise<void>((resolve) => bare.listen(BARE_PORT, '127.0.0.1', resolve));
    closing.push(() => new Promise((resolve) => bare.close(() => resolve())));
    const nginx = await startNginx(folder, nginxConfig(folder, answers));
    closing.push(() => nginx.close());
    const nginxTag = (await ask(NGINX_PORT, '/', browser)).headers.etag;

    const queries = Array.from({ length: 100 }, (_, index) => ({ path: `/?${index % 2 === 0 ? '' : 'type=2&'}utm_source=bench-${index}`, headers: browser }));
    const loads: (Load & { port: (server: ServerName) => number; tag?: (server: ServerName) => string | undefined })[] = [
      { name: `/ (${(page.body.length / 1024).toFixed(1)} KB br)`, requests: [{ path: '/', headers: browser }], port: portOf },
      { name: `/config.json (${answers.get('/config.json')!.body.length} B)`, requests: [{ path: '/config.json', headers: browser }], port: portOf },
      { name: `/${chunk} (${(answers.get(`/${chunk}`)!.body.length / 1024).toFixed(1)} KB br)`, requests: [{ path: `/${chunk}`, headers: browser }], port: portOf },
      { name: '/ with a matching If-None-Match (304)', requests: [], port: portOf, tag: (server) => (server === 'nginx' ? nginxTag : page.headers.etag) },
      { name: '100 queries the page does not use (/ and /?type=2)', requests: queries, port: portOf },
    ];
    const servers = ['npm run serve', 'bare node:http', 'nginx'] as const;
    type ServerName = (typeof servers)[number];
    function portOf(server: ServerName): number {
      return server === 'npm run serve' ? PORT : server === 'bare node:http' ? BARE_PORT : NGINX_PORT;
    }
    const results = new Map<string, Measured[]>();
    for (let round = 1; round <= ROUNDS; round++) {
      for (const target of loads) {
        // Alternating: each round starts with another server, so none always runs first.
        for (let turn = 0; turn < servers.length; turn++) {
          const server = servers[(turn + round) % servers.length]!;
          const tag = target.tag?.(server);
          const requests = tag === undefined ? target.requests : [{ path: '/', headers: { ...browser, 'if-none-match': tag } }];
          process.stderr.write(`round ${round}/${ROUNDS}: ${target.name} on ${server}...\n`);
          const measured = await load(target.port(server), { name: target.name, requests });
          const key = `${target.name}\n${server}`;
          results.set(key, [...(results.get(key) ?? []), measured]);
        }
      }
    }

    const header = ['URL', ...servers.flatMap((server) => [`${server} req/s`, 'p99 ms']), 'serve / bare', 'serve / nginx', 'p99 serve / bare', 'errors (each server)'];
    const cells = loads.map(({ name }) => {
      const of = (server: ServerName) => {
        const runs = results.get(`${name}\n${server}`)!;
        return { rps: median(runs.map((run) => run.requestsPerSecond)), p99: median(runs.map((run) => run.p99)), errors: runs.reduce((sum, run) => sum + run.errors, 0) };
      };
      const [own, bareRun, nginxRun] = servers.map(of) as [ReturnType<typeof of>, ReturnType<typeof of>, ReturnType<typeof of>];
      return [
        name,
        ...[own, bareRun, nginxRun].flatMap((run) => [Math.round(run.rps).toLocaleString('en'), String(run.p99)]),
        (own.rps / bareRun.rps).toFixed(2),
        (own.rps / nginxRun.rps).toFixed(2),
        (own.p99 / Math.max(bareRun.p99, 1)).toFixed(2),
        [own, bareRun, nginxRun].map((run) => run.errors).join(' / '),
      ];
    });
    const widths = header.map((_, column) => Math.max(header[column]!.length, ...cells.map((row) => row[column]!.length)));
    const line = (row: string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
    console.log(
      `\nMedians of ${ROUNDS} alternating rounds, ${SECONDS} s per URL and server, ${CONNECTIONS} connections, Accept-Encoding: br, gzip, on loopback; ` +
        `${availableParallelism()} cores shared with the load generator, load average ${loadavg()[0]!.toFixed(2)} at the end; page ${rendering}, page cache ${CACHE ? 'on' : 'off (PORTICO_SSR_CACHE=0)'}; ` +
        'p99 in whole ms (autocannon)\n',
    );
    console.log(line(header));
    console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
    for (const row of cells) console.log(line(row));
    if (cells.some((row) => row.at(-1) !== '0 / 0 / 0')) process.exitCode = 1;
  } finally {
    for (const close of closing.reverse()) await close();
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`bench:server: ${(error as Error).message}`);
  process.exit(1);
});
