import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from '@playwright/test';
import { APP_DIRS, APP_NAMES, type AppName } from '@portico/contract/sections';
import { eventually } from '@portico/testing/eventually';
import { REPO_ROOT } from './paths';

/**
 * The one label the second build of remote-contact changes, in its own text
 * packs only: the message field's, old and new, per language.
 */
export const SECOND_BUILD_LABEL = {
  en: { before: 'Message', after: 'Message or question' },
  id: { before: 'Pesan', after: 'Pesan atau pertanyaan' },
} as const;

/** Visible only in the second build of remote-contact. */
export const SECOND_BUILD_TEXT = SECOND_BUILD_LABEL.en.after;

/** Where global-setup put the second build (a copy of the repository, SECOND_BUILD_APPS built in it). */
export const SECOND_BUILD_ENV = 'PORTICO_SECOND_BUILD';

/** Set by global-setup while the copy's builds still run beside the first specs: secondBuildRoot waits for them. */
export const SECOND_BUILD_PENDING_ENV = 'PORTICO_SECOND_BUILD_PENDING';

/** Written in the copy when its builds have ended: `ok`, or why they failed. */
const BUILD_OUTCOME_FILE = '.second-build-outcome';

/** However long the builds may take on a busy machine: a bound, not a speed claim. */
const SECOND_BUILD_WITHIN_MS = 300_000;

/** The copy with SECOND_BUILD_APPS built in it, once its builds have ended. */
export async function secondBuildRoot(): Promise<string> {
  const root = process.env[SECOND_BUILD_ENV];
  if (root && process.env[SECOND_BUILD_PENDING_ENV]) await builtIn(root);
  if (!root || !existsSync(path.join(root, APP_DIRS.contact, 'dist', 'mf-manifest.json'))) {
    throw new Error(`${SECOND_BUILD_ENV} names no built copy; run the browser tests through playwright.config.ts`);
  }
  return root;
}

async function builtIn(root: string): Promise<void> {
  const outcomeFile = path.join(root, BUILD_OUTCOME_FILE);
  if (!existsSync(outcomeFile)) {
    // The wait is the build's, not the test's: the test's own time limit is moved by what it waited.
    const info = test.info();
    const limit = info.timeout;
    const started = Date.now();
    info.setTimeout(limit + SECOND_BUILD_WITHIN_MS);
    await eventually(() => existsSync(outcomeFile), { what: 'the second build', withinMs: SECOND_BUILD_WITHIN_MS, everyMs: 200 });
    info.setTimeout(limit + (Date.now() - started));
  }
  const outcome = readFileSync(outcomeFile, 'utf8');
  if (outcome !== 'ok') throw new Error(outcome);
}

/** Folders that hold builds, installs or test output, never sources. */
const NOT_SOURCE = new Set(['node_modules', 'dist', '.tsbuild', 'test-results', 'coverage', '.git']);

/** Every file under `dir` outside those folders, relative to REPO_ROOT. */
function walk(dir: string): string[] {
  return readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    if (NOT_SOURCE.has(entry.name)) return [];
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(file) : entry.isFile() ? [file] : [];
  });
}

/** The source files of the working tree: tracked ones and new ones not ignored (or, without git, a walk). */
function sourceFiles(): string[] {
  let listed: string;
  try {
    listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT }).toString();
  } catch {
    return walk('.');
  }
  return listed.split('\0').filter((file) => file !== '' && existsSync(path.join(REPO_ROOT, file)));
}

/**
 * A copy of the repository's sources in a temporary folder. node_modules is
 * hard-linked (fast, no space), not symlinked: a symlink would resolve to the
 * real repository and give webpack other module paths than a checkout has.
 */
export function copyRepository(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'portico-copy-'));
  for (const file of sourceFiles()) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    cpSync(path.join(REPO_ROOT, file), path.join(root, file));
  }
  try {
    execFileSync('cp', ['-al', path.join(REPO_ROOT, 'node_modules'), path.join(root, 'node_modules')]);
  } catch {
    // Another file system: hard links are impossible, a real copy still works.
    cpSync(path.join(REPO_ROOT, 'node_modules'), path.join(root, 'node_modules'), { recursive: true, verbatimSymlinks: true });
  }
  return root;
}

/**
 * A text change by the Contact team alone: one label, in both languages, in
 * remote-contact's own text packs. Nothing else in the copy changes.
 */
export function changeContactText(root: string): void {
  for (const language of ['en', 'id'] as const) {
    const pack = path.join(root, APP_DIRS.contact, 'src/i18n', `${language}.ts`);
    const { before, after } = SECOND_BUILD_LABEL[language];
    const source = readFileSync(pack, 'utf8');
    const label = `  message: '${before}',\n`;
    if (!source.includes(label)) throw new Error(`${pack} has no line "${label.trim()}" to change; update SECOND_BUILD_LABEL`);
    writeFileSync(pack, source.replace(label, `  message: '${after}',\n`));
  }
}

function buildApp(root: string, app: AppName): { child: ChildProcess; done: Promise<void> } {
  const cli = path.join(root, 'node_modules/webpack-cli/bin/cli.js');
  const child = spawn(process.execPath, [cli, 'build', '--mode', 'production'], {
    cwd: path.join(root, APP_DIRS[app]),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const done = new Promise<void>((resolve, reject) => {
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`building ${app} in ${root} failed:\n${errors}`))));
  });
  return { child, done };
}

/**
 * What the browser tests build a second time, in the copy: Contact, whose
 * text changed (a team's second real build), and Home, unchanged, the witness
 * that a build of the same sources in another folder is byte for byte the
 * same. `npm test` has just built all four in the repository; the host and
 * About are not built again (the host is the longest build of all).
 */
export const SECOND_BUILD_APPS = ['contact', 'home'] as const satisfies readonly AppName[];

/**
 * Starts the production builds of SECOND_BUILD_APPS in `root`, side by side
 * (the machines have two cores); `done` settles when both have ended, their
 * outcome written in the copy for secondBuildRoot: `built`, `stopped` (by
 * `stop`, which ends any still running), or rejected with the failure.
 */
export function startSecondBuild(root: string): { done: Promise<'built' | 'stopped'>; stop: () => void } {
  const builds = SECOND_BUILD_APPS.map((app) => buildApp(root, app));
  const outcome = path.join(root, BUILD_OUTCOME_FILE);
  let stopped = false;
  const done = Promise.all(builds.map((build) => build.done)).then(
    () => {
      writeFileSync(outcome, 'ok');
      return 'built' as const;
    },
    (error: Error) => {
      // Stopped by the run's end (no spec needed it): the copy is being removed, and nothing failed.
      if (stopped) return 'stopped' as const;
      writeFileSync(outcome, error.message);
      throw error;
    },
  );
  const stop = () => {
    stopped = true;
    for (const build of builds) if (build.child.exitCode === null) build.child.kill();
  };
  return { done, stop };
}

/**
 * A repository layout holding copies of the given dist/ folders, for a test
 * that replaces or alters files while a server serves them: the real dist/
 * folders are never touched.
 */
export function copyDists(from: string = REPO_ROOT): string {
  const root = mkdtempSync(path.join(tmpdir(), 'portico-dists-'));
  for (const app of APP_NAMES) {
    cpSync(path.join(from, APP_DIRS[app], 'dist'), path.join(root, APP_DIRS[app], 'dist'), { recursive: true });
  }
  return root;
}

/** A remote's files that name all the others, so they are replaced last. */
const ENTRY_FILES = /^(mf-manifest\.json|remoteEntry\.js)/;

/**
 * Deploys `app`'s build from `fromRoot` over the one in `root` the way
 * docs/deploy.md says: the new hashed files first (old ones may stay), then
 * remoteEntry.js and mf-manifest.json, so no visitor is sent to a file that
 * is not there yet.
 */
export function redeploy(root: string, app: AppName, fromRoot: string): void {
  const from = path.join(fromRoot, APP_DIRS[app], 'dist');
  const to = path.join(root, APP_DIRS[app], 'dist');
  const files = readdirSync(from);
  for (const file of [...files.filter((name) => !ENTRY_FILES.test(name)), ...files.filter((name) => ENTRY_FILES.test(name))]) {
    cpSync(path.join(from, file), path.join(to, file), { recursive: true });
  }
}
