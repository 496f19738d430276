import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { linesLogger } from '@portico/platform/testing';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { APP_DIRS, APP_NAMES } from '@portico/contract/sections';
import { startPortico } from '../portico-server';

// The page server in a process of its own, for open-files.test.ts, which
// starts it under a low open-file limit (prlimit): a built site of small
// files and one of 4 MB at the path given as its argument (whose answers,
// unread, hold their file open), on 127.0.0.1, every cap at its default. It
// prints `PORT <n>` and the log, and stops on SIGTERM.

const bigFile = process.argv[2] ?? '/big.0123456789.js';

async function main(): Promise<void> {
  const root = mkdtempSync(path.join(tmpdir(), 'portico-open-files-'));
  for (const app of APP_NAMES) {
    const dist = path.join(root, APP_DIRS[app], 'dist');
    mkdirSync(dist, { recursive: true });
    writeFileSync(path.join(dist, 'index.html'), `<!doctype html><title>${app}</title>`);
    writeFileSync(path.join(dist, 'mf-manifest.json'), '{}');
    writeFileSync(path.join(dist, 'main.0123456789.js'), 'var main;');
    writeFileSync(path.join(dist, bigFile.slice(1)), Buffer.alloc(4 * 1024 * 1024, 'x'));
  }

  const running = await startPortico({
    rootDir: root,
    basePort: 0,
    host: '127.0.0.1',
    ssr: false,
    log: linesLogger((line) => process.stdout.write(`${line}\n`)),
  });
  process.stdout.write(`PORT ${new URL(running.url).port}\n`);
  process.once('SIGTERM', () => {
    void running.close().then(() => {
      rmSync(root, { recursive: true, force: true });
      process.exit(0);
    });
  });
}

void main();
