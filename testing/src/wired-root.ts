import { copyFile, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** The root files a new workspace is registered in: copied, so the repository's stay as they are. */
const COPIED = new Set(['package.json', 'package-lock.json', 'tsconfig.json']);

export interface WiredRoot {
  /** The temporary root: run `npm run section:new` and `npm run build -w` here. */
  root: string;
  /** Removes it (the links only: never what they point at). */
  remove(): Promise<void>;
}

/**
 * A temporary root wired to the repository at `repoRoot`, for a test that
 * scaffolds a section and builds it without changing the repository: its
 * package.json, package-lock.json and tsconfig.json copied, every other
 * entry (the workspaces, node_modules) a symlink to the repository's. Dot
 * files and the built-in remotes are left out: nothing the scaffold or a
 * section's build reads. A scaffold here must not link (`--no-link`): npm's
 * install would write through the node_modules symlink into the repository;
 * webpack finds the new remote's dependencies through it as it would there.
 */
export async function wiredRoot(repoRoot: string): Promise<WiredRoot> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'portico-wired-root-'));
  for (const entry of await readdir(repoRoot)) {
    if (entry.startsWith('.') || entry.startsWith('remote-')) continue;
    if (COPIED.has(entry)) await copyFile(path.join(repoRoot, entry), path.join(root, entry));
    else await symlink(path.join(repoRoot, entry), path.join(root, entry));
  }
  return { root, remove: () => rm(root, { recursive: true, force: true }) };
}
