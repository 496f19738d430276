import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_PORT } from '@portico/contract/sections';
import { WorkerUsers, workerUsers, type ClaimedUser } from './worker-users';

export { workerUsers } from './worker-users';

/**
 * How a section worker is contained (docs/decisions.md, "Threat model:
 * section code may render its section's HTML, nothing else"):
 * - `bwrap`: bubblewrap, with no network, its own PID, IPC and UTS
 *   namespaces, no capabilities, a file system of the system's read-only
 *   `/usr` and the worker's own file, as an unprivileged user when the
 *   server runs as root;
 * - `uid`: no bubblewrap, but the server runs as root: the worker runs as
 *   a user of its own (one per worker, from the server's range: the kernel
 *   refuses it every other process's `/proc`, signals and files), in mount,
 *   PID, network, IPC and UTS namespaces of its own made by util-linux's
 *   `unshare` (a file system of the read-only `/usr` and its own file) where
 *   the kernel allows them; where it does not, as that user alone, which
 *   leaves sockets open (never chosen by `auto` where bubblewrap is
 *   installed);
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
  /** Once its process has ended: gives its user back to the range. */
  release?: () => void;
}

export interface Sandbox {
  mode: SandboxMode;
  /** For the log: what the worker can and cannot reach. */
  description: string;
  /** The command that starts the staged worker in this sandbox, with that heap limit, as a user of its own (throws when the range has none free). */
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
  /**
   * For tests: where bubblewrap and util-linux's unshare are (undefined:
   * not installed; without unshare the uid mode has no namespaces), and
   * whether this process may start workers as another user.
   */
  bwrapPath?: string;
  unsharePath?: string;
  isRoot?: boolean;
  /** The users workers run as when the server is root, one each: PORTICO_SSR_UIDS, or the port's own range. */
  users?: WorkerUsers;
}

interface Staged {
  dir: string;
  file: string;
  /** An empty folder: the root a uid-mode worker's mount namespace builds on it. */
  root: string;
}

/** How a given file (the worker, or the probe in its place) is started, as `user` (none: as this process's). */
type LaunchFile = (file: string, heapMb: number, user: ClaimedUser | undefined) => Launch;

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

/** Every staged folder not yet removed: removed as the process exits, however it exits (SIGTERM while starting, the stop's time-out). */
const stagedDirs = new Set<string>();
let removedAtExit = false;

function unstage(dir: string): void {
  stagedDirs.delete(dir);
  rmSync(dir, { recursive: true, force: true });
}

/**
 * A copy of the worker in a folder of its own that the worker's user can
 * read (the repository may not be), and nothing else in it.
 */
function stage(workerFile: string): Staged {
  if (!removedAtExit) {
    removedAtExit = true;
    process.on('exit', () => {
      for (const dir of [...stagedDirs]) unstage(dir);
    });
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'portico-sandbox-'));
  stagedDirs.add(dir);
  chmodSync(dir, 0o755);
  const file = path.join(dir, path.basename(workerFile));
  copyFileSync(workerFile, file);
  chmodSync(file, 0o444);
  const root = path.join(dir, 'root');
  mkdirSync(root, { mode: 0o755 });
  return { dir, file, root };
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

/** `launch` as `user`, which goes back to the range once the process has ended; as this process's user without one. */
function asUser(launch: Omit<Launch, 'uid' | 'gid' | 'release'>, user: ClaimedUser | undefined): Launch {
  return user ? { ...launch, uid: user.uid, gid: user.gid, release: user.release } : launch;
}

function bwrapSandbox(bwrap: string, staged: Staged, users: WorkerUsers | undefined): Sandbox & { launchFile: LaunchFile } {
  const launchFile: LaunchFile = (file, heapMb, user) => asUser({ file: bwrap, args: bwrapArgs(bwrap, file, heapMb), env: WORKER_ENV }, user);
  return {
    mode: 'bwrap',
    description: `bubblewrap: no network, its own PID namespace, a read-only /usr and its own file${users ? `, each worker as a user of its own (${users.description})` : ''}`,
    launch: (heapMb) => launchFile(staged.file, heapMb, users?.claim()),
    stagedFile: staged.file,
    launchFile,
    close: () => unstage(staged.dir),
  };
}

/** util-linux's tools the uid mode's namespaces are made with, as root, without bubblewrap or user namespaces. */
interface NamespaceTools {
  unshare: string;
  setpriv: string;
  sh: string;
}

/**
 * Run as root by `unshare` in the worker's new mount, PID, network, IPC
 * and UTS namespaces (mounts private to it): builds a root of the system's
 * read-only /usr (and /lib, /bin… as this system has them), a /proc of its
 * PID namespace, four devices and the worker's file read-only at /portico/,
 * on a read-only tmpfs, then enters it as the worker's user, with no
 * capability and no way to gain one, dying with its parent. Every value
 * comes in as an argument, never in the script's text. The umask is set
 * here: under a server started with 077 (a CI runner's, a hardened
 * shell's) the folders it makes would be closed to the worker's user.
 */
const NAMESPACE_ROOT_SCRIPT = `set -eu
PATH=/usr/sbin:/usr/bin:/sbin:/bin
umask 022
root=$1 node=$2 file=$3 inside=$4 uid=$5 gid=$6
shift 6
read_only() { mount --bind "$1" "$2"; mount -o remount,bind,ro,nosuid,nodev "$2"; }
mount -t tmpfs -o mode=0755,size=64k,nosuid,nodev portico-worker "$root"
for dir in /usr /lib /lib64 /lib32 /bin /sbin; do
  if [ -L "$dir" ]; then ln -s "$(readlink "$dir")" "$root$dir"
  elif [ -d "$dir" ]; then mkdir "$root$dir"; read_only "$dir" "$root$dir"; fi
done
case "$node" in
  /usr/*) ;;
  *) mkdir -p "$root$(dirname "$node")"; touch "$root$node"; read_only "$node" "$root$node" ;;
esac
mkdir "$root/proc" "$root/dev" "$root$(dirname "$inside")"
mount -t proc -o nosuid,nodev,noexec proc "$root/proc"
for device in null zero random urandom; do touch "$root/dev/$device"; mount --bind "/dev/$device" "$root/dev/$device"; done
touch "$root$inside"
read_only "$file" "$root$inside"
mount -o remount,ro,nosuid,nodev "$root"
exec chroot "$root" /usr/bin/setpriv --reuid="$uid" --regid="$gid" --clear-groups --inh-caps=-all --bounding-set=-all --no-new-privs --pdeathsig KILL -- "$node" "$@"
`;

function uidSandbox(tools: NamespaceTools | undefined, staged: Staged, users: WorkerUsers): Sandbox & { launchFile: LaunchFile } {
  const node = realpathSync(process.execPath);
  const launchFile: LaunchFile = (file, heapMb, user) => {
    if (!tools) return asUser({ file: node, args: [...containedNodeOptions(file, heapMb), file], env: WORKER_ENV }, user);
    if (!user) throw new Error('a uid-mode worker needs a user of its own');
    const inside = path.posix.join(INSIDE, path.basename(file));
    // Started as root, which the namespaces need; the script drops to the worker's user. setpriv first: the whole tree dies with this server.
    const namespaces = [tools.unshare, '--mount', '--propagation', 'private', '--pid', '--fork', '--kill-child', '--net', '--ipc', '--uts'];
    const script = [tools.sh, '-c', NAMESPACE_ROOT_SCRIPT, 'portico-worker', staged.root, node, file, inside, String(user.uid), String(user.gid)];
    return { file: tools.setpriv, args: ['--pdeathsig', 'KILL', '--', ...namespaces, '--', ...script, ...containedNodeOptions(inside, heapMb), inside], env: WORKER_ENV, release: user.release };
  };
  return {
    mode: 'uid',
    description: tools
      ? `each worker as a user of its own (${users.description}) in mount, PID and network namespaces of its own: a read-only /usr and its own file (no bubblewrap)`
      : `each worker as a user of its own (${users.description}), with no namespace: it can open sockets and see other processes (no bubblewrap)`,
    launch: (heapMb) => {
      const user = users.claim();
      try {
        return launchFile(staged.file, heapMb, user);
      } catch (error) {
        user.release();
        throw error;
      }
    },
    stagedFile: staged.file,
    launchFile,
    close: () => unstage(staged.dir),
  };
}

function weakSandbox(staged: Staged): Sandbox & { launchFile: LaunchFile } {
  const launchFile: LaunchFile = (file, heapMb) => ({ file: process.execPath, args: [...containedNodeOptions(file, heapMb), file], env: WORKER_ENV });
  return {
    mode: 'weak',
    description: "Node's permission model only (PORTICO_SSR_SANDBOX=weak): files and processes are refused, sockets and signals are not",
    launch: (heapMb) => launchFile(staged.file, heapMb, undefined),
    stagedFile: staged.file,
    launchFile,
    close: () => unstage(staged.dir),
  };
}

/**
 * Whether a worker can start in `sandbox`: a probe script in the worker's
 * place, started as the worker will be, must exit 0. Undefined when it
 * did, else why not (its exit and the end of what it wrote), for the
 * operator's message.
 */
function probe(sandbox: { launchFile: LaunchFile }, staged: Staged, users: WorkerUsers | undefined): Promise<string | undefined> {
  const probeFile = path.join(staged.dir, 'probe.js');
  writeFileSync(probeFile, 'process.exit(0);\n');
  chmodSync(probeFile, 0o444);
  let launch: Launch;
  try {
    launch = sandbox.launchFile(probeFile, 64, users?.claim());
  } catch (error) {
    return Promise.resolve(error instanceof Error ? error.message : String(error));
  }
  return new Promise((resolve) => {
    let written = '';
    const done = (problem: string | undefined) => {
      clearTimeout(timer);
      rmSync(probeFile, { force: true });
      launch.release?.();
      // The line that names the error (Node ends with its version, sh and mount with theirs), else the last.
      const lines = written.split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('Node.js v'));
      const said = (lines.find((line) => /error|denied|not permitted|cannot|failed|no such/i.test(line)) ?? lines.at(-1) ?? '').slice(0, 300);
      resolve(problem && (said ? `${problem}: ${said}` : problem));
    };
    const child = spawn(launch.file, launch.args, { uid: launch.uid, gid: launch.gid, env: launch.env, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      written = (written + chunk).slice(-4_000);
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      done(`no answer in ${PROBE_TIMEOUT_MS / 1000} s`);
    }, PROBE_TIMEOUT_MS);
    child.on('error', (error) => done(error.message));
    child.on('close', (code, signal) => done(code === 0 ? undefined : `exit ${code ?? signal}`));
  });
}

const FIX = 'install bubblewrap (`apt-get install bubblewrap`), or run the server as root so workers run as users of their own';

/**
 * The strongest sandbox that starts on this machine, as `setting` allows,
 * or why there is none: then no section's code runs on the server (fail
 * closed) and every section is rendered in the browser. `auto` takes
 * bubblewrap, else (as root) the uid mode with its namespaces; the uid mode
 * without namespaces, which leaves sockets open, only where bubblewrap is
 * not installed at all (or when `uid` is asked for).
 */
export async function chooseSandbox(options: SandboxOptions): Promise<SandboxChoice> {
  const setting = (options.setting || 'auto') as SandboxSetting;
  if (!SANDBOX_SETTINGS.includes(setting)) {
    return { sandbox: undefined, problem: `PORTICO_SSR_SANDBOX must be one of ${SANDBOX_SETTINGS.join(', ')}, got "${options.setting}"` };
  }
  const isRoot = options.isRoot ?? process.getuid?.() === 0;
  const bwrap = 'bwrapPath' in options ? options.bwrapPath : which('bwrap');
  const unshare = 'unsharePath' in options ? options.unsharePath : which('unshare');
  const setpriv = which('setpriv');
  const sh = which('sh');
  const tools = unshare && setpriv && sh ? { unshare, setpriv, sh } : undefined;
  // A server given none (tests, the benchmark): the default port's range.
  const users = options.users ?? workerUsers(undefined, DEFAULT_PORT);
  const staged = stage(options.workerFile);
  const refuse = (problem: string): SandboxChoice => {
    unstage(staged.dir);
    return { sandbox: undefined, problem };
  };

  if (setting === 'weak') {
    return { sandbox: weakSandbox(staged), warning: 'section code runs on the server with Node\'s permission model only (PORTICO_SSR_SANDBOX=weak): for local development, never in production' };
  }
  const usersProblem = isRoot ? users.problem() : undefined;
  if (usersProblem) return refuse(usersProblem);
  // Why each way tried did not start, for the operator's message.
  let bwrapProblem: string | undefined;
  let namespaceProblem = 'util-linux\'s unshare, setpriv or sh is missing';
  if (setting === 'auto' || setting === 'bwrap') {
    if (bwrap) {
      // As users of its own where the server is root; as root itself (still in its namespaces) where the kernel allows no user namespace to them.
      for (const asUsers of isRoot ? [users, undefined] : [undefined]) {
        const sandbox = bwrapSandbox(bwrap, staged, asUsers);
        bwrapProblem = await probe(sandbox, staged, asUsers);
        if (!bwrapProblem) return { sandbox };
      }
      if (setting === 'bwrap') return refuse(`bubblewrap (${bwrap}) could not start a worker here (user namespaces off?): ${bwrapProblem}`);
    } else if (setting === 'bwrap') {
      return refuse('PORTICO_SSR_SANDBOX=bwrap, but bubblewrap is not installed (`apt-get install bubblewrap`)');
    }
  }
  if (!isRoot) {
    return refuse(
      setting === 'uid'
        ? 'PORTICO_SSR_SANDBOX=uid needs the server to run as root, to start workers as users of their own'
        : `no sandbox for section code: ${bwrap ? `bubblewrap could not start a worker here (${bwrapProblem})` : 'bubblewrap is not installed'} and the server is not root; ${FIX}`,
    );
  }
  if (tools) {
    const sandbox = uidSandbox(tools, staged, users);
    const problem = await probe(sandbox, staged, users);
    if (!problem) {
      return { sandbox, warning: `bubblewrap is not installed or does not start here: section workers run in namespaces made by unshare instead (\`apt-get install bubblewrap\` for bubblewrap)` };
    }
    namespaceProblem = problem;
  }
  // Without namespaces a worker can reach every Unix socket the file system lets any user reach: never where bubblewrap is there to be fixed.
  if (setting === 'auto' && bwrap) {
    return refuse(
      `bubblewrap (${bwrap}) could not start a worker here (${bwrapProblem ?? 'not tried'}), nor could unshare make a worker's namespaces (${namespaceProblem}); the uid mode without them leaves sockets open, so it is used only when asked for (PORTICO_SSR_SANDBOX=uid)`,
    );
  }
  const sandbox = uidSandbox(undefined, staged, users);
  const problem = await probe(sandbox, staged, users);
  if (!problem) {
    return {
      sandbox,
      warning: `section workers run as users of their own (${users.description}) without any namespace (${namespaceProblem}): they can open sockets (the network, Unix sockets in the file system) and see other processes; install bubblewrap`,
    };
  }
  return refuse(`workers could not be started as users of their own (${users.description}): ${problem}; ${FIX}`);
}
