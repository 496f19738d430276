import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type OutgoingHttpHeaders, type Server } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import {
  ask,
  BENCH_TOKEN,
  BROWSER,
  COHORT_COOKIE,
  COHORTS,
  hostChunk,
  pageRendered,
  startCanary,
  startCheckout,
  writeBenchConfig,
  type TakenAnswer,
} from './bench-servers';
import { contactBuild } from './contact-build';
import { REPO_ROOT } from './paths';
import { startServeProgram, type ServeProgram } from './serve-program';

/**
 * `npm run bench:server`: what the production server costs per request
 * against what Node itself and nginx cost for the same bytes, on loopback.
 * In one invocation it starts `npm run serve`'s program as an operator does
 * (one front process, render workers included, on the existing builds:
 * `npm run build` first; the sample config as the operator's file, its
 * remotes on this server's ports; its own data folder) on BENCH_PORT (9400)
 * and the next four ports, takes each answer below from it once (status,
 * headers and bytes, brotli as a browser asks), then serves those very
 * answers from memory with a bare `node:http` server (an ETag, 304 on a
 * match) and with Debian's nginx (one worker, the bytes as files, the same
 * headers), and loads the three in turn, URL by URL, after a 2 s warm-up,
 * for `--rounds` (5) rounds of BENCH_SECONDS (5) each with
 * BENCH_CONNECTIONS (10): the cached page, `/config.json`, a hashed chunk,
 * the page's 304, and 100 addresses with queries the page does not use (half
 * of them the Indonesian page). Then it publishes two builds of Contact,
 * activates one and runs the other as a canary for half the visitors, and
 * loads the page and `/config.json` for two cohorts in turn (their cookies)
 * the same way. It prints each URL's median requests per second and p99 per
 * server, and the ratios of `npm run serve` to both. `--no-cache` starts the
 * server with PORTICO_SSR_CACHE=0; `--before <checkout>` adds that checkout's
 * `npm run serve` (built there: the build a change is measured against) on
 * BENCH_PORT + 20 and the next four ports to the servers loaded in turn, in
 * the same rounds, and a "serve / before" column; BENCH_PROFILE=<folder> writes its CPU
 * profile. Not part of `npm test`: its numbers depend on the machine (the
 * load generator shares its cores with the servers).
 */
const { values: args } = parseArgs({
  options: { 'no-cache': { type: 'boolean', default: false }, rounds: { type: 'string', default: '5' }, before: { type: 'string' } },
});
const PORT = Number(process.env.BENCH_PORT ?? 9400);
const BARE_PORT = PORT + 10;
const NGINX_PORT = PORT + 11;
/** `--before`'s server: its four apps from here, its control API 4 above. */
const BEFORE_PORT = PORT + 20;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(args.rounds);
const CACHE = !args['no-cache'];
const NGINX = '/usr/sbin/nginx';

/** One answer of `npm run serve`, as it sent it: what the bare server and nginx answer from memory. */
type Answer = TakenAnswer;

interface Load {
  name: string;
  /** The requests each connection makes in turn. */
  requests: { path: string; headers: Record<string, string> }[];
}

/** `npm run serve`'s program on PORT, with its control token and, with `--no-cache`, no page cache. */
function startServe(folder: string): Promise<ServeProgram> {
  return startServeProgram({
    port: PORT,
    folder,
    env: { PORTICO_CONTROL_TOKEN: BENCH_TOKEN, ...(CACHE ? {} : { PORTICO_SSR_CACHE: '0' }) },
    nodeArgs: process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [],
  });
}

/** Headers a server sets itself, per answer: not copied. */
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'set-cookie', 'x-bench-path']);
const copied = (headers: IncomingHttpHeaders): OutgoingHttpHeaders => Object.fromEntries(Object.entries(headers).filter(([name]) => !OWN_HEADERS.has(name)));

/**
 * The file name an answer is kept under, from what chooses it: the path, the
 * page's language (`type=2`) and the visitor's cohort cookie. The bare server
 * computes it per request; nginx's configuration does the same with
 * variables.
 */
function answerKey(pathname: string, search: string, cohort: string | undefined): string {
  const language = pathname === '/' && /(^|&)type=2(&|$)/.test(search) ? 'id' : 'en';
  return `f${pathname.replace(/[^a-z0-9]/gi, '_')}-${language}-${cohort ?? ''}`;
}

const cohortIn = (cookie: string | undefined) => (cookie === undefined ? undefined : new RegExp(`(?:^|;\\s*)${COHORT_COOKIE}=(\\d+)`).exec(cookie)?.[1]);

/** The limit for a Node server here: the answers from memory, an ETag, 304 on a match, chosen by language and cohort. */
function bareServer(answers: Map<string, Answer>): Server {
  return createServer((req, res) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const pathname = query === -1 ? url : url.slice(0, query);
    const answer = answers.get(answerKey(pathname, query === -1 ? '' : url.slice(query + 1), cohortIn(req.headers.cookie)));
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

/** nginx (one worker) serving the same answers as files with the same headers, chosen as answerKey does; nginx makes its own ETags. */
function nginxConfig(folder: string, answers: Map<string, Answer>): string {
  const locations: string[] = [];
  const paths = new Set<string>();
  for (const [key, answer] of answers) {
    writeFileSync(path.join(folder, key), answer.body);
    paths.add(String(answer.headers['x-bench-path']));
    const headers = Object.entries(copied(answer.headers))
      .filter(([name]) => !['etag', 'last-modified', 'content-type', 'accept-ranges', 'x-bench-path'].includes(name))
      .map(([name, value]) => `      add_header ${name} ${JSON.stringify(String(value))} always;`)
      .join('\n');
    locations.push(
      `    location = /${key} {\n      internal;\n      types { }\n      default_type ${JSON.stringify(String(answer.headers['content-type']))};\n${headers}\n    }`,
    );
  }
  const routes = [...paths].map(
    (pathname) => `    location = ${pathname} {
      set $language en;
      ${pathname === '/' ? 'if ($arg_type = "2") { set $language id; }' : ''}
      rewrite ^ /f${pathname.replace(/[^a-z0-9]/gi, '_')}-$language-$cookie_${COHORT_COOKIE} last;
    }`,
  );
  // The worker reads the files as this user (started as root, nginx would switch to one that cannot read a private temporary folder).
  return `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
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
${routes.join('\n')}
${locations.join('\n')}
  }
}
`;
}

async function startNginx(folder: string, config: string, probe: Load['requests'][number]): Promise<{ close(): Promise<void> }> {
  const file = path.join(folder, 'nginx.conf');
  writeFileSync(file, config);
  const child = spawn(NGINX, ['-c', file, '-p', folder], { stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  for (let attempt = 0; ; attempt++) {
    try {
      const answer = await ask(NGINX_PORT, probe.path, probe.headers);
      if (answer.status !== 200)
        throw new Error(`nginx answered ${answer.status} to ${probe.path}:\n${config}\n${readFileSync(path.join(folder, 'error.log'), 'utf8')}`);
      break;
    } catch (error) {
      if (attempt > 50 || child.exitCode !== null || /answered/.test((error as Error).message)) {
        child.kill('SIGQUIT');
        await exited;
        throw new Error(`nginx did not start: ${(error as Error).message}`);
      }
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

async function load(port: number, { requests }: Load, seconds = SECONDS): Promise<Measured> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 10,
    requests: requests.map(({ path: target, headers }) => ({ method: 'GET', path: target, headers })),
  });
  return {
    requestsPerSecond: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + (result['5xx'] ?? 0) + (result['4xx'] ?? 0),
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

type ServerName = 'npm run serve' | 'bare node:http' | 'nginx' | 'before';
/** The servers loaded in turn: `--before`'s too when given. */
const SERVERS: readonly ServerName[] = ['npm run serve', 'bare node:http', 'nginx', ...(args.before ? (['before'] as const) : [])];
const PORTS: Record<ServerName, number> = { 'npm run serve': PORT, 'bare node:http': BARE_PORT, nginx: NGINX_PORT, before: BEFORE_PORT };
const portOf = (server: ServerName) => PORTS[server];

interface Target extends Load {
  /** A 304: the page's own ETag on each server (nginx makes its own). */
  revalidate?: boolean;
  /** `--before`'s requests where its build names the file otherwise (its hashed chunk). */
  beforeRequests?: Load['requests'];
}

/** An answer of `npm run serve`, kept under its answerKey, with the path nginx routes it by. */
async function take(answers: Map<string, Answer>, target: string, cohort?: string): Promise<Answer> {
  const answer = await ask(PORT, target, { ...BROWSER, ...(cohort ? { cookie: `${COHORT_COOKIE}=${cohort}` } : {}) });
  if (answer.status !== 200) throw new Error(`npm run serve answered ${answer.status} to ${target}`);
  const query = target.indexOf('?');
  const pathname = query === -1 ? target : target.slice(0, query);
  answer.headers['x-bench-path'] = pathname;
  answers.set(answerKey(pathname, query === -1 ? '' : target.slice(query + 1), cohort), answer);
  return answer;
}

/** The three servers on the same answers, each target on each in turn, for ROUNDS rounds: every run's figures. */
async function compare(folder: string, answers: Map<string, Answer>, targets: readonly Target[]): Promise<Map<string, Measured[]>> {
  const bare = bareServer(answers);
  await new Promise<void>((resolve) => bare.listen(BARE_PORT, '127.0.0.1', resolve));
  let nginx: { close(): Promise<void> } | undefined;
  try {
    nginx = await startNginx(folder, nginxConfig(folder, answers), targets.find((target) => target.requests.length > 0)!.requests[0]!);
    const tags = new Map<ServerName, string | undefined>();
    for (const server of SERVERS) tags.set(server, (await ask(portOf(server), '/', BROWSER)).headers.etag);
    const requestsOf = (target: Target, server: ServerName) =>
      target.revalidate
        ? [{ path: '/', headers: { ...BROWSER, 'if-none-match': tags.get(server)! } }]
        : ((server === 'before' ? target.beforeRequests : undefined) ?? target.requests);
    // Warmed first (the JIT, the caches), not measured.
    for (const target of targets) for (const server of SERVERS) await load(portOf(server), { name: target.name, requests: requestsOf(target, server) }, 2);
    const results = new Map<string, Measured[]>();
    for (let round = 1; round <= ROUNDS; round++) {
      for (const target of targets) {
        // Alternating: each round starts with another server, so none always runs first.
        for (let turn = 0; turn < SERVERS.length; turn++) {
          const server = SERVERS[(turn + round) % SERVERS.length]!;
          const requests = requestsOf(target, server);
          process.stderr.write(`round ${round}/${ROUNDS}: ${target.name} on ${server}...\n`);
          const measured = await load(portOf(server), { name: target.name, requests });
          const key = `${target.name}\n${server}`;
          results.set(key, [...(results.get(key) ?? []), measured]);
        }
      }
    }
    return results;
  } finally {
    await nginx?.close();
    await new Promise((resolve) => bare.close(resolve));
  }
}

async function main(): Promise<void> {
  const chunk = hostChunk(REPO_ROOT);
  if (!existsSync(NGINX)) throw new Error(`no nginx at ${NGINX} (apt-get install nginx-light)`);
  const folder = mkdtempSync(path.join(tmpdir(), 'portico-bench-server-'));
  // Two builds of Contact on hosts of their own, for the canary.
  const builds = await Promise.all(['release A', 'release B'].map(contactBuild));
  const urls = builds.map((build) => `${build.origin}/mf-manifest.json`);
  // The sample config, its remotes on this server's ports: what the default config names, as an operator's file.
  writeBenchConfig(folder, PORT, urls);
  const serve = await startServe(folder);
  const before = args.before ? path.resolve(args.before) : undefined;
  let beforeServer: { close(): Promise<void> } | undefined;
  const rows: string[][] = [];
  let rendering = '';
  try {
    if (before) {
      writeBenchConfig(path.join(folder, 'before'), BEFORE_PORT, urls);
      beforeServer = await startCheckout(before, { port: BEFORE_PORT, folder: path.join(folder, 'before') });
    }
    // The page once the render workers are warm: server-rendered, and kept.
    await pageRendered(PORT);
    if (before) await pageRendered(BEFORE_PORT);
    const answers = new Map<string, Answer>();
    const page = await take(answers, '/');
    rendering = page.headers.etag ? 'server-rendered' : 'client-rendered (no render worker)';
    await take(answers, '/?type=2');
    const config = await take(answers, '/config.json');
    const file = await take(answers, `/${chunk}`);
    const queries = Array.from({ length: 100 }, (_, index) => ({ path: `/?${index % 2 === 0 ? '' : 'type=2&'}utm_source=bench-${index}`, headers: BROWSER }));
    const targets: Target[] = [
      { name: `/ (${(page.body.length / 1024).toFixed(1)} KB br)`, requests: [{ path: '/', headers: BROWSER }] },
      { name: `/config.json (${config.body.length} B)`, requests: [{ path: '/config.json', headers: BROWSER }] },
      {
        name: `/${chunk} (${(file.body.length / 1024).toFixed(1)} KB br)`,
        requests: [{ path: `/${chunk}`, headers: BROWSER }],
        beforeRequests: before ? [{ path: `/${hostChunk(before)}`, headers: BROWSER }] : undefined,
      },
      { name: '/ with a matching If-None-Match (304)', requests: [], revalidate: true },
      { name: '100 queries the page does not use (/ and /?type=2)', requests: queries },
    ];
    mkdirSync(path.join(folder, 'plain'));
    const plain = await compare(path.join(folder, 'plain'), answers, targets);

    await startCanary(PORT, urls);
    if (before) await startCanary(BEFORE_PORT, urls);
    const canary = new Map<string, Answer>();
    for (const cohort of COHORTS) {
      await take(canary, '/', cohort);
      await take(canary, '/config.json', cohort);
    }
    const cohortsOf = (target: string) => COHORTS.map((cohort) => ({ path: target, headers: { ...BROWSER, cookie: `${COHORT_COOKIE}=${cohort}` } }));
    const canaryTargets: Target[] = [
      { name: '/ with a canary (two cohorts in turn)', requests: cohortsOf('/') },
      { name: '/config.json with a canary (two cohorts in turn)', requests: cohortsOf('/config.json') },
    ];
    mkdirSync(path.join(folder, 'canary'));
    const withCanary = await compare(path.join(folder, 'canary'), canary, canaryTargets);

    for (const [results, list] of [
      [plain, targets],
      [withCanary, canaryTargets],
    ] as const) {
      for (const { name } of list) {
        const of = (server: ServerName) => {
          const runs = results.get(`${name}\n${server}`)!;
          return {
            rps: median(runs.map((run) => run.requestsPerSecond)),
            p99: median(runs.map((run) => run.p99)),
            errors: runs.reduce((sum, run) => sum + run.errors, 0),
          };
        };
        const runs = SERVERS.map(of);
        const [own, bareRun, nginxRun, beforeRun] = runs as [ReturnType<typeof of>, ReturnType<typeof of>, ReturnType<typeof of>, ReturnType<typeof of>?];
        rows.push([
          name,
          ...runs.flatMap((run) => [Math.round(run.rps).toLocaleString('en'), String(run.p99)]),
          (own.rps / bareRun.rps).toFixed(2),
          (own.rps / nginxRun.rps).toFixed(2),
          (own.p99 / Math.max(bareRun.p99, 1)).toFixed(2),
          ...(beforeRun ? [(own.rps / beforeRun.rps).toFixed(2)] : []),
          runs.map((run) => run.errors).join(' / '),
        ]);
      }
    }
  } finally {
    await beforeServer?.close();
    await serve.close();
    await Promise.all(builds.map((build) => build.close()));
    rmSync(folder, { recursive: true, force: true });
  }

  const header = [
    'URL',
    ...SERVERS.flatMap((server) => [`${server} req/s`, 'p99 ms']),
    'serve / bare',
    'serve / nginx',
    'p99 serve / bare',
    ...(before ? ['serve / before'] : []),
    'errors (each server)',
  ];
  const widths = header.map((_, column) => Math.max(header[column]!.length, ...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  console.log(
    `\nMedians of ${ROUNDS} alternating rounds, ${SECONDS} s per URL and server, ${CONNECTIONS} connections, Accept-Encoding: br, gzip, on loopback; ` +
      `${availableParallelism()} cores shared with the load generator, load average ${loadavg()[0]!.toFixed(2)} at the end; page ${rendering}, page cache ${CACHE ? 'on' : 'off (PORTICO_SSR_CACHE=0)'}; ` +
      'p99 in whole ms (autocannon)\n',
  );
  console.log(line(header));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
  if (rows.some((row) => /[1-9]/.test(row.at(-1)!))) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(`bench:server: ${(error as Error).message}`);
  process.exit(1);
});
