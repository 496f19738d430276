import { chmodSync, copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ClaimedUser, WorkerUsers } from './worker-users';

// How each sandbox mode starts a worker (sandbox.ts chooses among them):
// the staged copy of the worker's file, bubblewrap's arguments, the uid
// mode's namespaces made as root, and the weak mode's flags alone.

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
type SandboxMode = 'bwrap' | 'uid' | 'weak';

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

export interface Staged {
  dir: string;
  file: string;
  /** An empty folder: the root a uid-mode worker's mount namespace builds on it. */
  root: string;
}

/** How a given file (the worker, or the probe in its place) is started, as `user` (none: as this process's). */
export type LaunchFile = (file: string, heapMb: number, user: ClaimedUser | undefined) => Launch;

/** Where the worker's file is inside bubblewrap. */
const INSIDE = '/portico';

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

export function which(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(':')) {
    const candidate = path.join(dir, command);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Every staged folder not yet removed: removed as the process exits, however it exits (SIGTERM while starting, the stop's time-out). */
const stagedDirs = new Set<string>();
let removedAtExit = false;

export function unstage(dir: string): void {
  stagedDirs.delete(dir);
  rmSync(dir, { recursive: true, force: true });
}

/**
 * A copy of the worker in a folder of its own that the worker's user can
 * read (the repository may not be), and nothing else in it.
 */
export function stage(workerFile: string): Staged {
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

export function bwrapSandbox(bwrap: string, staged: Staged, users: WorkerUsers | undefined): Sandbox & { launchFile: LaunchFile } {
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
export interface NamespaceTools {
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

export function uidSandbox(tools: NamespaceTools | undefined, staged: Staged, users: WorkerUsers): Sandbox & { launchFile: LaunchFile } {
  const node = realpathSync(process.execPath);
  const launchFile: LaunchFile = (file, heapMb, user) => {
    if (!tools) return asUser({ file: node, args: [...containedNodeOptions(file, heapMb), file], env: WORKER_ENV }, user);
    if (!user) throw new Error('a uid-mode worker needs a user of its own');
    const inside = path.posix.join(INSIDE, path.basename(file));
    // Started as root, which the namespaces need; the script drops to the worker's user. setpriv first: the whole tree dies with this server.
    const namespaces = [tools.unshare, '--mount', '--propagation', 'private', '--pid', '--fork', '--kill-child', '--net', '--ipc', '--uts'];
    const script = [tools.sh, '-c', NAMESPACE_ROOT_SCRIPT, 'portico-worker', staged.root, node, file, inside, String(user.uid), String(user.gid)];
    return {
      file: tools.setpriv,
      args: ['--pdeathsig', 'KILL', '--', ...namespaces, '--', ...script, ...containedNodeOptions(inside, heapMb), inside],
      env: WORKER_ENV,
      release: user.release,
    };
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

export function weakSandbox(staged: Staged): Sandbox & { launchFile: LaunchFile } {
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
