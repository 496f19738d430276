import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, lstatSync, mkdtempSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * How a section worker is contained (docs/decisions.md, "Threat model:
 * section code may render its section's HTML, nothing else"):
 * - `bwrap`: bubblewrap, with no network, its own PID, IPC and UTS
 *   namespaces, no capabilities, a file system of the system's read-only
 *   `/usr` and the worker's own file, as an unprivileged user when the
 *   server runs as root;
 * - `uid`: no bubblewrap, but the server runs as root: the worker runs as
 *   another user (the kernel refuses it the server's `/proc`, signals and
 *   files), in a network namespace of its own where the kernel allows one;
 * - `weak`: neither; Node's permission model only, which stops files and
 *   processes but not sockets or signals. Only when the operator asks for it
 *   (`PORTICO_SSR_SANDBOX=weak`), for local development.
 * Every mode adds Node's permission model (read the worker's own file only,
 * no child process, no worker thread, no native addon) and refuses code
 * made from strings.
 */
export type SandboxMode = 'bwrap' | 'uid' | 'weak';

/** `PORTICO_SSR_SANDBOX`: `auto` (the default) takes the strongest that starts; a named mode only that one. */
export const SANDBOX_SETTINGS = ['auto', 'bwrap', 'uid', 'weak'] as const;
export type SandboxSetting = (typeof SANDBOX_SETTINGS)[number];

/** A worker as the operating system starts it. */
export interface Launch {
  file: string;
  args: string[];
  uid?: number;
  gid?: number;
  env: Record<string, string>;
}

export interface Sandbox {
  mode: SandboxMode;
  /** For the log: what the worker can and cannot reach. */
  description: string;
  /** The command that starts the staged worker in this sandbox, with that heap limit. */
  launch: (heapMb: number) => Launch;
  /** The copy of the worker this sandbox starts (the only file it may read). */
  stagedFile: string;
  /** Removes the staged copy of the worker. */
  close: () => void;
}

export type SandboxChoice = { sandbox: Sandbox; warning?: string } | { sandbox: undefined; problem: string };

export interface SandboxOptions {
  setting?: string;
  /** The built section worker (host/dist-node/section-worker.js). */
  workerFile: string;
  /** For tests: where bubblewrap and unshare are (undefined: not installed), and whether this process may start workers as another user. */
  bwrapPath?: string;
  unsharePath?: string;
  isRoot?: boolean;
  /** The user workers run as when the server is root: nobody, unless PORTICO_SSR_UID/GID say otherwise. */
  user?: WorkerUser;
}

const NOBODY = { uid: 65534, gid: 65534 };
interface Staged {
  dir: string;
  file: string;
}

interface WorkerUser {
  uid: number;
  gid: number;
}

/** How a given file (the worker, or the probe in its place) is started. */
type LaunchFile = (file: string, heapMb: number) => Launch;

/** Where the worker's file is inside bubblewrap. */
const INSIDE = '/portico';
const PROBE_TIMEOUT_MS = 10_000;

/** The environment every worker gets: nothing of the server's. */
const WORKER_ENV = { NODE_ENV: 'production' };

/** Node's own flags for a contained worker reading `file` alone. */
export function containedNodeOptions(file: string, heapMb: number): string[] {
  return [
    '--experimental-permission',
    `--allow-fs-read=${file}`,
    '--disable-warning=ExperimentalWarning',
    '--disallow-code-generation-from-strings',
    `--max-old-space-size=${heapMb}`,
  ];
}

function which(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(':')) {
    const candidate = path.join(dir, command);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * A copy of the worker in a folder of its own that the worker's user can
 * read (the repository may not be), and nothing else in it.
 */
function stage(workerFile: string): Staged {
  const dir = mkdtempSync(path.join(tmpdir(), 'portico-sandbox-'));
  chmodSync(dir, 0o755);
  const file = path.join(dir, path.basename(workerFile));
  copyFileSync(workerFile, file);
  chmodSync(file, 0o444);
  return { dir, file };
}

/** bubblewrap's arguments for the system's read-only folders: /usr, and /lib, /bin… as this system has them. */
function systemBinds(execPath: string): string[] {
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const top of ['/lib', '/lib64', '/lib32', '/bin', '/sbin']) {
    if (!existsSync(top)) continue;
    const stat = lstatSync(top);
    if (stat.isSymbolicLink()) args.push('--symlink', readlinkSync(top), top);
    else args.push('--ro-bind', top, top);
  }
  // A Node installed outside /usr (nvm, /opt): its binary alone.
  const node = realpathSync(execPath);
  if (!node.startsWith('/usr/')) args.push('--ro-bind', node, node);
  return args;
}

function bwrapArgs(bwrap: string, file: string, heapMb: number): string[] {
  const inside = path.posix.join(INSIDE, path.basename(file));
  return [
    '--unshare-all',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    ...systemBinds(process.execPath),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--dir',
    INSIDE,
    '--ro-bind',
    file,
    inside,
    '--chdir',
    INSIDE,
    '--',
    realpathSync(process.execPath),
    ...containedNodeOptions(inside, heapMb),
    inside,
  ];
}

function bwrapSandbox(bwrap: string, staged: Staged, user: WorkerUser | undefined): Sandbox & { launchFile: LaunchFile } {
  const launchFile: LaunchFile = (file, heapMb) => ({ file: bwrap, args: bwrapArgs(bwrap, file, heapMb), ...user, env: WORKER_ENV });
  return {
    mode: 'bwrap',
    description: `bubblewrap: no network, its own PID namespace, a read-only /usr and its own file${user ? `, as user ${user.uid}` : ''}`,
    launch: (heapMb) => launchFile(staged.file, heapMb),
    stagedFile: staged.file,
    launchFile,
    close: () => rmSync(staged.dir, { recursive: true, force: true }),
  };
}

function uidSandbox(unshare: string | undefined, staged: Staged, user: WorkerUser): Sandbox & { launchFile: LaunchFile } {
  const launchFile: LaunchFile = (file, heapMb) => {
    const node = [process.execPath, ...containedNodeOptions(file, heapMb), file];
    return unshare
      ? { file: unshare, args: ['--user', '--net', '--ipc', '--uts', '--', ...node], ...user, env: WORKER_ENV }
      : { file: node[0]!, args: node.slice(1), ...user, env: WORKER_ENV };
  };
  return {
    mode: 'uid',
    description: unshare
      ? `user ${user.uid} in a network namespace of its own (no bubblewrap)`
      : `user ${user.uid} (no bubblewrap, no network namespace: sockets are not blocked)`,
    launch: (heapMb) => launchFile(staged.file, heapMb),
    stagedFile: staged.file,
    launchFile,
    close: () => rmSync(staged.dir, { recursive: true, force: true }),
  };
}

function weakSandbox(staged: Staged): Sandbox & { launchFile: LaunchFile } {
  const launchFile: LaunchFile = (file, heapMb) => ({ file: process.execPath, args: [...containedNodeOptions(file, heapMb), file], env: WORKER_ENV });
  return {
    mode: 'weak',
    description: "Node's permission model only (PORTICO_SSR_SANDBOX=weak): files and processes are refused, sockets and signals are not",
    launch: (heapMb) => launchFile(staged.file, heapMb),
    stagedFile: staged.file,
    launchFile,
    close: () => rmSync(staged.dir, { recursive: true, force: true }),
  };
}

/** Whether a worker can start in `sandbox`: a probe script in the worker's place, started as the worker will be, must exit 0. */
function probe(sandbox: { launchFile: LaunchFile }, staged: Staged): Promise<boolean> {
  const probeFile = path.join(staged.dir, 'probe.js');
  writeFileSync(probeFile, 'process.exit(0);\n');
  chmodSync(probeFile, 0o444);
  const launch = sandbox.launchFile(probeFile, 64);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      rmSync(probeFile, { force: true });
      resolve(ok);
    };
    const child = spawn(launch.file, launch.args, { uid: launch.uid, gid: launch.gid, env: launch.env, stdio: 'ignore' });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      done(false);
    }, PROBE_TIMEOUT_MS);
    child.on('error', () => done(false));
    child.on('exit', (code) => done(code === 0));
  });
}

const FIX = 'install bubblewrap (`apt-get install bubblewrap`), or run the server as root so workers run as another user';

/**
 * The strongest sandbox that starts on this machine, as `setting` allows,
 * or why there is none: then no section's code runs on the server (fail
 * closed) and every section is rendered in the browser.
 */
export async function chooseSandbox(options: SandboxOptions): Promise<SandboxChoice> {
  const setting = (options.setting || 'auto') as SandboxSetting;
  if (!SANDBOX_SETTINGS.includes(setting)) {
    return { sandbox: undefined, problem: `PORTICO_SSR_SANDBOX must be one of ${SANDBOX_SETTINGS.join(', ')}, got "${options.setting}"` };
  }
  const isRoot = options.isRoot ?? process.getuid?.() === 0;
  const bwrap = 'bwrapPath' in options ? options.bwrapPath : which('bwrap');
  const unshare = 'unsharePath' in options ? options.unsharePath : which('unshare');
  const user = options.user ?? NOBODY;
  const staged = stage(options.workerFile);
  const refuse = (problem: string): SandboxChoice => {
    rmSync(staged.dir, { recursive: true, force: true });
    return { sandbox: undefined, problem };
  };

  if (setting === 'weak') {
    return { sandbox: weakSandbox(staged), warning: 'section code runs on the server with Node\'s permission model only (PORTICO_SSR_SANDBOX=weak): for local development, never in production' };
  }
  if (setting === 'auto' || setting === 'bwrap') {
    if (bwrap) {
      // As another user where the server is root; as root itself (still in its namespaces) where the kernel allows no user namespace to that user.
      for (const asUser of isRoot ? [user, undefined] : [undefined]) {
        const sandbox = bwrapSandbox(bwrap, staged, asUser);
        if (await probe(sandbox, staged)) return { sandbox };
      }
      if (setting === 'bwrap') return refuse(`bubblewrap (${bwrap}) could not start a worker here (user namespaces off?)`);
    } else if (setting === 'bwrap') {
      return refuse('PORTICO_SSR_SANDBOX=bwrap, but bubblewrap is not installed (`apt-get install bubblewrap`)');
    }
  }
  if (!isRoot) {
    return refuse(
      setting === 'uid'
        ? 'PORTICO_SSR_SANDBOX=uid needs the server to run as root, to start workers as another user'
        : `no sandbox for section code: ${bwrap ? 'bubblewrap could not start a worker here' : 'bubblewrap is not installed'} and the server is not root; ${FIX}`,
    );
  }
  if (unshare) {
    const sandbox = uidSandbox(unshare, staged, user);
    if (await probe(sandbox, staged)) {
      return { sandbox, warning: `section workers run as user ${user.uid} without bubblewrap; install it (\`apt-get install bubblewrap\`) for the stronger sandbox` };
    }
  }
  const sandbox = uidSandbox(undefined, staged, user);
  if (await probe(sandbox, staged)) {
    return { sandbox, warning: `section workers run as user ${user.uid} without a network namespace: they can open sockets; install bubblewrap` };
  }
  return refuse(`workers could not be started as user ${user.uid}; ${FIX}`);
}
