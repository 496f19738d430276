import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

/**
 * A throwaway PostgreSQL server for tests: a new cluster in a temp folder,
 * reached over a unix socket in that folder (no port to collide on), with
 * fsync off unless `durable` (a test's data need not survive a power cut). Debian's binaries
 * are found under /usr/lib/postgresql; as root the server runs as the
 * `postgres` user, since PostgreSQL refuses to run as root.
 */
export interface TestPostgres {
  /** A `postgres://` URL for DATABASE_URL and node-postgres. */
  url: string;
  /** Stops the server, keeping its data (to test an unreachable database). */
  stop(): void;
  /** Starts it again on the same data. */
  start(): void;
  /** Stops it and removes its folder. */
  destroy(): void;
}

function binDir(): string | undefined {
  const fromEnv = process.env.PG_BIN;
  if (fromEnv && existsSync(path.join(fromEnv, 'pg_ctl'))) return fromEnv;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(path.join(root, name, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] && path.join(root, versions[0], 'bin');
}

/** Why no test server can be started here, or undefined when one can. */
export function postgresMissing(): string | undefined {
  if (!binDir()) return 'no PostgreSQL server binaries (apt-get install postgresql, or set PG_BIN)';
  if (userInfo().uid === 0 && spawnSync('id', ['postgres']).status !== 0) return 'running as root and there is no postgres user to run the server as';
  return undefined;
}

/**
 * True when the PostgreSQL tests must run: in CI (CI=true) a missing server is
 * a failure, not a skip, so the store is never left tested on one database only.
 */
export function postgresRequired(): boolean {
  return process.env.CI === 'true';
}

/**
 * The run's cluster new test servers start as a copy of (jest's global
 * setup, `makePostgresTemplate`): initdb is most of the CPU a test server's
 * start costs here (eight started and stopped: 11.3-11.8 CPU-s with it,
 * 8.6-8.8 from copies, docs/performance-test-suite.md), and some twenty jest
 * files start one or more. Set in the global setup's process, inherited by
 * the test workers; without it (a bench, Playwright) initdb makes each.
 */
export const POSTGRES_TEMPLATE_ENV = 'PORTICO_TEST_POSTGRES_TEMPLATE';

/** A folder for a cluster, the postgres user's when the tests run as root (PostgreSQL refuses to run as root). */
function clusterFolder(prefix: string, asRoot: boolean): string {
  const folder = mkdtempSync(path.join(tmpdir(), prefix));
  if (asRoot) chownSync(folder, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
  return folder;
}

/** Runs one of PostgreSQL's commands, as the postgres user when the tests run as root. */
function runner(bin: string, asRoot: boolean) {
  return (command: string, args: string[]) => {
    const [file, fullArgs] = asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(bin, command), ...args]] : [path.join(bin, command), args];
    const result = spawnSync(file, fullArgs, { encoding: 'utf8', timeout: 60_000 });
    if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.stdout || result.error?.message}`);
  };
}

const initdb = (run: ReturnType<typeof runner>, data: string) =>
  run('initdb', ['-D', data, '-U', 'portico', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);

/** Makes the run's template cluster where a test server can start, unless one is named already; returns what removes it. */
export function makePostgresTemplate(): () => void {
  const bin = binDir();
  if (process.env[POSTGRES_TEMPLATE_ENV] || !bin || postgresMissing()) return () => undefined;
  const asRoot = userInfo().uid === 0;
  const folder = clusterFolder('portico-pg-template-', asRoot);
  initdb(runner(bin, asRoot), path.join(folder, 'data'));
  process.env[POSTGRES_TEMPLATE_ENV] = path.join(folder, 'data');
  return () => rmSync(folder, { recursive: true, force: true });
}

export function startTestPostgres(options: { durable?: boolean } = {}): TestPostgres {
  const bin = binDir();
  const missing = postgresMissing();
  if (!bin || missing) throw new Error(`cannot start a test PostgreSQL: ${missing}`);
  const asRoot = userInfo().uid === 0;
  const folder = clusterFolder('portico-pg-', asRoot);
  const data = path.join(folder, 'data');
  const run = runner(bin, asRoot);
  const template = process.env[POSTGRES_TEMPLATE_ENV];
  // cp -a keeps the files' owner (the postgres user) and their 0700 modes, which the server checks; each copy is a cluster of its own.
  if (template && existsSync(path.join(template, 'PG_VERSION'))) execFileSync('cp', ['-a', template, data]);
  else initdb(run, data);
  writeFileSync(
    path.join(data, 'postgresql.auto.conf'),
    [
      `listen_addresses = ''`,
      `unix_socket_directories = '${folder}'`,
      'max_connections = 100',
      // The bench measures a server that keeps what it acknowledged; tests need not.
      ...(options.durable ? [] : ['fsync = off', 'synchronous_commit = off']),
    ].join('\n') + '\n',
  );
  const start = () => run('pg_ctl', ['-D', data, '-l', path.join(folder, 'server.log'), '-w', '-t', '30', 'start']);
  const stop = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  start();
  return {
    url: `postgres://portico@/postgres?host=${encodeURIComponent(folder)}`,
    start,
    stop,
    destroy() {
      try {
        stop();
      } catch {
        // Already stopped.
      }
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
