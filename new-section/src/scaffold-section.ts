import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isBuiltInSection, sectionIdProblem } from '@portico/contract/section-entries';
import { remoteNameOf } from '@portico/contract/sections';
import { templateFiles } from './template-files';
import { npmLink, readRootFiles, registerWorkspace, restoreRootFiles, workspacesOf, type Linker } from './workspace-registry';

export interface ScaffoldOptions {
  /** The repository's root: the folder of the package.json that lists the workspaces. */
  root: string;
  id: string;
  /** An island that hydrates when used; otherwise static, shipping no script. */
  interactive: boolean;
  /** How the workspace is linked (npm's offline install unless a test says otherwise). */
  link?: Linker;
}

export interface Scaffolded {
  /** The new remote's folder, relative to the root: `remote-<id>`. */
  folder: string;
  packageName: string;
  /** Its federation name: `portico_<id>`, `-` as `_`. */
  remoteName: string;
}

/** A reason the section cannot be scaffolded: its id, or a folder or workspace already there. */
export class ScaffoldError extends Error {
  override name = 'ScaffoldError';
}

/** Why `id` cannot be scaffolded in `root`, or undefined (whether the control plane has the id is the integrator's to see at `section add`). */
async function scaffoldProblem(root: string, id: string): Promise<string | undefined> {
  const idProblem = sectionIdProblem(id);
  if (idProblem !== undefined) return idProblem;
  if (isBuiltInSection(id)) return `"${id}" is a built-in section; its remote is remote-${id}/`;
  const folder = `remote-${id}`;
  if (existsSync(path.join(root, folder))) return `${folder}/ already exists`;
  const packageJson = await readFile(path.join(root, 'package.json'), 'utf8').catch(() => undefined);
  if (packageJson === undefined) return `${root} has no package.json: run this from the repository's root`;
  const taken = workspacesOf(packageJson).find((workspace) => path.basename(workspace) === folder);
  if (taken !== undefined) return `the workspace ${taken} is already @portico/${folder}`;
  return undefined;
}

/** The new workspace's package.json: the built-in remotes' scripts and dependencies. */
function packageJsonOf(id: string): string {
  const pkg = {
    name: `@portico/remote-${id}`,
    version: '1.0.0',
    private: true,
    scripts: {
      build: 'webpack build --mode production',
      dev: 'webpack serve --mode development',
      test: 'jest',
      lint: 'eslint --max-warnings 0 .',
      typecheck: 'tsc -b',
    },
    dependencies: {
      '@portico/contract': '^1.0.0',
      '@portico/shared-config': '^1.0.0',
      react: '^19.2.0',
      'react-dom': '^19.2.0',
    },
    devDependencies: {
      '@portico/testing': '^1.0.0',
      '@portico/webpack': '^1.0.0',
    },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

/**
 * Creates `remote-<id>/` from the template, registers it as a workspace and
 * links it, with no network. All or nothing: on any failure the folder is
 * removed and the root's files are put back as they were.
 */
export async function scaffoldSection({ root, id, interactive, link = npmLink }: ScaffoldOptions): Promise<Scaffolded> {
  const problem = await scaffoldProblem(root, id);
  if (problem !== undefined) throw new ScaffoldError(problem);
  const folder = `remote-${id}`;
  const target = path.join(root, folder);
  const files = await templateFiles(id, interactive);
  const before = await readRootFiles(root);
  try {
    for (const file of files) {
      await mkdir(path.dirname(path.join(target, file.path)), { recursive: true });
      await writeFile(path.join(target, file.path), file.content);
    }
    await writeFile(path.join(target, 'package.json'), packageJsonOf(id));
    await registerWorkspace(root, folder, before);
    await link(root);
  } catch (error) {
    await rm(target, { recursive: true, force: true });
    await restoreRootFiles(root, before);
    throw error;
  }
  return { folder, packageName: `@portico/${folder}`, remoteName: remoteNameOf(id) };
}
