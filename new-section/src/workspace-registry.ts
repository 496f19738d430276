import { execFile } from 'node:child_process';
import { copyFile, lstat, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

/** The root files a new workspace is registered in, kept as they were so a failed scaffold puts them back. */
const ROOT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json'] as const;

export type RootFiles = Partial<Record<(typeof ROOT_FILES)[number], string>>;

export async function readRootFiles(root: string): Promise<RootFiles> {
  const files: RootFiles = {};
  for (const name of ROOT_FILES) files[name] = await readFile(path.join(root, name), 'utf8').catch(() => undefined);
  return files;
}

export async function restoreRootFiles(root: string, files: RootFiles): Promise<void> {
  for (const name of ROOT_FILES) {
    const content = files[name];
    if (content !== undefined) await writeFile(path.join(root, name), content);
  }
}

/** The root's workspaces (folders relative to it), as its package.json lists them. */
export function workspacesOf(packageJson: string): string[] {
  const workspaces = (JSON.parse(packageJson) as { workspaces?: unknown }).workspaces;
  return Array.isArray(workspaces) ? workspaces.filter((one): one is string => typeof one === 'string') : [];
}

const isRemote = (workspace: string) => /(^|\/)remote-[a-z0-9-]+$/.test(workspace);

/** `list` with `item` after its last remote, so the sections' workspaces stay together; at the end when there is none. */
function afterLastRemote<T>(list: readonly T[], item: T, remote: (one: T) => boolean): T[] {
  const last = list.findLastIndex(remote);
  const at = last === -1 ? list.length : last + 1;
  return [...list.slice(0, at), item, ...list.slice(at)];
}

/**
 * Registers `folder` as a workspace of the root (package.json) and as a
 * project of its `tsc -b` (tsconfig.json), each as npm and a maintainer would
 * write it: package.json as npm formats it, tsconfig.json's references one a
 * line. ESLint's boundaries and jest's projects follow the workspaces.
 */
export async function registerWorkspace(root: string, folder: string, files: RootFiles): Promise<void> {
  const pkg = JSON.parse(files['package.json']!) as { workspaces: string[] };
  pkg.workspaces = afterLastRemote(pkg.workspaces, folder, isRemote);
  await writeFile(path.join(root, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);

  const tsconfig = files['tsconfig.json'];
  if (tsconfig === undefined) return;
  const lines = tsconfig.split('\n');
  const reference = (line: string) => /^\s*\{ "path": "\.\/[^"]+" \},?$/.test(line);
  const remoteReference = (line: string) => reference(line) && isRemote(/"\.\/([^"]+)"/.exec(line)![1]!);
  const anyRemote = lines.some(remoteReference);
  const updated = afterLastRemote(lines, `    { "path": "./${folder}" },`, anyRemote ? remoteReference : reference);
  await writeFile(path.join(root, 'tsconfig.json'), updated.join('\n'));
}

/** Links a new workspace into node_modules and package-lock.json. */
export type Linker = (root: string) => Promise<void>;

const run = promisify(execFile);

/**
 * npm rewrites `node_modules/.package-lock.json` in place (same inode): in a
 * copy of the repository whose node_modules is hard-linked to another's (as
 * the browser tests' copies are), the install would write the other's too.
 * A file of its own first, when it shares its inode.
 */
export async function unshareHiddenLockfile(root: string): Promise<void> {
  const hidden = path.join(root, 'node_modules/.package-lock.json');
  const stat = await lstat(hidden).catch(() => undefined);
  if (!stat?.isFile() || stat.nlink < 2) return;
  await copyFile(hidden, `${hidden}.unshared`);
  await rename(`${hidden}.unshared`, hidden);
}

/**
 * npm's own install, from what is already installed: `--offline` so it asks
 * no registry (every dependency of a section's workspace is one the root
 * already has), `--ignore-scripts` so no package's script runs. It adds the
 * workspace's link to node_modules/@portico/ and its two entries to
 * package-lock.json, which `npm ci` then accepts (docs/decisions/new-sections.md).
 */
export const npmLink: Linker = async (root) => {
  await unshareHiddenLockfile(root);
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: root });
};
