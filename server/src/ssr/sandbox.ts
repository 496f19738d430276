import { spawn } from 'node:child_process';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_PORT } from '@portico/contract/sections';
import { bwrapSandbox, stage, uidSandbox, unstage, weakSandbox, which, type Launch, type LaunchFile, type Sandbox, type Staged } from './sandbox-modes';
import { workerUsers, type WorkerUsers } from './worker-users';

export { containedNodeOptions, type Launch, type Sandbox } from './sandbox-modes';
export { workerUsers } from './worker-users';

/** `PORTICO_SSR_SANDBOX`: `auto` (the default) takes the strongest that starts; a named mode only that one. */
const SANDBOX_SETTINGS = ['auto', 'bwrap', 'uid', 'weak'] as const;
type SandboxSetting = (typeof SANDBOX_SETTINGS)[number];

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
      const lines = written
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line && !line.startsWith('Node.js v'));
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

const PROBE_TIMEOUT_MS = 10_000;
/** The pause before the uid mode's namespaces are probed again after a failure. */
const PROBE_AGAIN_MS = 500;

/**
 * The uid mode's namespaces probed, and once more after a pause when they
 * did not start: the choice holds for the server's life, and a start that
 * failed once on a busy machine (unshare's mount exiting 32, seen under a
 * full test run and not alone) must not leave every section to the browser
 * until a restart. Both problems are said when both failed.
 */
async function probeNamespaces(sandbox: { launchFile: LaunchFile }, staged: Staged, users: WorkerUsers): Promise<string | undefined> {
  const first = await probe(sandbox, staged, users);
  if (first === undefined) return undefined;
  await sleep(PROBE_AGAIN_MS);
  const again = await probe(sandbox, staged, users);
  return again === undefined ? undefined : again === first ? `${again}, twice` : `${again} (the first time: ${first})`;
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
    return {
      sandbox: weakSandbox(staged),
      warning: "section code runs on the server with Node's permission model only (PORTICO_SSR_SANDBOX=weak): for local development, never in production",
    };
  }
  const usersProblem = isRoot ? users.problem() : undefined;
  if (usersProblem) return refuse(usersProblem);
  // Why each way tried did not start, for the operator's message.
  let bwrapProblem: string | undefined;
  let namespaceProblem = "util-linux's unshare, setpriv or sh is missing";
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
    const problem = await probeNamespaces(sandbox, staged, users);
    if (!problem) {
      return {
        sandbox,
        warning: `bubblewrap is not installed or does not start here: section workers run in namespaces made by unshare instead (\`apt-get install bubblewrap\` for bubblewrap)`,
      };
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
